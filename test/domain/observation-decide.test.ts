// The pure rules that keep a dossier current: a plan's price in named fields (domain/pricingRead.ts), the plans'
// order, and what a cycle's changed sources change on the competitor (domain/observation.ts), on plain state.
import { describe, expect, test } from "bun:test";
import { decideObservation, type SourceObservation } from "../../src/domain/observation.ts";
import { keepPlanOrder, planRead, pricingRead } from "../../src/domain/pricingRead.ts";
import type { CompetitorRecord } from "../../src/domain/records.ts";

const NOW = "2026-11-27T12:00:00.000Z";
const base: CompetitorRecord = { name: "Globex", watch: "core", tracking: "active" };
const decide = (record: CompetitorRecord, observed: SourceObservation[], signalsSeen = false) =>
  decideObservation(record, { orgId: 1, competitorId: 7, observed, signalsSeen, now: NOW });

describe("a plan's price", () => {
  test('"$5k/yr" is 5000 billed a year, 416.67 its monthly equivalent — never 416.67 a year', () => {
    // As extraction reads it: a month in price, the yearly figure in amount.
    expect(planRead({ name: "Business", price: 416.67, period: "year", amount: 5000 })).toEqual({
      name: "Business",
      price: 5000,
      amount: 5000,
      period: "year",
      monthly_equivalent: 416.67,
    });
  });

  test('"$49/mo, billed annually" is 588 a year, 49 a month; a monthly plan is its amount a month', () => {
    expect(planRead({ name: "Pro", price: 49, period: "year" })).toMatchObject({
      amount: 588,
      price: 588,
      monthly_equivalent: 49,
    });
    expect(planRead({ name: "Team", price: 59, period: "month" })).toEqual({
      name: "Team",
      price: 59,
      amount: 59,
      period: "month",
    });
  });

  test("the yearly alternative is named alike; free and custom tiers; a plan already named is kept", () => {
    const team = planRead({ name: "Team", price: 59, period: "month", annual: { price: 49, amount: 588 } });
    expect(team.annual).toEqual({ amount: 588, period: "year", monthly_equivalent: 49 });
    expect(planRead(team)).toEqual(team);
    const yearly = planRead({ name: "Scale", price: 5000, period: "year", amount: 60000 });
    expect(planRead(yearly)).toEqual(yearly);
    expect(planRead({ name: "Free", price: 0 })).toEqual({ name: "Free", price: 0, amount: 0 });
    expect(planRead({ name: "Enterprise", price: null, custom: true })).toEqual({
      name: "Enterprise",
      price: null,
      custom: true,
    });
  });
});

describe("the plans' order", () => {
  const names = (ps: Record<string, unknown>[]) => ps.map((p) => p.name);
  test("a page that only moves its cards keeps the order known; new plans take the page's place", () => {
    const before = [{ name: "Team" }, { name: "Scale" }, { name: "Enterprise" }];
    expect(
      names(keepPlanOrder(before, [{ name: "Enterprise" }, { name: "Scale" }, { name: "Team" }])),
    ).toEqual(["Team", "Scale", "Enterprise"]);
    expect(
      names(
        keepPlanOrder(before, [
          { name: "Team" },
          { name: "Growth" },
          { name: "Scale" },
          { name: "Enterprise" },
        ]),
      ),
    ).toEqual(["Team", "Growth", "Scale", "Enterprise"]);
    expect(names(keepPlanOrder([], [{ name: "B" }, { name: "A" }]))).toEqual(["B", "A"]);
  });

  test("the read of a reordered page takes the known order and its new values", () => {
    const before = {
      plans: [
        { name: "Free", price: 0 },
        { name: "Team", price: 59 },
      ],
    };
    const next = pricingRead(
      {
        plans: [
          { name: "Team", price: 69, period: "month" },
          { name: "Free", price: 0 },
        ],
      },
      before,
    );
    expect(next).toMatchObject({ plans: [{ name: "Free" }, { name: "Team", amount: 69 }] });
  });
});

describe("a cycle's observations on the dossier", () => {
  const researched: CompetitorRecord = {
    ...base,
    urls: { pricing: "https://globex.example/pricing" },
    reads: {
      positioning: "Answers without SQL.",
      product: { summary: "Analytics.", features: ["Funnels", "Globex Ask", "Dashboards"] },
      pricing: {
        plans: [planRead({ name: "Free", price: 0 }), planRead({ name: "Team", price: 59, period: "month" })],
        free_tier: true,
        page: "https://globex.example/pricing",
      },
      integrations: {
        names: ["Snowflake", "Redshift", "Slack"],
        count: 3,
        page: "https://globex.example/integrations",
      },
      hiring: { open_roles: 3, by_department: { Engineering: 3 }, estimated_headcount: 120, source: "x" },
      tech_stack: { technologies: [{ name: "Next.js" }] },
    },
    internal: {
      read_sources: {
        "https://globex.example/product": { features: ["Funnels", "Globex Ask"] },
        "https://globex.example/": { features: ["Dashboards"] },
        "https://globex.example/integrations": { integrations: ["Snowflake", "Redshift"] },
        "https://globex.example/integrations?page=2": { integrations: ["Slack"] },
      },
    },
    freshness: { state_updated_at: "2026-11-20T00:00:00.000Z" },
  };

  test("a changed pricing page replaces the pricing read, in the order known, and says when", () => {
    const [e] = decide(
      researched,
      [
        {
          url: "https://globex.example/pricing",
          kind: "pricing",
          pricing: { plans: [{ name: "Team", price: 69, period: "month" }], free_tier: false },
        },
      ],
      true,
    );
    expect(e!.type).toBe("CompetitorObserved");
    const d = e!.data as Record<string, any>;
    expect(d.reads.pricing.plans).toEqual([{ name: "Team", price: 69, amount: 69, period: "month" }]);
    expect(d.reads.pricing.page).toBe("https://globex.example/pricing");
    expect(d.reads.pricing.free_tier).toBe(false);
    expect(Object.keys(d.reads)).toEqual(["pricing"]);
    expect(d.last_signal_at).toBe(NOW);
    expect(d.read_sources).toBeUndefined();
  });

  test("one integrations page of several changes: the others' names stay, the removed one goes", () => {
    const [e] = decide(researched, [
      {
        url: "https://globex.example/integrations",
        kind: "integrations",
        integrations: ["Snowflake", "Power BI"],
      },
    ]);
    const d = e!.data as Record<string, any>;
    expect(d.reads.integrations).toEqual({
      names: ["Snowflake", "Power BI", "Slack"],
      count: 3,
      page: "https://globex.example/integrations",
    });
    expect(d.read_sources["https://globex.example/integrations"]).toEqual({
      integrations: ["Snowflake", "Power BI"],
    });
  });

  test("the home page: positioning, summary and its features (the product page's stay)", () => {
    const [e] = decide(researched, [
      {
        url: "https://globex.example/",
        kind: "home",
        positioning: "Ask your data anything.",
        summary: "Product analytics.",
        features: ["Alerts"],
      },
    ]);
    const d = e!.data as Record<string, any>;
    expect(d.reads.positioning).toBe("Ask your data anything.");
    expect(d.reads.product).toEqual({
      summary: "Product analytics.",
      features: ["Funnels", "Globex Ask", "Alerts"],
    });
  });

  test("a job board's roles replace the hiring read; the stated headcount stays", () => {
    const [e] = decide(researched, [
      {
        url: "https://boards-api.greenhouse.io/v1/boards/globex/jobs",
        kind: "job_board:greenhouse",
        hiring: {
          open_roles: 4,
          by_department: { Engineering: 3, Sales: 1 },
          locations: [],
          board: "greenhouse",
        },
      },
    ]);
    expect((e!.data as Record<string, any>).reads.hiring).toEqual({
      open_roles: 4,
      by_department: { Engineering: 3, Sales: 1 },
      locations: [],
      board: "greenhouse",
      source: "https://boards-api.greenhouse.io/v1/boards/globex/jobs",
      estimated_headcount: 120,
    });
  });

  test("company facts read from a changed page follow it; facts read elsewhere or imported stay", () => {
    const record: CompetitorRecord = {
      ...researched,
      business_model: "Freemium subscription",
      company_size: 120,
      founding_year: 2016,
      industry: "Software",
      internal: {
        ...researched.internal,
        profile_evidence: {
          business_model: { url: "https://globex.example/pricing", excerpt: "Free" },
          company_size: { url: "https://globex.example/about", excerpt: "120 people" },
          founding_year: { url: "https://globex.example/about", excerpt: "Founded in 2016" },
        },
      },
    };
    const [e] = decide(record, [
      {
        url: "https://globex.example/pricing",
        kind: "pricing",
        profile: {
          url: "https://globex.example/pricing",
          fields: { business_model: "Subscription" },
          evidence: { business_model: { url: "https://globex.example/pricing", excerpt: "Team $69" } },
        },
      },
      {
        url: "https://globex.example/about",
        kind: "about",
        profile: {
          url: "https://globex.example/about",
          fields: { company_size: 150, industry: "Analytics" },
          evidence: {
            company_size: { url: "https://globex.example/about", excerpt: "150 people" },
            industry: { url: "https://globex.example/about", excerpt: "Analytics" },
          },
        },
      },
    ]);
    const d = e!.data as Record<string, any>;
    // industry was imported (no evidence): a page never overwrites it; the founding year is no longer stated.
    expect(d.profile).toEqual({ business_model: "Subscription", company_size: 150 });
    expect(d.profile_removed).toEqual(["founding_year"]);
    expect(Object.keys(d.profile_evidence).sort()).toEqual(["business_model", "company_size"]);
    expect(d.reads.hiring.estimated_headcount).toBe(150);
  });

  test("with an ICP set, the overlap is read again from the positioning the home page states now", () => {
    const icp = { industries: ["healthcare"] };
    const out = decideObservation(researched, {
      orgId: 1,
      competitorId: 7,
      observed: [
        { url: "https://globex.example/", kind: "home", positioning: "Analytics for healthcare teams." },
      ],
      signalsSeen: false,
      now: NOW,
      icp,
    });
    expect(out.map((e) => e.type)).toEqual(["CompetitorObserved", "CompetitorIcpOverlapComputed"]);
    expect((out[1]!.data as Record<string, any>).icp_overlap.level).not.toBe("none");
  });

  test("technologies: a changed page's own replace what it showed; the same set in another order is no change", () => {
    const record: CompetitorRecord = {
      ...researched,
      reads: {
        ...researched.reads,
        tech_stack: {
          technologies: [
            { name: "Next.js", page: "https://globex.example/" },
            { name: "Stripe", page: "https://globex.example/careers" },
          ],
        },
      },
      internal: {
        read_sources: {
          "https://globex.example/": { tech: [{ name: "Next.js" }] },
          "https://globex.example/careers": { tech: [{ name: "Stripe" }] },
        },
      },
    };
    const [e] = decide(record, [
      { url: "https://globex.example/careers", kind: "careers", tech: [{ name: "Paddle" }] },
    ]);
    expect((e!.data as Record<string, any>).reads.tech_stack.technologies).toEqual([
      { name: "Next.js", page: "https://globex.example/" },
      { name: "Paddle", page: "https://globex.example/careers" },
    ]);
    expect(
      decide(record, [
        { url: "https://globex.example/careers", kind: "careers", tech: [{ name: "Stripe" }] },
      ]),
    ).toEqual([]);
  });

  test("the security page's certifications and the release cadence of the source it was read from", () => {
    const record: CompetitorRecord = {
      ...researched,
      reads: {
        ...researched.reads,
        regulation: { security_txt: { contact: ["mailto:s@globex.example"] } },
        release_cadence: {
          last_release_at: "2026-10-01T00:00:00.000Z",
          source: "https://globex.example/changelog",
        },
      },
    };
    const cadence = {
      last_release_at: "2026-11-26T00:00:00.000Z",
      source: "https://globex.example/changelog",
    };
    const [e] = decide(record, [
      { url: "https://globex.example/security", kind: "security", certifications: ["SOC 2 Type II"] },
      { url: "https://globex.example/blog/feed.xml", kind: "feed", release_cadence: { source: "blog" } },
      { url: "https://globex.example/changelog", kind: "changelog", release_cadence: cadence },
    ]);
    const d = e!.data as Record<string, any>;
    expect(d.reads.regulation).toEqual({
      security_txt: { contact: ["mailto:s@globex.example"] },
      certifications: ["SOC 2 Type II"],
      page: "https://globex.example/security",
    });
    expect(d.reads.release_cadence).toEqual(cadence);
  });

  test("each release channel follows its own source; a repository's pre-releases stay research's", () => {
    const gh = "https://api.github.com/repos/globex-insights/globex-js/releases?per_page=30";
    const chan = (channel: string, source: string, at: string, extra = {}) => ({
      channel,
      source,
      releases_last_90_days: 1,
      last_release_at: at,
      ...extra,
    });
    const old = "2026-11-04T18:22:10.000Z";
    const record = {
      ...researched,
      reads: {
        ...researched.reads,
        release_cadence: {
          releases_last_90_days: 1,
          last_release_at: "2026-11-05T00:00:00.000Z",
          source: "https://globex.example/changelog",
          channels: [
            chan("changelog", "https://globex.example/changelog", "2026-11-05T00:00:00.000Z"),
            chan("globex-js releases", gh, old),
            chan("globex-js pre-releases", gh, "2026-11-12T10:31:44.000Z", { prerelease: true }),
          ],
        },
      },
    };
    const now = { releases_last_90_days: 2, last_release_at: "2026-11-19T17:05:00.000Z", source: gh };
    const [e] = decide(record, [{ url: gh, kind: "github_releases", release_cadence: now }]);
    const c = (e!.data as Record<string, any>).reads.release_cadence;
    // the headline cadence is the changelog's still; the repository's stable channel moves, its pre-releases not
    expect(c.source).toBe("https://globex.example/changelog");
    expect(c.channels).toEqual([
      chan("changelog", "https://globex.example/changelog", "2026-11-05T00:00:00.000Z"),
      { channel: "globex-js releases", ...now },
      chan("globex-js pre-releases", gh, "2026-11-12T10:31:44.000Z", { prerelease: true }),
    ]);
  });

  test("a pricing page that lists no plans now takes the pricing read away; nothing new decides nothing", () => {
    const [e] = decide(researched, [{ url: "https://globex.example/pricing", kind: "pricing" }]);
    expect((e!.data as Record<string, any>).removed).toEqual(["pricing"]);
    expect(decide(researched, [{ url: "https://globex.example/blog", kind: "blog" }])).toEqual([]);
    // Signals alone still move last_signal_at, never back in time (history's signals carry their past times).
    const [s] = decide(researched, [], true);
    expect(s!.data).toEqual({ competitor_id: 7, observed_at: NOW, last_signal_at: NOW });
    const later = { ...researched, freshness: { last_signal_at: "2026-11-28T00:00:00.000Z" } };
    expect(decide(later, [], true)).toEqual([]);
  });
});

describe("funding rounds a cycle sees announced", () => {
  const seriesA = {
    round: "Series A",
    amount_text: "$12 million",
    amount: 12_000_000,
    currency: "USD",
    text: "Brightloop raised a $12 million Series A in 2024.",
    source: "https://brightloop.example/newsroom",
  };
  const researched: CompetitorRecord = {
    ...base,
    reads: { funding: { rounds: [seriesA], sources: [seriesA.source] } },
  };
  const seriesB = (amount: number, source: string) => ({
    round: "Series B",
    amount_text: `$${amount / 1e6} million`,
    amount,
    currency: "USD",
    text: `Brightloop raises $${amount / 1e6} million Series B.`,
    source,
  });
  const observe = (record: CompetitorRecord, funding: ReturnType<typeof seriesB>[]) =>
    decideObservation(record, {
      orgId: 1,
      competitorId: 7,
      observed: [],
      funding,
      signalsSeen: true,
      now: NOW,
    });
  const fundingOf = (events: ReturnType<typeof observe>) =>
    (events[0]!.data as { reads?: { funding?: Record<string, any> } }).reads?.funding;

  test("a new round joins the rounds research read, with its sentence and page", () => {
    const f = fundingOf(observe(researched, [seriesB(40e6, "https://brightloop.example/blog/series-b/")]));
    expect(f?.rounds).toEqual([seriesA, seriesB(40e6, "https://brightloop.example/blog/series-b/")]);
    expect(f?.sources).toEqual([seriesA.source, "https://brightloop.example/blog/series-b/"]);
    expect(f?.conflicts).toBeUndefined();
  });

  test("a round seen again at its size changes nothing but the signal's time", () => {
    const once = {
      ...researched,
      reads: { funding: fundingOf(observe(researched, [seriesB(40e6, "https://b/1")])) },
    };
    const again = observe(once, [seriesB(40e6, "https://b/2")]);
    expect(again[0]!.data).toEqual({
      competitor_id: 7,
      observed_at: NOW,
      last_signal_at: NOW,
      reads: { funding: { ...once.reads.funding, sources: [seriesA.source, "https://b/1", "https://b/2"] } },
    });
  });

  test("two sizes of one round are one round and a conflict naming both, never two rounds", () => {
    const once = {
      ...researched,
      reads: { funding: fundingOf(observe(researched, [seriesB(32e6, "https://b/1")])) },
    };
    const f = fundingOf(observe(once, [seriesB(40e6, "https://b/2")]));
    expect(f?.rounds.map((r: { round: string }) => r.round)).toEqual(["Series A", "Series B"]);
    expect(f?.rounds[1].amount).toBe(32e6);
    expect(f?.conflicts).toEqual([
      {
        round: "Series B",
        text: "Sources disagree on the size of the Series B: $32 million or $40 million.",
        claims: [
          {
            amount_text: "$32 million",
            amount: 32e6,
            currency: "USD",
            text: "Brightloop raises $32 million Series B.",
            source: "https://b/1",
          },
          {
            amount_text: "$40 million",
            amount: 40e6,
            currency: "USD",
            text: "Brightloop raises $40 million Series B.",
            source: "https://b/2",
          },
        ],
      },
    ]);
  });
});

describe("what an open source says of the company, kept by cycles", () => {
  const item = "https://www.wikidata.org/wiki/Q1";
  const src = "https://www.wikidata.org/wiki/Special:EntityData/Q1.json";
  const ceo = (name: string) => ({ name, source: item, source_title: "Wikidata" });
  const record: CompetitorRecord = {
    ...base,
    reads: {
      funding: { rounds: [{ round: "Series A" }], chief_executive: ceo("Ada Byron") },
      regulation: { certifications: ["SOC 2"] },
    },
  };
  const data = (events: ReturnType<typeof decide>) => events[0]?.data as Record<string, any>;

  test("a new chief executive replaces the old one beside the rounds; the CIK joins the regulation read", () => {
    const sec = {
      cik: "0000000001",
      filings: "https://www.sec.gov/x",
      source: item,
      source_title: "Wikidata",
    };
    const d = data(
      decide(record, [{ url: src, kind: "wikidata", chief_executive: ceo("Grace Hopper"), sec }]),
    );
    expect(d.reads.funding).toEqual({
      rounds: [{ round: "Series A" }],
      chief_executive: ceo("Grace Hopper"),
    });
    expect(d.reads.regulation).toEqual({ certifications: ["SOC 2"], sec });
  });

  test("an item that names no chief executive any more removes it; the same one is no change", () => {
    const d = data(decide(record, [{ url: src, kind: "wikidata", chief_executive: null, sec: null }]));
    expect(d.reads.funding).toEqual({ rounds: [{ round: "Series A" }] });
    expect(d.reads.regulation).toBeUndefined();
    expect(
      decide(record, [{ url: src, kind: "wikidata", chief_executive: ceo("Ada Byron"), sec: null }]),
    ).toEqual([]);
  });

  test("a package or an app read now updates its own entry only; one research did not list is not added", () => {
    const r: CompetitorRecord = {
      ...base,
      reads: {
        packages: {
          packages: [
            { name: "a", source: "https://r/a", weekly_downloads: 10 },
            { name: "b", source: "https://r/b" },
          ],
        },
        apps: { apps: [{ name: "App", source: "https://l/1", rating: 4.6, rating_count: 100 }] },
      },
    };
    const d = data(
      decide(r, [
        { url: "https://r/a", kind: "npm_package", package: { weekly_downloads: 20 } },
        { url: "https://r/c", kind: "npm_package", package: { weekly_downloads: 5 } },
        { url: "https://l/1", kind: "app_store", app: { rating: 4.1, rating_count: 140 } },
      ]),
    );
    expect(d.reads.packages.packages).toEqual([
      { name: "a", source: "https://r/a", weekly_downloads: 20 },
      { name: "b", source: "https://r/b" },
    ]);
    expect(d.reads.apps.apps).toEqual([
      { name: "App", source: "https://l/1", rating: 4.1, rating_count: 140 },
    ]);
  });
});
