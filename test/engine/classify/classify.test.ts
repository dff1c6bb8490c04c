// classify(changes, ctx): every taxonomy type from realistic changes — the fixture web's Globex pages edited
// as a competitor would edit them, run through the real extraction, normalisation and comparison — with
// severity thresholds, worded titles with their values, evidence, dedup keys, and silence on noise.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classify } from "../../../src/engine/classify/index.ts";
import type { ClassifyContext, SignalDraft } from "../../../src/engine/classify/types.ts";
import {
  compare,
  normalise,
  normaliseFeed,
  normaliseJobs,
  seenOf,
} from "../../../src/engine/compare/index.ts";
import type { Change, Snapshot } from "../../../src/engine/compare/types.ts";
import { extractPage } from "../../../src/engine/extract/page.ts";
import { parseFeed } from "../../../src/engine/sources/feeds.ts";
import type { Job } from "../../../src/engine/sources/jobBoards.ts";
import { sourceKind } from "../../../src/engine/sources/kinds/index.ts";

const WEB = join(import.meta.dir, "..", "..", "..", "fixtures/web/sites");
const DIR = join(WEB, "globex.example/v1");
const SITE = "https://globex.example";
const AT = "2026-11-20T12:00:00.000Z";

function context(pageKind: string, prev?: Snapshot, next?: Snapshot, pageTitle?: string): ClassifyContext {
  return {
    competitor: { id: 7, name: "Globex" },
    pageKind,
    pageTitle,
    observedAt: AT,
    ...(prev ? { previous: prev } : {}),
    ...(next ? { snapshot: next } : {}),
  };
}

function edit(html: string, edits: [string, string][]): string {
  let out = html;
  for (const [from, to] of edits) {
    if (!out.includes(from)) throw new Error(`fixture has no ${JSON.stringify(from)}`);
    out = out.replace(from, to);
  }
  return out;
}

/** One page of the fixture site, before and after the edits, through extraction → normalise → compare →
 * classify. `history` edits give earlier versions the page showed (rotation). */
function page(
  file: string,
  path: string,
  pageKind: string,
  edits: [string, string][],
  opts: { before?: [string, string][]; history?: [string, string][][]; host?: string } = {},
): { changes: Change[]; drafts: SignalDraft[]; url: string } {
  const url = `${opts.host ? `https://${opts.host}` : SITE}${path}`;
  const dir = opts.host ? join(WEB, opts.host, "v1") : DIR;
  const v1 = edit(readFileSync(join(dir, file), "utf8"), opts.before ?? []);
  const prev = normalise(extractPage(v1, url));
  const next = normalise(extractPage(edit(v1, edits), url));
  const history = [prev, ...(opts.history ?? []).map((h) => normalise(extractPage(edit(v1, h), url)))];
  const changes = compare(prev, next, seenOf(history));
  const title = extractPage(v1, url).title;
  return { changes, drafts: classify(changes, context(pageKind, prev, next, title)), url };
}

function one(drafts: SignalDraft[]): SignalDraft {
  expect(drafts).toHaveLength(1);
  return drafts[0];
}

function expectEvidence(d: SignalDraft, url: string, holds: string) {
  expect(d.evidence.length).toBeGreaterThan(0);
  const e = d.evidence[0];
  expect(e.source_url).toBe(url);
  expect(e.observed_at).toBe(AT);
  expect(e.text).toContain(holds);
  expect(d.severity_reasons.length).toBeGreaterThan(0);
  expect(d.confidence_reasons.length).toBeGreaterThan(0);
  expect(d.confidence).toBeGreaterThan(0);
  expect(d.confidence).toBeLessThanOrEqual(1);
}

const price = (from: string, to: string): [string, string][] => [
  [`<span class="amount">${from}</span>`, `<span class="amount">${to}</span>`],
];

describe("pricing", () => {
  test("a paid plan's price up by 20%: high, worded with both values", () => {
    const { drafts, url } = page("pricing.html", "/pricing", "pricing", price("$49", "$59"), {
      before: price("$59", "$49"),
    });
    const d = one(drafts);
    expect(d).toMatchObject({ category: "pricing", type: "price_increase", severity: "high" });
    expect(d.title).toBe("Globex raises Team plan price from $49 to $59 per seat/month (+20%)");
    expect(d.summary).toContain("from $49 per seat/month to $59 per seat/month");
    expect(d.key).toBe("pricing:price:team");
    expect(d.value).toEqual({ before: "$49 per seat/month", after: "$59 per seat/month" });
    expectEvidence(d, url, "$59 per seat/month");
    expect(d.evidence[0].source_title).toBe("Pricing — Globex Insights");
  });

  test("the 10% threshold: exactly 10% is high, under 10% is medium, a decrease is price_decrease", () => {
    const at10 = one(
      page("pricing.html", "/pricing", "pricing", price("$50", "$55"), { before: price("$59", "$50") })
        .drafts,
    );
    expect(at10).toMatchObject({ type: "price_increase", severity: "high" });
    expect(at10.title).toContain("(+10%)");
    const under = one(page("pricing.html", "/pricing", "pricing", price("$59", "$64")).drafts);
    expect(under).toMatchObject({ type: "price_increase", severity: "medium" });
    expect(under.title).toBe("Globex raises Team plan price from $59 to $64 per seat/month (+8%)");
    const down = one(page("pricing.html", "/pricing", "pricing", price("$59", "$55")).drafts);
    expect(down).toMatchObject({ type: "price_decrease", severity: "medium" });
    expect(down.title).toBe("Globex cuts Team plan price from $59 to $55 per seat/month (-7%)");
    const bigDown = one(page("pricing.html", "/pricing", "pricing", price("$59", "$39")).drafts);
    expect(bigDown).toMatchObject({ type: "price_decrease", severity: "high" });
  });

  test("a plan added and a plan removed", () => {
    const business =
      '<div class="plan-card" data-plan="business"><h2 class="plan-name">Business</h2><div class="plan-price"><span class="amount">$99</span><span class="per">per seat / month</span></div><ul class="plan-features"><li>Everything in Team</li><li>SAML SSO</li></ul></div>';
    const anchor = '<div class="plan-card" data-plan="enterprise">';
    const added = page("pricing.html", "/pricing", "pricing", [[anchor, business + anchor]]);
    const d = one(added.drafts);
    expect(d).toMatchObject({ category: "pricing", type: "plan_added", severity: "high" });
    expect(d.title).toBe("Globex adds Business plan at $99 per seat/month");
    expectEvidence(d, added.url, "$99 per seat/month");
    const removed = page("pricing.html", "/pricing", "pricing", [[business, ""]], {
      before: [[anchor, business + anchor]],
    });
    const r = one(removed.drafts);
    expect(r).toMatchObject({ type: "plan_removed", severity: "high", key: "pricing:plan:business" });
    expect(r.title).toBe("Globex removes Business plan (was $99 per seat/month)");
    // The removal reverts the addition (same key, value back).
    expect(r.reverts).toBe(d.key);
    expect(r.value?.after).toBe(d.value?.before);
  });

  test("a price in the pricing page's text (an add-on) is medium; with plan prices changing it is left to them", () => {
    const host = "brightloop.example";
    const addon = page(
      "pricing.html",
      "/pricing",
      "pricing",
      [["Add 10,000 sessions for $25 per month", "Add 10,000 sessions for $35 per month"]],
      { host },
    );
    const d = one(addon.drafts);
    expect(d).toMatchObject({ category: "pricing", type: "price_increase", severity: "medium" });
    expect(d.title).toBe("Globex raises a price on its pricing page from $25 to $35 (+40%)");
    expectEvidence(d, "https://brightloop.example/pricing", "$35 per month");
    const both = page(
      "pricing.html",
      "/pricing",
      "pricing",
      [
        ['data-yearly="$1,190">$119</span>', 'data-yearly="$1,390">$139</span>'],
        ["Add 10,000 sessions for $25 per month", "Add 10,000 sessions for $29 per month"],
      ],
      { host },
    );
    expect(one(both.drafts)).toMatchObject({
      type: "price_increase",
      severity: "high",
      title: "Globex raises Growth plan price from $119 to $139/month (+17%)",
    });
  });

  test("the free tier ends", () => {
    const { drafts, url } = page("pricing.html", "/pricing", "pricing", [
      ['<span class="amount">$0</span>', '<span class="amount">$9</span>'],
    ]);
    const d = one(drafts);
    expect(d).toMatchObject({ category: "pricing", type: "free_tier_change", severity: "high" });
    expect(d.title).toBe("Globex ends its free tier: Free plan now costs $9/month");
    expectEvidence(d, url, "$9/month");
  });

  test("a feature moved up a tier is high; a changed limit is medium", () => {
    const moved = page("pricing.html", "/pricing", "pricing", [
      ["<li>Globex Ask</li>\n        <li>Warehouse", "<li>Warehouse"],
      ["<tr><th>Globex Ask</th><td>—</td><td>✓</td>", "<tr><th>Globex Ask</th><td>—</td><td>—</td>"],
    ]);
    const m = one(moved.drafts);
    expect(m).toMatchObject({ type: "packaging_change", severity: "high" });
    expect(m.title).toBe("Globex moves Globex Ask from Team plan to Enterprise plan");
    expectEvidence(m, moved.url, "Globex Ask");
    const limit = page("pricing.html", "/pricing", "pricing", [
      ["<li>100 million events per month</li>", "<li>50 million events per month</li>"],
    ]);
    const l = one(limit.drafts);
    expect(l).toMatchObject({ type: "packaging_change", severity: "medium" });
    expect(l.title).toBe(
      "Globex changes Team plan limits: 100 million events per month → 50 million events per month",
    );
    expectEvidence(l, limit.url, "50 million events per month");
  });
});

describe("product", () => {
  const card = (name: string, text: string) =>
    `<div class="feature-card">\n        <h3>${name}</h3>\n        <p>${text}</p>\n      </div>\n      `;
  const anchor = '<div class="feature-card">\n        <h3>Retention</h3>';

  test("a new feature on the home page is a flagship launch; a removed feature is high", () => {
    const launched = page("index.html", "/", "home", [
      [anchor, card("Flows", "Automate anything with a visual builder.") + anchor],
    ]);
    const d = one(launched.drafts);
    expect(d).toMatchObject({ category: "product", type: "feature_launch", severity: "high" });
    expect(d.title).toBe("Globex adds feature: Flows");
    expect(d.key).toBe("product:launch:flows");
    expectEvidence(d, `${SITE}/`, "Flows");
    const gone = page("index.html", "/", "home", [
      [card("Cohorts", "Build cohorts from behaviour and sync them to your CRM.").trimEnd(), ""],
    ]);
    const g = gone.drafts.find((x) => x.type === "feature_removed")!;
    expect(g).toMatchObject({ severity: "high", title: "Globex removes feature: Cohorts" });
  });

  test("a redesigned feature grid is one signal, not one per feature", () => {
    const cards = ["Flows", "Alerts", "Notebooks", "Experiments", "Data catalog"]
      .map((n) => card(n, `${n} for every team.`))
      .join("");
    const many = page("index.html", "/", "home", [[anchor, cards + anchor]]);
    const d = one(many.drafts);
    expect(d).toMatchObject({ type: "feature_launch", severity: "high" });
    expect(d.title).toBe("Globex adds 5 features: Alerts, Data catalog, Experiments, Flows, …");
  });

  test("integrations added and removed are medium", () => {
    const linear =
      '<a class="integration-card" href="/integrations/linear"><h3>Linear</h3><p>Link insights to Linear issues.</p></a>';
    const zap =
      '<a class="integration-card" href="/integrations/zapier"><h3>Zapier</h3><p>Trigger workflows from alerts.</p></a>';
    const added = page("integrations.html", "/integrations", "integrations", [[zap, zap + linear]]);
    const d = one(added.drafts);
    expect(d).toMatchObject({
      type: "integration_added",
      severity: "medium",
      title: "Globex adds Linear integration",
    });
    expectEvidence(d, added.url, "Linear");
    const rudder =
      '<a class="integration-card" href="/integrations/rudderstack"><img src="/static/int/rudderstack.svg" alt=""><h3>RudderStack</h3><p>Stream events from RudderStack.</p></a>';
    const removed = page("integrations.html", "/integrations", "integrations", [[rudder, ""]]);
    expect(one(removed.drafts)).toMatchObject({
      type: "integration_removed",
      severity: "medium",
      title: "Globex removes RudderStack integration",
      key: "product:integration:rudderstack",
    });
  });

  const entry = (title: string, text: string, tag: string) =>
    `<article class="entry" id="new"><time datetime="2026-11-19">November 19, 2026</time><h2><a href="/changelog#new">${title}</a></h2><p>${text}</p><span class="tag">${tag}</span></article>\n  `;
  const first = '<article class="entry" id="2026-11-12-saved-questions">';

  test("changelog entries: a launch, a release with new features, a patch release", () => {
    const launch = page("changelog.html", "/changelog", "changelog", [
      [first, entry("Introducing Flows", "Automate any workflow with a visual builder.", "New") + first],
    ]);
    const l = one(launch.drafts);
    expect(l).toMatchObject({ type: "feature_launch", severity: "medium", title: "Globex launches Flows" });
    expect(l.key).toBe("product:launch:flows");
    expectEvidence(l, launch.url, "Introducing Flows");
    expect(l.evidence[0].text).not.toContain("⟨");
    const release = page("changelog.html", "/changelog", "changelog", [
      [first, entry("Funnels v2", "Adds new conversion windows and exclusions.", "New") + first],
    ]);
    expect(one(release.drafts)).toMatchObject({ type: "release", severity: "medium" });
    const patch = page("changelog.html", "/changelog", "changelog", [
      [first, entry("v4.2.1", "Fixes a crash when exporting large charts.", "Fixed") + first],
    ]);
    const p = one(patch.drafts);
    expect(p).toMatchObject({ type: "release", severity: "low", title: "Globex releases v4.2.1" });
  });
});

describe("marketing", () => {
  test("a new home headline is a medium messaging change with both versions", () => {
    const { drafts, url } = page("index.html", "/", "home", [
      [
        "The fastest way for product teams to answer questions without SQL.",
        "Product analytics with an AI analyst built in.",
      ],
    ]);
    const d = one(drafts);
    expect(d).toMatchObject({ category: "marketing", type: "messaging_change", severity: "medium" });
    expect(d.title).toBe(
      'Globex changes its home page headline to "Product analytics with an AI analyst built in."',
    );
    expect(d.summary).toContain("The fastest way for product teams");
    expectEvidence(d, url, "Product analytics with an AI analyst built in.");
  });

  test("a major page appears in the navigation (medium); a customers page disappears (low: marketing proof)", () => {
    const nav = '<li><a href="/customers">Customers</a></li>';
    const added = page("pricing.html", "/pricing", "pricing", [
      [nav, `${nav}<li><a href="/enterprise">Enterprise</a></li>`],
    ]);
    const d = one(added.drafts);
    expect(d).toMatchObject({ type: "page_added", severity: "medium", key: "marketing:page:enterprise" });
    expect(d.title).toBe('Globex adds a new page to its site: "Enterprise" (/enterprise)');
    const removed = page("pricing.html", "/pricing", "pricing", [[nav, ""]]);
    expect(one(removed.drafts)).toMatchObject({
      type: "page_removed",
      severity: "low",
      reverts: "marketing:page:customers",
    });
  });

  test("many minor navigation links at once are one low signal; major ones stay their own", () => {
    const nav = '<li><a href="/customers">Customers</a></li>';
    const links = ["Webinars", "Events", "Community", "Podcast"]
      .map((n) => `<li><a href="/${n.toLowerCase()}">${n}</a></li>`)
      .join("");
    const { drafts } = page("pricing.html", "/pricing", "pricing", [
      [nav, `${nav}${links}<li><a href="/enterprise">Enterprise</a></li>`],
    ]);
    expect(drafts.map((d) => [d.type, d.severity, d.title])).toEqual([
      [
        "page_added",
        "low",
        "Globex reorganises its site navigation: 4 added (Community, Events, Podcast, Webinars)",
      ],
      ["page_added", "medium", 'Globex adds a new page to its site: "Enterprise" (/enterprise)'],
    ]);
  });

  test("a domain change is high", () => {
    const { drafts } = page("index.html", "/", "home", [
      [
        '<link rel="canonical" href="https://globex.example/">',
        '<link rel="canonical" href="https://globexinsights.com/">',
      ],
    ]);
    const d = drafts.find((x) => x.type === "domain_change")!;
    expect(d).toMatchObject({
      severity: "high",
      title: "Globex moves its website from globex.example to globexinsights.com",
    });
  });
});

describe("hiring", () => {
  const base: Job[] = [
    { title: "Enterprise Account Executive, EMEA", department: "Sales", location: "London, United Kingdom" },
    { title: "Senior Backend Engineer", department: "Engineering", location: "Austin, Texas" },
    { title: "Product Designer", department: "Design", location: "Austin, Texas" },
    { title: "Data Engineer", department: "Engineering", location: "Remote (US)" },
  ];
  const board = "https://boards-api.greenhouse.io/v1/boards/globex/jobs?content=true";
  function jobs(prev: Job[], next: Job[]) {
    const a = normaliseJobs(board, prev);
    const b = normaliseJobs(board, next);
    return classify(compare(a, b, seenOf([a])), context("jobs", a, b));
  }
  const more = (n: number, where = "Austin, Texas"): Job[] =>
    Array.from({ length: n }, (_, i) => ({
      title: `Software Engineer ${i + 1}`,
      department: "Engineering",
      location: where,
    }));

  test("open roles up ≥ 50% is a high surge; ≥ 20% medium; down is a slowdown", () => {
    const surge = one(jobs(base, [...base, ...more(3)]));
    expect(surge).toMatchObject({
      category: "hiring",
      type: "hiring_surge",
      severity: "high",
      key: "hiring:volume",
    });
    expect(surge.title).toBe("Globex grows open roles from 4 to 7 (+75%)");
    expectEvidence(surge, board, "4 → 7");
    const ten = [...base, ...more(6)];
    expect(
      one(jobs(ten, [...ten, ...more(2, "Austin, Texas").map((j) => ({ ...j, title: `${j.title}b` }))])),
    ).toMatchObject({
      type: "hiring_surge",
      severity: "medium",
    });
    const slow = one(jobs([...base, ...more(4)], base));
    expect(slow).toMatchObject({ type: "hiring_slowdown", severity: "high" });
    expect(slow.title).toBe("Globex cuts open roles from 8 to 4 (-50%)");
    expect(one(jobs([...base, ...more(3)], base))).toMatchObject({
      type: "hiring_slowdown",
      severity: "medium",
    });
  });

  test("every net change is a signal: a single posting (a remote one too) is low, opened or closed", () => {
    const remote = one(
      jobs(base, [
        ...base,
        { title: "Support Engineer", department: "Engineering", location: "Remote (US)" },
      ]),
    );
    expect(remote).toMatchObject({
      category: "hiring",
      type: "hiring_surge",
      severity: "low",
      key: "hiring:volume",
      title: "Globex opens a role: Support Engineer (Engineering, Remote (US))",
    });
    expectEvidence(remote, board, "Support Engineer");
    expect(one(jobs(base, base.slice(1)))).toMatchObject({
      type: "hiring_slowdown",
      severity: "low",
      title: "Globex closes a role: Enterprise Account Executive, EMEA (Sales, London, United Kingdom)",
    });
    // A small net change of several postings (+2 of 20, 10%) is low too.
    const twenty = [...base, ...more(16)];
    expect(
      one(jobs(twenty, [...twenty, ...more(2).map((j) => ({ ...j, title: `${j.title}b` }))])),
    ).toMatchObject({
      type: "hiring_surge",
      severity: "low",
      title: "Globex grows open roles from 20 to 22 (+10%)",
    });
    // No net change (one role replaced by another in the same team and place): no signal.
    expect(
      jobs(base, [
        ...base.slice(0, 3),
        { title: "Analytics Engineer", department: "Engineering", location: "Remote (US)" },
      ]),
    ).toEqual([]);
  });

  test("a new team (a department with no open role before) is medium; a posting another rule reported is not said twice", () => {
    const legal = one(
      jobs(base, [...base, { title: "Legal Counsel", department: "Legal", location: "Austin, Texas" }]),
    );
    expect(legal).toMatchObject({
      type: "hiring_surge",
      severity: "medium",
      key: "hiring:team:legal",
      title: "Globex starts hiring for Legal (1 role)",
    });
    expectEvidence(legal, board, "Legal Counsel");
    // A Head of Legal: the leadership opening says it (no team, no postings signal besides).
    expect(
      jobs(base, [...base, { title: "Head of Legal", department: "Legal", location: "Austin, Texas" }]).map(
        (d) => d.type,
      ),
    ).toEqual(["key_role_opening"]);
    // A list whose previous version named no department has no teams to compare.
    const bare = base.map(({ department: _, ...j }) => j);
    expect(
      jobs(bare, [...bare, { title: "Legal Counsel", department: "Legal", location: "Austin, Texas" }]).map(
        (d) => [d.type, d.severity],
      ),
    ).toEqual([["hiring_surge", "low"]]);
  });

  test("a remote region never seen before is a new location like any other", () => {
    expect(
      one(
        jobs(base, [
          ...base,
          { title: "Solutions Engineer", department: "Sales", location: "Remote (EMEA)" },
        ]),
      ),
    ).toMatchObject({
      type: "new_location",
      severity: "medium",
      title: "Globex starts hiring remotely: Remote (EMEA) (1 role)",
    });
  });

  test("an executive role opening is high; a role in a new city is a new location", () => {
    const exec = jobs(base, [
      ...base,
      { title: "VP of Sales", department: "Sales", location: "Austin, Texas" },
    ]);
    expect(one(exec)).toMatchObject({
      type: "key_role_opening",
      severity: "high",
      title: "Globex is hiring a VP of Sales (Austin, Texas)",
    });
    const berlin = jobs(base, [...base, { title: "Account Executive, DACH", location: "Berlin, Germany" }]);
    expect(one(berlin)).toMatchObject({
      type: "new_location",
      severity: "medium",
      title: "Globex starts hiring in Berlin, Germany (1 role)",
    });
  });
});

describe("announcements (feeds, blog, about and security pages)", () => {
  const rss = readFileSync(join(DIR, "changelog/rss.xml"), "utf8");
  const feedUrl = `${SITE}/blog/feed.atom`;
  function item(title: string, description = "") {
    const add = `<item><title>${title}</title><link>${SITE}/blog/${encodeURIComponent(title.slice(0, 20))}</link><guid>${title}</guid><pubDate>Thu, 19 Nov 2026 16:00:00 GMT</pubDate><description>${description}</description></item>\n    <item>`;
    const prev = normaliseFeed(feedUrl, parseFeed(rss, feedUrl));
    const next = normaliseFeed(feedUrl, parseFeed(rss.replace("<item>", add), feedUrl));
    return classify(compare(prev, next, seenOf([prev])), context("blog"));
  }

  test.each([
    [
      "Globex acquires Datalytics to bring session replay in-house",
      "company",
      "acquisition",
      "high",
      "Globex acquires Datalytics",
    ],
    [
      "Globex raises $120M Series D led by Harbor Peak",
      "company",
      "funding",
      "high",
      "Globex raises a $120M Series D",
    ],
    ["Globex appoints Lena Ortiz as Chief Financial Officer", "company", "leadership_change", "high", ""],
    [
      "Globex partners with Snowflake on warehouse-native analytics",
      "company",
      "partnership",
      "medium",
      "Globex announces partnership with Snowflake",
    ],
    [
      "Globex opens a new office in Berlin",
      "company",
      "office_opening",
      "medium",
      "Globex opens an office in Berlin",
    ],
    [
      "Security incident report: unauthorized access to a support tool",
      "legal_security",
      "security_incident",
      "high",
      "",
    ],
    [
      "Globex achieves ISO 27001 certification",
      "legal_security",
      "certification",
      "medium",
      "Globex announces ISO 27001 certification",
    ],
    [
      "We updated our Privacy Policy",
      "legal_security",
      "policy_change",
      "low",
      "Globex updates its Privacy Policy",
    ],
    [
      "Introducing Flows: automation for product teams",
      "product",
      "feature_launch",
      "medium",
      "Globex launches Flows",
    ],
  ])("%s", (title, category, type, severity, wording) => {
    const d = one(item(title, "Read the announcement."));
    expect(d).toMatchObject({ category, type, severity });
    if (wording) expect(d.title).toBe(wording);
    expect(d.evidence[0].text).toContain(title);
    expect(d.evidence[0].source_url).toStartWith(`${SITE}/blog/`);
  });

  test("GitHub releases: a minor release with new features is medium, a patch release low", () => {
    const url = "https://github.com/globex-insights/globex-js/releases.atom";
    const atom = readFileSync(join(WEB, "github.com/v1/globex-insights/globex-js/releases.atom"), "utf8");
    const entry = (v: string, body: string) =>
      `<entry><id>tag:github.com,2008:Repository/301122334/${v}</id><updated>2026-11-19T10:00:00Z</updated><link rel="alternate" type="text/html" href="https://github.com/globex-insights/globex-js/releases/tag/${v}"/><title>${v}</title><content type="html">${body}</content></entry>\n  <entry>`;
    const run = (v: string, body: string) => {
      const prev = normaliseFeed(url, parseFeed(atom, url));
      const next = normaliseFeed(url, parseFeed(atom.replace("<entry>", entry(v, body)), url));
      // read as its source kind says: a GitHub repository's releases, named by the repository
      const as = sourceKind("releases_feed").classifyAs("releases_feed", url);
      return one(classify(compare(prev, next, seenOf([prev])), { ...context("feed"), ...as }));
    };
    const minor = run("v4.3.0", "&lt;ul&gt;&lt;li&gt;New: funnels API&lt;/li&gt;&lt;/ul&gt;");
    expect(minor).toMatchObject({
      type: "release",
      severity: "medium",
      title: "Globex releases globex-js v4.3.0",
    });
    expect(minor.evidence[0].source_url).toBe(
      "https://github.com/globex-insights/globex-js/releases/tag/v4.3.0",
    );
    expect(run("v4.2.1", "&lt;p&gt;Fix: batch flush on unload.&lt;/p&gt;")).toMatchObject({
      type: "release",
      severity: "low",
      key: "product:release:globex-js-v4-2-1",
    });
  });

  test("a generic blog post gives nothing", () => {
    expect(item("Seven ways to improve week-1 retention", "Practical tips.")).toEqual([]);
    expect(item("Retention benchmarks for B2B SaaS, 2027 edition")).toEqual([]);
    for (const title of [
      "How we acquired our first 1,000 customers",
      "Inside our partner program",
      "What the new CFO playbook looks like",
      "Why every CEO needs product analytics",
      "Meet the team behind Flows",
      "How to respond to a breach in your funnel",
      "How we handle vulnerability reports",
      "Globex opens access to location analytics",
      "Globex raises the bar for retention analysis",
    ])
      expect({ title, drafts: item(title, "Read more.") }).toEqual({ title, drafts: [] });
  });

  test("a new post on the blog index: funding from its card", () => {
    const post = '<li class="post-card">';
    const { drafts } = page("blog.html", "/blog", "blog", [
      [
        post,
        `${post}<a href="/blog/series-d"><h2>Globex raises $120M Series D to build the AI analyst</h2></a><p class="meta"><time datetime="2026-11-19">Nov 19, 2026</time> · Priya Raman</p><p>Led by Harbor Peak.</p></li><li class="post-card">`,
      ],
    ]);
    expect(one(drafts)).toMatchObject({ type: "funding", severity: "high" });
  });

  test("about page: a new C-level person and a new office; security page: a certification; terms edited", () => {
    const people = page("about.html", "/about", "about", [
      [
        '<div class="person"><h3>Maya Chen</h3><p>Head of Product</p></div>',
        '<div class="person"><h3>Maya Chen</h3><p>Head of Product</p></div><div class="person"><h3>Lena Ortiz</h3><p>Chief Revenue Officer</p></div>',
      ],
    ]);
    expect(one(people.drafts)).toMatchObject({
      type: "leadership_change",
      severity: "high",
      title: "Globex names Lena Ortiz Chief Revenue Officer",
    });
    const office = page("about.html", "/about", "about", [
      ["<dt>Offices</dt><dd>Austin, London</dd>", "<dt>Offices</dt><dd>Austin, London, Berlin</dd>"],
    ]);
    const o = one(office.drafts);
    expect(o).toMatchObject({
      type: "office_opening",
      severity: "medium",
      title: "Globex opens an office in Berlin",
    });
    expectEvidence(o, office.url, "Berlin");
    const cert = page("security.html", "/security", "security", [
      [
        "<li>GDPR and CCPA compliant; DPA available</li>",
        "<li>GDPR and CCPA compliant; DPA available</li><li>ISO/IEC 27001 certified</li>",
      ],
    ]);
    const c = one(cert.drafts);
    expect(c).toMatchObject({
      type: "certification",
      severity: "medium",
      title: "Globex lists ISO 27001 certification",
    });
    expectEvidence(c, cert.url, "ISO/IEC 27001 certified");
    const incident = page("security.html", "/security", "security", [
      [
        "<h2>Compliance</h2>",
        "<p>Security notice: on November 18 we detected unauthorized access to a support tool; no event data was exposed.</p>\n  <h2>Compliance</h2>",
      ],
    ]);
    const i = one(incident.drafts);
    expect(i).toMatchObject({ category: "legal_security", type: "security_incident", severity: "high" });
    expectEvidence(i, incident.url, "unauthorized access");
    const terms = page("legal/terms.html", "/legal/terms", "legal", [
      [
        "Paid plans are billed in advance, monthly or annually, in US dollars.",
        "Paid plans are billed in advance, annually only, in US dollars or euros.",
      ],
    ]);
    const t = one(terms.drafts);
    expect(t).toMatchObject({ category: "legal_security", type: "policy_change", severity: "low" });
    expectEvidence(t, terms.url, "annually only");
  });
});

describe("noise gives nothing", () => {
  test("masked values, reordered lists, banners, rotation and trivial copy edits", () => {
    const noise: [string, string, string, [string, string][], [string, string][][]?][] = [
      ["index.html", "/", "home", [["Trusted by 2,300+ product teams", "Trusted by 2,450+ product teams"]]],
      ["pricing.html", "/pricing", "pricing", [["© 2026 Globex Insights", "© 2027 Globex Insights"]]],
      [
        "pricing.html",
        "/pricing",
        "pricing",
        [["We use cookies to improve your experience.", "We use cookies to personalise content and ads."]],
      ],
      ["pricing.html", "/pricing", "pricing", [["main-1a2b3c4d5e.js", "main-9f8e7d6c5b.js"]]],
      [
        "pricing.html",
        "/pricing",
        "pricing",
        [
          [
            "<li>Up to 3 seats</li>\n        <li>10 million events per month</li>",
            "<li>10 million events per month</li>\n        <li>Up to 3 seats</li>",
          ],
        ],
      ],
      [
        "changelog.html",
        "/changelog",
        "changelog",
        [
          [
            '<time datetime="2026-11-12">November 12, 2026</time>',
            '<time datetime="2026-11-13">November 13, 2026</time>',
          ],
        ],
      ],
      // A typo fix on the home page, a one-word edit on the pricing FAQ.
      [
        "index.html",
        "/",
        "home",
        [["Weekly and monthly retention curves", "Weekly and monthly retention charts"]],
      ],
      [
        "pricing.html",
        "/pricing",
        "pricing",
        [["Viewers of shared dashboards are free.", "Viewers of shared dashboards are always free."]],
      ],
      // Copy edits on pages that are not key pages.
      [
        "about.html",
        "/about",
        "about",
        [
          [
            "got tired of writing the same SQL every Monday",
            "were tired of writing the same SQL queries every single Monday morning",
          ],
        ],
      ],
      [
        "careers.html",
        "/careers",
        "careers",
        [["$1,500 yearly learning budget", "$2,000 yearly learning and conference budget"]],
      ],
      // A rotating testimonial: the new quote was shown before.
      [
        "index.html",
        "/",
        "home",
        [
          [
            "We retired three dashboards and a weekly SQL ritual in the first month.",
            "Our PMs answer their own questions now.",
          ],
        ],
        [
          [
            [
              "We retired three dashboards and a weekly SQL ritual in the first month.",
              "Our PMs answer their own questions now.",
            ],
          ],
        ],
      ],
      // Terms: only the "last updated" date.
      [
        "legal/terms.html",
        "/legal/terms",
        "legal",
        [["Last updated: March 1, 2026", "Last updated: November 1, 2026"]],
      ],
    ];
    for (const [file, path, kind, edits, history] of noise) {
      const { drafts, changes } = page(file, path, kind, edits, { history });
      expect({ edits, drafts: drafts.map((d) => d.title), changes: changes.map((c) => c.excerpt) }).toEqual({
        edits,
        drafts: [],
        changes: expect.any(Array),
      });
    }
  });

  test("no changes, no drafts; only-masked changes, no drafts", () => {
    expect(classify([], context("home"))).toEqual([]);
    const masked: Change = {
      kind: "text_changed",
      source: "page",
      url: `${SITE}/`,
      subject: "Hero",
      before: "Updated ⟨date⟩",
      after: "Updated ⟨ago⟩",
      excerpt: "Updated [-⟨date⟩][+⟨ago⟩]",
      diff: [
        { op: "=", text: "Updated " },
        { op: "-", text: "⟨date⟩" },
        { op: "+", text: "⟨ago⟩" },
      ],
    };
    expect(classify([masked], context("home"))).toEqual([]);
  });
});
