// Normalisation and comparison: every kind of noise ENGINE.md lists gives zero changes; planted material
// changes give exactly the expected changes, with word diffs that point at the changed words.
import { describe, expect, test } from "bun:test";
import {
  type Change,
  compare,
  maskText,
  maskUrl,
  normalise,
  normaliseFeed,
  normaliseJobs,
  normaliseStructured,
  seenOf,
  serialise,
  snapshotHash,
} from "../../../src/engine/compare/index.ts";
import type { PageExtract } from "../../../src/engine/extract/page.ts";
import { basePage, card, listIn, setText, URL, variant } from "../../support/engine-compare-fixture.ts";

const base = normalise(basePage());

/** Changes from the base page to the variant, with the base as the only history. */
function changesTo(p: PageExtract, history = [base]): Change[] {
  return compare(base, normalise(p), seenOf(history));
}

describe("noise gives zero changes", () => {
  const noise: [string, (p: PageExtract) => void][] = [
    ["dates", (p) => setText(p, "Updated", "We help teams ship faster. Updated Nov. 22nd, 2026.")],
    [
      "ISO date-times and modified times",
      (p) => {
        p.meta["article:modified_time"] = "2026-11-22T08:00:00Z";
        (p.jsonLd[0] as Record<string, unknown>).dateModified = "2026-11-22";
      },
    ],
    ["relative times", (p) => setText(p, "Join", "Join 12,345 happy customers — last deploy 5 minutes ago")],
    ["live counters", (p) => setText(p, "Join", "Join 12,402 happy customers — last deploy 3 hours ago")],
    ["a bare counter", (p) => setText(p, "1.2M", "1.3M")],
    [
      "ratings counters in JSON-LD",
      (p) => {
        (p.jsonLd[0] as Record<string, unknown>).aggregateRating = { ratingValue: 4.7, reviewCount: 2400 };
      },
    ],
    ["copyright years", (p) => setText(p, "©", "© 2026 Globex Inc. All rights reserved. Build a1b2c3d4")],
    ["build hashes", (p) => setText(p, "©", "© 2025 Globex Inc. All rights reserved. Build 9f8e7d6c")],
    [
      "nonces and CSRF values",
      (p) => {
        p.meta["csrf-token"] = "Qq1Ww2Ee3Rr4Tt5Yy6Uu7Ii8Oo";
        p.blocks.push({ kind: "text", text: "nonce=Ab12Cd34Ef56Gh78Ij90", section: "FAQ" });
      },
    ],
    [
      "cache-buster and tracking query strings",
      (p) => {
        p.links.nav[2].url = "https://globex.example/blog?v=987&utm_campaign=x";
        p.meta["og:url"] = "https://globex.example/pricing?utm_source=linkedin";
        p.scripts = ["https://globex.example/assets/app.9b8c7d6e.js"];
      },
    ],
    [
      "srcset lists",
      (p) => {
        p.blocks.push({ kind: "text", text: "hero-480.webp 480w, hero-960.webp 960w", section: "FAQ" });
      },
    ],
    [
      "reordered lists and cards",
      (p) => {
        listIn(p, "Features").reverse();
        listIn(p, "Integrations").reverse();
        const cards = p.blocks.filter((b) => b.kind === "card");
        const first = p.blocks.indexOf(cards[0]);
        p.blocks.splice(first, cards.length, ...[...cards].reverse());
        card(p, "Team").reverse();
        p.plans.reverse();
        p.features.reverse();
        p.integrations.reverse();
        p.links.nav.reverse();
      },
    ],
    [
      "a consent banner and a chat widget",
      (p) => {
        p.blocks.push(
          { kind: "heading", level: 3, text: "We value your privacy" },
          {
            kind: "text",
            text: "We use cookies to improve your experience. Accept all or manage preferences.",
          },
          { kind: "list", items: ["Accept all", "Reject all", "Manage preferences"] },
        );
        p.blocks.push({ kind: "text", text: "Chat with us — we're online" });
        p.blocks.splice(2, 0, {
          kind: "text",
          text: "This site uses cookies. By continuing you agree to our cookie policy. OK",
        });
      },
    ],
    [
      "whitespace, non-breaking and zero-width characters",
      (p) => {
        setText(p, "We help", "We\u00a0help  teams\u200b ship faster.\n Updated November 20, 2026.");
        p.hero = {
          headline: " Ship faster\u00a0with Globex ",
          subheadline: "The platform for modern product teams",
        };
      },
    ],
    [
      "JSON-LD key order",
      (p) => {
        const o = p.jsonLd[0] as Record<string, unknown>;
        p.jsonLd[0] = Object.fromEntries(Object.entries(o).reverse());
      },
    ],
    [
      "JSON-LD objects and unnamed array members in another order",
      (p) => {
        const offers = (n: number) => ({ "@type": "Offer", price: n, priceCurrency: "USD" });
        p.jsonLd.push(offers(0), offers(49));
        p.jsonLd.reverse();
        (p.jsonLd.find((o) => o["@type"] === "Organization") as Record<string, unknown>).department = [
          { "@type": "Organization", email: "sales@globex.example" },
          { "@type": "Organization", email: "support@globex.example" },
        ];
      },
    ],
    [
      "a block that moved",
      (p) => {
        const i = p.blocks.findIndex((b) => b.kind === "text" && b.text.startsWith("“Globex"));
        const [quote] = p.blocks.splice(i, 1);
        p.blocks.push(quote);
      },
    ],
  ];
  for (const [name, edit] of noise) {
    test(name, () => {
      const v = variant(edit);
      // the CSRF-style nonce line is compared against a base that had another nonce
      const from =
        name === "JSON-LD objects and unnamed array members in another order"
          ? normalise(
              variant((p) => {
                const offers = (n: number) => ({ "@type": "Offer", price: n, priceCurrency: "USD" });
                p.jsonLd.push(offers(49), offers(0));
                (p.jsonLd[0] as Record<string, unknown>).department = [
                  { "@type": "Organization", email: "support@globex.example" },
                  { "@type": "Organization", email: "sales@globex.example" },
                ];
              }),
            )
          : name === "nonces and CSRF values"
            ? normalise(
                variant((p) =>
                  p.blocks.push({ kind: "text", text: "nonce=Zz98Yy76Xx54Ww32Vv10", section: "FAQ" }),
                ),
              )
            : base;
      expect(compare(from, normalise(v), seenOf([from]))).toEqual([]);
    });
  }

  test("a noise-only version hashes the same as the original (nothing new is stored)", () => {
    const v = variant((p) => {
      setText(p, "Updated", "We help teams ship faster. Updated December 1, 2026.");
      setText(p, "Join", "Join 13,001 happy customers — last deploy 12 minutes ago");
      setText(p, "©", "© 2026 Globex Inc. All rights reserved. Build ffee0011");
      listIn(p, "Integrations").reverse();
      p.links.nav[2].url = "https://globex.example/blog?v=999";
    });
    expect(snapshotHash(normalise(v))).toBe(snapshotHash(base));
  });

  test("a rotating testimonial, an A/B headline and a logo wall that rotate among values already seen", () => {
    const a = base;
    const b = normalise(
      variant((p) => {
        setText(p, "“Globex", "“We cut release time in half.” — Bo, Umbrella");
        p.hero = {
          headline: "Release with confidence",
          subheadline: "The platform for modern product teams",
        };
        p.blocks[0] = { kind: "heading", level: 1, text: "Release with confidence" };
        listIn(p, "Loved by teams").splice(0, 4, "Initech", "Acme", "Hooli", "Stark");
      }),
    );
    // History: a, b. The page goes back to a's values: nothing new.
    expect(compare(b, a, seenOf([a, b]))).toEqual([]);
    // And from a to b again, with b in the history: nothing new either.
    expect(compare(a, b, seenOf([a, b]))).toEqual([]);
    // The first time b shows up, it is a change.
    expect(compare(a, b, seenOf([a])).length).toBeGreaterThan(0);
  });

  test("a testimonial never seen before in place of another (a random carousel) is not a change", () => {
    const v = variant((p) =>
      setText(p, "“Globex", "“Our weekly report now takes five minutes.” — Eve, Hooli"),
    );
    expect(changesTo(v)).toEqual([]);
  });

  test("a count in a link text (GitHub stars) does not change the snapshot", () => {
    const star = (n: string) =>
      normalise(
        variant((p) => p.links.nav.push({ url: "https://github.com/globex/globex", text: `Star ${n}` })),
      );
    expect(serialise(star("12.3k"))).toBe(serialise(star("12.4k")));
  });

  test("serialisation is deterministic: sorted keys at every level", () => {
    expect(serialise({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 3 } })).toBe(
      '{"a":{"c":3,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
    expect(serialise(normalise(basePage()))).toBe(serialise(base));
  });

  test("a string is written as JSON.stringify writes it, escapes and all", () => {
    const texts = [
      "plain text, 100% ok — “quoted” €9",
      'a "quote" and a \\ backslash',
      "tab\tnew line\ncarriage\rbell\u0007 nul\u0000 unit\u001f",
      "line\u2028separator and DEL\u007f",
      "emoji 🚀 pair, lone \ud83d high and \ude80 low",
      "",
    ];
    for (const t of texts) {
      expect(serialise(t)).toBe(JSON.stringify(t));
      expect(serialise({ [t]: [t] })).toBe(JSON.stringify({ [t]: [t] }));
    }
  });
});

describe("material changes give exactly the expected changes", () => {
  test("a price increase: one plan_price_changed with old and new values, not also a card text change", () => {
    const changes = changesTo(
      variant((p) => {
        p.plans[1].price = 59;
        card(p, "Team")[0] = "$59 per seat/month";
      }),
    );
    expect(changes).toHaveLength(1);
    const [c] = changes;
    expect(c).toMatchObject({
      kind: "plan_price_changed",
      source: "page",
      url: URL,
      subject: "Team",
      before: "$49 per seat/month",
      after: "$59 per seat/month",
      price: {
        before: { price: 49, currency: "USD", period: "month", unit: "seat" },
        after: { price: 59, currency: "USD", period: "month", unit: "seat" },
        delta: 0.2041,
      },
    });
    expect(c.excerpt).toBe("Team: $[-49][+59] per seat/month");
  });

  test("prices are never masked, even big ones", () => {
    const v = variant((p) => {
      p.plans[1].price = 1299;
      card(p, "Team")[0] = "$1,299 per seat/month";
      setText(p, "1.2M", "Starts at $12,500 per year");
    });
    const changes = changesTo(v);
    expect(changes.map((c) => c.kind).sort()).toEqual(["plan_price_changed", "text_changed"]);
    expect(changes.find((c) => c.kind === "text_changed")!.after).toBe("Starts at $12,500 per year");
  });

  test("a plan added and a plan removed", () => {
    const changes = changesTo(
      variant((p) => {
        p.plans.splice(0, 1);
        p.blocks.splice(5, 1);
        p.plans.push({
          name: "Scale",
          price: 99,
          currency: "USD",
          period: "month",
          unit: "seat",
          features: ["Audit log"],
        });
        p.blocks.splice(6, 0, {
          kind: "card",
          title: "Scale",
          items: ["$99 per seat/month", "Audit log"],
          section: "Plans",
        });
      }),
    );
    expect(changes.map((c) => [c.kind, c.subject])).toEqual([
      ["plan_added", "Scale"],
      ["plan_removed", "Starter"],
    ]);
    expect(changes[0].after).toBe("Scale: $99 per seat/month");
    expect(changes[1].before).toBe("Starter: $0/month");
  });

  test("a feature moves to a higher tier; a plan limit changes (limits are not masked as counters)", () => {
    const changes = changesTo(
      variant((p) => {
        p.plans[1].features = ["Unlimited projects", "Up to 25,000 contacts"];
        card(p, "Team").splice(0, 4, "$49 per seat/month", "Unlimited projects", "Up to 25,000 contacts");
      }),
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      kind: "plan_features_changed",
      subject: "Team",
      added: ["Up to 25,000 contacts"],
      removed: ["SSO", "Up to 10,000 contacts"],
    });
  });

  test("an integration added and a feature removed", () => {
    const changes = changesTo(
      variant((p) => {
        p.integrations.push("Salesforce");
        listIn(p, "Integrations").push("Salesforce");
        p.features = ["Dashboards", "Alerts"];
        listIn(p, "Features").splice(2, 1);
      }),
    );
    expect(changes.map((c) => [c.kind, c.subject])).toEqual([
      ["feature_removed", "Reports"],
      ["integration_added", "Salesforce"],
    ]);
  });

  test("a page appears in the navigation and one disappears from the footer", () => {
    const changes = changesTo(
      variant((p) => {
        p.links.nav.push({ url: "https://globex.example/security", text: "Security" });
        p.links.footer = p.links.footer.filter((l) => l.text !== "Careers");
      }),
    );
    expect(changes).toEqual([
      expect.objectContaining({
        kind: "page_added",
        subject: "Security",
        after: "https://globex.example/security",
      }),
      expect.objectContaining({
        kind: "page_removed",
        subject: "Careers",
        before: "https://globex.example/careers",
      }),
    ]);
  });

  test("a JSON-LD field changes (a new headquarters)", () => {
    const changes = changesTo(
      variant((p) => {
        (p.jsonLd[0].address as Record<string, string>).addressLocality = "Munich";
      }),
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      kind: "field_changed",
      subject: "Organization.address.addressLocality",
      before: "Berlin",
      after: "Munich",
    });
  });

  test("a new hero headline: one hero_changed, not also a heading change", () => {
    const changes = changesTo(
      variant((p) => {
        p.hero = {
          headline: "The AI platform for product teams",
          subheadline: "The platform for modern product teams",
        };
        p.blocks[0] = { kind: "heading", level: 1, text: "The AI platform for product teams" };
      }),
    );
    expect(changes.map((c) => c.kind)).toEqual(["hero_changed"]);
    expect(changes[0].after).toBe(
      "The AI platform for product teams — The platform for modern product teams",
    );
    expect(changes[0].excerpt).toContain("[+The AI platform for product teams]");
  });

  test("a changed sentence: the word diff highlights the changed words, with context and section", () => {
    const changes = changesTo(
      variant((p) => setText(p, "We help", "We help enterprises ship faster. Updated November 20, 2026.")),
    );
    expect(changes).toHaveLength(1);
    const [c] = changes;
    expect(c).toMatchObject({
      kind: "text_changed",
      section: "Ship faster with Globex",
      subject: "Ship faster with Globex",
    });
    expect(c.excerpt).toBe("We help [-teams][+enterprises] ship faster. Updated ⟨date⟩.");
    expect(c.diff!.filter((d) => d.op !== "=")).toEqual([
      { op: "-", text: "teams" },
      { op: "+", text: "enterprises" },
    ]);
    expect(c.before).toContain("teams");
    expect(c.after).toContain("enterprises");
  });

  test("a long paragraph: the excerpt keeps only a little context around the change", () => {
    const long = (w: string) =>
      `Our platform brings planning, tracking, reviews, releases, incidents and reporting together in one place for every team. It ${w} with the tools you already use and scales from startups to the largest enterprises on earth with security built in.`;
    const from = normalise(variant((p) => setText(p, "We help", long("integrates"))));
    const to = normalise(variant((p) => setText(p, "We help", long("connects"))));
    const [c] = compare(from, to, seenOf([from]));
    expect(c.excerpt).toBe(
      "… together in one place for every team. It [-integrates][+connects] with the tools you already use and scales …",
    );
  });

  test("a new announcement paragraph and a removed FAQ table row", () => {
    const changes = changesTo(
      variant((p) => {
        p.blocks.splice(3, 0, {
          kind: "text",
          text: "New: Globex AI is now generally available.",
          section: "Ship faster with Globex",
        });
        const t = p.blocks.find((b) => b.kind === "table");
        if (t?.kind === "table") t.rows.splice(2, 1);
      }),
    );
    expect(changes.map((c) => c.kind)).toEqual(["text_added", "list_changed"]);
    expect(changes[0].after).toBe("New: Globex AI is now generally available.");
    expect(changes[0].excerpt).toBe("[+New: Globex AI is now generally available.]");
    expect(changes[1]).toMatchObject({ section: "FAQ", removed: ["Support | Community | Email"], added: [] });
  });

  test("a table's header row changes (a plan renamed in the comparison table)", () => {
    const changes = changesTo(
      variant((p) => {
        const t = p.blocks.find((b) => b.kind === "table");
        if (t?.kind === "table") t.rows[0] = ["Feature", "Starter", "Business"];
      }),
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ kind: "list_changed", section: "FAQ", added: [], removed: [] });
    expect(changes[0].excerpt).toBe("Feature | Starter | [-Team][+Business]");
  });

  test("a list gains a new member (not a rotation) and a title change", () => {
    const changes = changesTo(
      variant((p) => {
        listIn(p, "Loved by teams").push("Massive Dynamic");
        p.title = "Globex — Plans and pricing";
      }),
    );
    expect(changes.map((c) => c.kind)).toEqual(["meta_changed", "list_changed"]);
    expect(changes[0]).toMatchObject({
      subject: "title",
      before: "Globex — Pricing",
      after: "Globex — Plans and pricing",
    });
    expect(changes[1]).toMatchObject({ section: "Loved by teams", added: ["Massive Dynamic"], removed: [] });
  });

  test("a removed block is reported with its text", () => {
    const changes = changesTo(
      variant((p) =>
        p.blocks.splice(
          p.blocks.findIndex((b) => b.kind === "text" && b.text.startsWith("“")),
          1,
        ),
      ),
    );
    expect(changes).toEqual([
      expect.objectContaining({
        kind: "text_removed",
        section: "Loved by teams",
        before: "“Globex changed how we ship.” — Ana, Initech",
      }),
    ]);
  });
});

describe("feeds, job lists and structured sources", () => {
  const feedUrl = "https://globex.example/blog/feed.xml";
  const item = (n: number) => ({
    id: `post-${n}`,
    title: `Post ${n}`,
    url: `https://globex.example/blog/${n}?utm_source=rss`,
    published: `2026-11-${String(10 + n).padStart(2, "0")}T09:00:00Z`,
    summary: `Summary of post ${n}.`,
  });

  test("new items are changes; items falling off the feed or reappearing are not", () => {
    const v1 = normaliseFeed(feedUrl, [item(1), item(2), item(3)]);
    const v2 = normaliseFeed(feedUrl, [item(4), item(2), item(3)]);
    const changes = compare(v1, v2, seenOf([v1]));
    expect(changes).toEqual([
      expect.objectContaining({
        kind: "feed_item_added",
        source: "feed",
        url: feedUrl,
        subject: "Post 4",
        link: "https://globex.example/blog/4",
        published: "2026-11-14T09:00:00Z",
      }),
    ]);
    const v3 = normaliseFeed(feedUrl, [item(1), item(2), item(3)]);
    expect(compare(v2, v3, seenOf([v1, v2]))).toEqual([]);
  });

  test("a job board: roles added and removed, with counts", () => {
    const boardUrl = "https://boards-api.greenhouse.io/v1/boards/globex/jobs?content=true";
    const v1 = normaliseJobs(boardUrl, [
      {
        title: "Backend Engineer",
        department: "Engineering",
        location: "Berlin",
        url: "https://x.example/j/1?gh_src=a",
      },
      { title: "Account Executive", department: "Sales", location: "London" },
    ]);
    const v2 = normaliseJobs(boardUrl, [
      { title: "Account Executive", department: "Sales", location: "London" },
      { title: "VP of Engineering", department: "Engineering", location: "Remote" },
      {
        title: "Backend Engineer",
        department: "Engineering",
        location: "Berlin",
        url: "https://x.example/j/1?gh_src=b",
      },
      {
        title: "Backend Engineer",
        department: "Engineering",
        location: "Berlin",
        url: "https://x.example/j/9",
      },
    ]);
    const changes = compare(v1, v2, seenOf([v1]));
    expect(changes.map((c) => [c.kind, c.subject, c.location])).toEqual([
      ["job_added", "Backend Engineer", "Berlin"],
      ["job_added", "VP of Engineering", "Remote"],
    ]);
    expect(changes[0].counts).toEqual({ before: 2, after: 4 });
    expect(compare(v2, v1, seenOf([v2]))).toHaveLength(2);
    expect(compare(v2, v1, seenOf([v2])).every((c) => c.kind === "job_removed")).toBe(true);
  });

  test("careers page jobs are compared the same way", () => {
    const v = variant((p) => {
      p.jobs = [{ title: "Product Designer", location: "Remote" }];
    });
    expect(changesTo(v).map((c) => c.kind)).toEqual(["job_added"]);
  });

  test("structured fields: changed, added and removed", () => {
    const a = normaliseStructured("https://globex.example/.well-known/security.txt", {
      contact: "mailto:security@globex.example",
      expires: "2026-12-31T00:00:00Z",
      policy: "https://globex.example/security",
    });
    const b = normaliseStructured("https://globex.example/.well-known/security.txt", {
      contact: "mailto:psirt@globex.example",
      expires: "2027-12-31T00:00:00Z",
      hiring: "https://globex.example/careers",
    });
    expect(compare(a, b, seenOf([a])).map((c) => [c.kind, c.subject, c.before, c.after])).toEqual([
      ["field_changed", "contact", "mailto:security@globex.example", "mailto:psirt@globex.example"],
      ["field_changed", "hiring", null, "https://globex.example/careers"],
      ["field_changed", "policy", "https://globex.example/security", null],
    ]);
  });

  test("a page whose extraction found no blocks falls back to its readable text", () => {
    const p = { ...basePage(), blocks: [], text: "First paragraph.\n\nSecond paragraph, 3 days ago." };
    const q = { ...p, text: "First paragraph.\n\nSecond paragraph, 5 days ago.\n\nThird paragraph." };
    const changes = compare(normalise(p), normalise(q), seenOf([normalise(p)]));
    expect(changes.map((c) => [c.kind, c.after])).toEqual([["text_added", "Third paragraph."]]);
  });
});

describe("masking", () => {
  const masked: [string, string][] = [
    ["Updated 3 hours ago", "Updated ⟨ago⟩"],
    ["Last updated: November 20, 2026 at 12:34 PM UTC", "Last updated: ⟨date⟩ at ⟨time⟩"],
    ["Posted 2026-11-20T12:00:00Z", "Posted ⟨date⟩"],
    ["Friday, 20 November 2026", "⟨date⟩"],
    ["20/11/2026", "⟨date⟩"],
    ["Join 12,345 happy customers", "Join ⟨count⟩ happy customers"],
    ["Trusted by 50k+ teams worldwide", "Trusted by ⟨count⟩ teams worldwide"],
    ["1,250,000 messages sent today", "⟨count⟩ messages sent ⟨ago⟩"],
    ["99.982% uptime", "⟨count⟩ uptime"],
    ["1.2M", "⟨count⟩"],
    ["© 2024 Globex Inc. All rights reserved.", "© ⟨year⟩ Globex Inc. All rights reserved."],
    ["Copyright 2019–2026 Globex", "Copyright ⟨year⟩ Globex"],
    ["Build a1b2c3d4e5", "Build ⟨hash⟩"],
    ["build 20261120.3", "build ⟨hash⟩"],
    ["csrf: Zx8Kq2LmN4pQ7rS9tU1vW3xY", "csrf: ⟨token⟩"],
    ["request 3f1c2e4a-1b2c-4d5e-8f90-1234567890ab", "request ⟨id⟩"],
    ["hero-480.webp 480w, hero-960.webp 960w", ""],
    [
      "See https://x.example/app.css?v=123&utm_source=a&id=7#top now",
      "See https://x.example/app.css?id=7 now",
    ],
  ];
  for (const [input, output] of masked)
    test(`masks: ${input}`, () => expect(maskText(input, { counters: true, bare: true })).toBe(output));

  const kept = [
    "Team plan $49 per seat/month",
    "$1,299",
    "Starts at €1,200 per year",
    "Up to 10,000 contacts",
    "Includes 5,000 API calls",
    "5 users",
    "Over 1,000 integrations",
    "Version 2.4.1 released",
    "Founded in 2015",
    "Started in 2016 when three engineers met",
    "SOC 2 Type II and ISO 27001 certified",
  ];
  for (const input of kept)
    test(`keeps: ${input}`, () => expect(maskText(input, { counters: true, bare: true })).toBe(input));

  test("a table cell or card item with only a quota stays; a paragraph with only a counter is masked", () => {
    expect(maskText("10M", { counters: true })).toBe("10M");
    expect(maskText("10M", { counters: true, bare: true })).toBe("⟨count⟩");
  });

  test("URLs: hashed asset names, trailing slashes and parameter order", () => {
    expect(maskUrl("https://Globex.example/_next/static/chunks/main-3f2a9c1d4e.js?b=2&a=1")).toBe(
      "https://globex.example/_next/static/chunks/main-⟨hash⟩.js?a=1&b=2",
    );
    expect(maskUrl("https://globex.example/pricing/?ref=nav")).toBe("https://globex.example/pricing");
  });
});
