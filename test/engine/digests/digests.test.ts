// Digests and battlecard rewrites: the periods and the deterministic writer on their own, then end to
// end on the fixture web — a cycle that records a material signal rewrites the competitor's battlecard (outside
// the daily cap), the first cycle of the next UTC day writes the day's digest, `rivals digests generate`
// rewrites the same period in place, a quiet week gets a short weekly digest, and what_changed reports it all.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  isoWeek,
  lastCompletePeriod,
  periodBefore,
  periodContaining,
} from "../../../src/domain/digestPeriods.ts";
import { sentences } from "../../../src/domain/prose.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import type { DigestSignal } from "../../../src/engine/digests/types.ts";
import { writeDigest } from "../../../src/engine/digests/writer.ts";
import { startResearch } from "../../../src/engine/research/runner.ts";
import { renderMarkdown } from "../../../src/web/markdown.ts";
import { runProcess } from "../../e2e/harness.ts";
import { type CycleWeb, startCycleWeb } from "../../support/engine-cycle-web.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { rest } from "../../support/mcp-write-helpers.ts";
import { expectProse } from "../../support/prose-check.ts";

setDefaultTimeout(60_000);

describe("digest periods", () => {
  test("UTC days and ISO weeks, with their slugs", () => {
    const d = periodContaining("daily_digest", new Date("2026-11-22T23:59:59Z"));
    expect(d.slug).toBe("daily-2026-11-22");
    expect(d.start.toISOString()).toBe("2026-11-22T00:00:00.000Z");
    expect(d.end.toISOString()).toBe("2026-11-23T00:00:00.000Z");
    const w = periodContaining("weekly_tldr", new Date("2026-11-22T10:00:00Z")); // a Sunday
    expect(w.slug).toBe("weekly-2026-w47");
    expect(w.start.toISOString()).toBe("2026-11-16T00:00:00.000Z");
    expect(w.end.toISOString()).toBe("2026-11-23T00:00:00.000Z");
    // ISO week-numbering years: 2027-01-01 (a Friday) is in 2026's week 53; 2025-12-29 in 2026's week 1.
    expect(isoWeek(new Date("2027-01-01T00:00:00Z"))).toEqual({ year: 2026, week: 53 });
    expect(isoWeek(new Date("2025-12-29T00:00:00Z"))).toEqual({ year: 2026, week: 1 });
    expect(periodContaining("weekly_tldr", new Date("2027-01-01T00:00:00Z")).slug).toBe("weekly-2026-w53");
    // Labels as people write dates, a week as a span of days.
    expect(d.label).toBe("22 Nov 2026");
    expect(w.label).toBe("16–22 Nov 2026");
    expect(periodContaining("weekly_tldr", new Date("2026-12-01T00:00:00Z")).label).toBe(
      "30 Nov – 6 Dec 2026",
    );
    expect(periodContaining("weekly_tldr", new Date("2027-01-01T00:00:00Z")).label).toBe(
      "28 Dec 2026 – 3 Jan 2027",
    );
    // --end on a boundary names the period that just finished; the default is the last complete one.
    expect(periodBefore("daily_digest", new Date("2026-11-23T00:00:00Z")).slug).toBe("daily-2026-11-22");
    expect(lastCompletePeriod("daily_digest", new Date("2026-11-23T09:00:00Z")).slug).toBe(
      "daily-2026-11-22",
    );
    expect(lastCompletePeriod("weekly_tldr", new Date("2026-11-23T09:00:00Z")).slug).toBe("weekly-2026-w47");
  });
});

const sig = (id: number, over: Partial<DigestSignal>): DigestSignal => ({
  id,
  watch: "core",
  competitor_id: 1,
  competitor: "Globex",
  title: `Signal ${id}`,
  first_seen_at: "2026-11-22T10:00:00.000Z",
  url: `/app/signals/${id}`,
  ...over,
});

/** The moves of the weekly digest: an annual plan added, a 17% rise, a free tier ending, and more. */
const moves = (): DigestSignal[] => [
  sig(1, {
    title: "Globex updates its privacy policy",
    severity: "low",
    type: "policy_change",
    confidence: 0.99,
  }),
  sig(2, {
    title: "Globex raises Team plan price from $59 to $69 per seat/month (+17%)",
    severity: "high",
    category: "pricing",
    type: "price_increase",
    percent: 16.95,
    subject: "Team",
    before: "$59 per seat/month",
    after: "$69 per seat/month",
    confidence: 0.95,
    source_url: "https://globex.example/pricing",
  }),
  sig(3, {
    competitor_id: 2,
    competitor: "Brightloop",
    title: "Brightloop ends its free plan",
    severity: "high",
    category: "pricing",
    type: "free_tier_change",
    subject: "Free",
    confidence: 0.95,
  }),
  sig(4, {
    competitor_id: 2,
    competitor: "Brightloop",
    title: "Brightloop cuts Growth plan price from $119 to $99/month (-17%)",
    severity: "high",
    type: "price_decrease",
    percent: -16.8,
    subject: "Growth",
    before: "$119/month",
    after: "$99/month",
    confidence: 0.95,
  }),
  sig(5, {
    competitor_id: 3,
    competitor: "Quantive",
    title: "Quantive adds Growth plan at $38,000 a year ($3,166.67 a month)",
    severity: "high",
    type: "plan_added",
    subject: "Growth",
    confidence: 0.95,
    first_seen_at: "2026-11-22T12:00:00.000Z",
  }),
  sig(6, {
    competitor_id: 3,
    competitor: "Quantive",
    title: "Quantive opens 6 sales roles (8 → 14 open roles)",
    severity: "high",
    category: "hiring",
    type: "hiring_surge",
    before: "8",
    after: "14",
    first_seen_at: "2026-11-22T08:00:00.000Z",
  }),
  sig(7, {
    competitor_id: 4,
    competitor: "Northwind",
    title: "Northwind adds a Zapier integration",
    severity: "medium",
    type: "integration_added",
    subject: "Zapier",
  }),
  sig(8, {
    competitor_id: 5,
    competitor: "Halcyon",
    title: "Halcyon changes its home page headline",
    severity: "medium",
    type: "messaging_change",
    watch: "horizon",
  }),
];

describe("the digest writer", () => {
  const day = periodContaining("daily_digest", new Date("2026-11-22T12:00:00Z"));
  const now = new Date("2026-11-23T06:00:00Z");
  const input = (signals: DigestSignal[]) => ({
    period: day,
    signals,
    omitted: 0,
    cycles: 0,
    competitorUrl: (id: number) => `/app/competitors/${id}`,
    now,
  });

  test("a day without signals writes no daily digest", () => {
    expect(writeDigest(input([]))).toBeNull();
  });

  test("the headline is the most material move by the rule: a free tier ending, not an annual plan's monthly figure", () => {
    const r = writeDigest(input(moves()))!.record;
    expect(r.slug).toBe("daily-2026-11-22");
    expect(r.type).toBe("daily_digest");
    expect(r.status).toBe("generated");
    expect(r.title).toBe("Daily digest — 22 Nov 2026");
    expect(r.headline).toBe("Brightloop ends its free plan");
    expect(r.coverage_period_start).toBe("2026-11-22T00:00:00.000Z");
    expect(r.coverage_period_end).toBe("2026-11-23T00:00:00.000Z");
    expect(r.generated_at).toBe(now.toISOString());
    // Without the free tier, the 17% rise heads it; the annual plan never does.
    const rest = moves().filter((m) => m.id !== 3 && m.id !== 4);
    expect(writeDigest(input(rest))!.record.headline).toBe(
      "Globex raises Team plan price from $59 to $69 per seat/month (+17%)",
    );
  });

  test("the TL;DR is prose by competitor, then the rest by theme: no ids, no 'Also:', no sentence twice", () => {
    const out = writeDigest(input(moves()))!;
    const r = out.record;
    const told = sentences(r.tldr!);
    expect(told.length).toBeGreaterThanOrEqual(2);
    expect(told.length).toBeLessThanOrEqual(4);
    expect(told[0]).toBe(
      "Brightloop ends its free plan and cuts Growth plan price from $119 to $99/month (-17%).",
    );
    expect(told[1]).toBe("Globex raises Team plan price from $59 to $69 per seat/month (+17%).");
    // Five competitors moved: the next ones' most material moves share a sentence.
    expect(told[2]).toBe(
      "Elsewhere, Quantive adds Growth plan at $38,000 a year ($3,166.67 a month), Northwind adds a Zapier integration and Halcyon changes its home page headline.",
    );
    expect(told[3]).toBe("Also in this digest: hiring at Quantive; site pages and wording at Globex.");
    expect(r.tldr).not.toMatch(/\bsignals? \d|Also:|Rivals recorded|\(signal/);
    // Each sentence rests on the signals it tells, and every signal is told once.
    expect(out.sentences.map((s) => s.signal_ids)).toEqual([[3, 4], [2], [5, 7, 8], [6, 1]]);
    expect(out.sentences.flatMap((s) => s.signal_ids).sort()).toEqual(out.signal_ids.sort());
    const all = [...told, ...sentences(r.what_to_watch!)];
    expect(new Set(all).size).toBe(all.length);
    expectProse([
      { where: "tldr", text: r.tldr! },
      { where: "headline", text: r.headline! },
      { where: "what_to_watch", text: r.what_to_watch! },
    ]);
  });

  test("up to three competitors each get a sentence of their own", () => {
    const three = moves().filter((m) => m.id <= 6);
    const told = sentences(writeDigest(input(three))!.record.tldr!);
    expect(told).toEqual([
      "Brightloop ends its free plan and cuts Growth plan price from $119 to $99/month (-17%).",
      "Globex raises Team plan price from $59 to $69 per seat/month (+17%).",
      "Quantive adds Growth plan at $38,000 a year ($3,166.67 a month) and opens 6 sales roles (8 → 14 open roles).",
      "Also in this digest: site pages and wording at Globex.",
    ]);
  });

  test("a title naming the company by its first word reads as its move; one that does not is told on its own; an imported type is themed by its category", () => {
    const g = { competitor: "Globex Insights", severity: "high" };
    const told = sentences(
      writeDigest(
        input([
          sig(1, { ...g, title: "Globex Insights raises Team plan price (+17%)", type: "price_increase" }),
          sig(2, { ...g, title: "Globex moves SSO to the Enterprise plan", type: "packaging_change" }),
          sig(3, { ...g, title: "Globex leadership change: a new CFO", type: "leadership_change" }),
          sig(4, { ...g, severity: "low", title: "Globex trims its pricing page", category: "pricing" }),
        ]),
      )!.record.tldr!,
    );
    expect(told).toEqual([
      "Globex Insights raises Team plan price (+17%) and moves SSO to the Enterprise plan.",
      "Globex leadership change: a new CFO.",
      "Also in this digest: price changes at Globex Insights.",
    ]);
  });

  test("price moves of one plan in one period are told once, in the order they were seen; another plan's is not folded in", () => {
    const g = { competitor: "Globex Insights", severity: "high", type: "price_increase" };
    const week = [
      // An imported rise (its title names the company by its first word), then two the engine found.
      sig(1, {
        ...g,
        title: "Globex raises Team plan price by 20%",
        percent: 20,
        first_seen_at: "2026-11-18T08:12:00.000Z",
      }),
      sig(2, {
        ...g,
        title: "Globex Insights raises Team plan price from $59 to $69 per seat/month (+17%)",
        percent: 17,
        first_seen_at: "2026-11-20T09:00:00.000Z",
      }),
      sig(3, {
        ...g,
        title: "Globex Insights raises Team plan price from $69 to $79 per seat/month (+14%)",
        percent: 14,
        first_seen_at: "2026-11-21T09:00:00.000Z",
      }),
      sig(4, {
        ...g,
        title: "Globex Insights raises Pro plan price from $99 to $109 per seat/month (+10%)",
        percent: 10,
        first_seen_at: "2026-11-19T09:00:00.000Z",
      }),
      sig(5, { ...g, title: "Globex moves SSO to the Enterprise plan", type: "packaging_change" }),
    ];
    const out = writeDigest({
      ...input(week),
      period: periodContaining("weekly_tldr", new Date("2026-11-20T00:00:00Z")),
    })!;
    expect(sentences(out.record.tldr!)[0]).toBe(
      "Globex Insights raises Team plan price by 20%, then from $59 to $69 per seat/month (+17%), then from $69 to $79 per seat/month (+14%); raises Pro plan price from $99 to $109 per seat/month (+10%); and moves SSO to the Enterprise plan.",
    );
    expect(out.sentences[0].signal_ids.sort()).toEqual([1, 2, 3, 4, 5]);
    // Each amount links to the signal that states it.
    expect(out.record.markdown).toContain(
      "[raises Team plan price by 20%](/app/signals/1), then [from $59 to $69 per seat/month (+17%)](/app/signals/2), then [from $69 to $79 per seat/month (+14%)](/app/signals/3)",
    );
    // A rise and a cut of one plan stay two moves.
    const both = writeDigest(
      input([
        week[1],
        sig(6, {
          ...g,
          type: "price_decrease",
          title: "Globex Insights cuts Team plan price from $69 to $59 per seat/month (-14%)",
          percent: -14,
        }),
      ]),
    )!;
    expect(sentences(both.record.tldr!)[0]).toBe(
      "Globex Insights raises Team plan price from $59 to $69 per seat/month (+17%) and cuts Team plan price from $69 to $59 per seat/month (-14%).",
    );
  });

  test("more competitors than sentences: two told alone, the next ones' first moves in one, the rest by theme", () => {
    const many = [
      ...moves(),
      sig(9, {
        competitor_id: 6,
        competitor: "Parcelhub",
        title: "Parcelhub removes Evri integration",
        severity: "medium",
        type: "integration_removed",
        subject: "Evri",
      }),
    ];
    const told = sentences(writeDigest(input(many))!.record.tldr!);
    expect(told).toHaveLength(4);
    expect(told[2]).toBe(
      "Elsewhere, Quantive adds Growth plan at $38,000 a year ($3,166.67 a month), Parcelhub removes Evri integration, Northwind adds a Zapier integration and Halcyon changes its home page headline.",
    );
    expect(told[3]).toBe("Also in this digest: hiring at Quantive; site pages and wording at Globex.");
  });

  test("what to watch says something different for each item, from its concrete fact", () => {
    const out = writeDigest(input(moves()))!;
    expect(out.watch.map((w) => w.text)).toEqual([
      "Brightloop no longer offers a free plan: teams on it must pay or leave, a window to offer them your entry plan.",
      "Globex's Team plan now costs $69 per seat/month, up from $59 per seat/month: its Team customers may look at alternatives at renewal, so bring the new price into open deals.",
      "Quantive added a Growth plan: expect Quantive to pitch it to buyers between its other plans.",
      "Northwind now integrates with Zapier: expect it to come up with buyers who use Zapier.",
    ]);
    expect(out.watch.map((w) => w.signal_ids)).toEqual([[3], [2], [5], [7]]);
    expect(out.record.what_to_watch).toBe(out.watch.map((w) => w.text).join(" "));
    // One rule firing for several competitors still says each one's own fact.
    const rises = writeDigest(
      input([
        moves()[1],
        sig(10, {
          competitor_id: 7,
          competitor: "Kestrel",
          title: "Kestrel raises Pro plan price from $20 to $25/month (+25%)",
          severity: "high",
          type: "price_increase",
          percent: 25,
          subject: "Pro",
          before: "$20/month",
          after: "$25/month",
        }),
      ]),
    )!.watch.map((w) => w.text);
    expect(rises).toHaveLength(2);
    expect(rises[0]).toContain("Kestrel's Pro plan now costs $25/month, up from $20/month");
    expect(rises[1]).toContain("Globex's Team plan now costs $69 per seat/month");
  });

  test("the Markdown: each move linked (relative to the installation), competitor text escaped, no ids in prose", () => {
    const hostile = sig(11, {
      competitor_id: 8,
      competitor: "Evil *Corp*",
      title: "Evil *Corp* adds [click](javascript:alert(1)) <img src=x> plan",
      severity: "high",
      type: "plan_added",
    });
    const r = writeDigest(input([...moves(), hostile]))!.record;
    const md = r.markdown!;
    // The TL;DR opens with the headline's move: the headline is not printed in bold above it as well.
    expect(
      md.startsWith("# Daily digest — 22 Nov 2026\n\nBrightloop [ends its free plan](/app/signals/3)"),
    ).toBe(true);
    expect(md.split("ends its free plan")).toHaveLength(2 + 1); // the TL;DR and the Brightloop section
    // When the TL;DR does not open with it (only smaller changes), the headline stands above it.
    const minor = writeDigest(
      input([sig(9, { title: "Globex edits its terms", severity: "low", type: "policy_change" })]),
    )!.record.markdown!;
    expect(minor).toStartWith(
      "# Daily digest — 22 Nov 2026\n\n**Globex edits its terms**\n\nOnly smaller changes",
    );
    expect(md).toContain(
      "Brightloop [ends its free plan](/app/signals/3) and [cuts Growth plan price from $119 to $99/month (-17%)](/app/signals/4).",
    );
    // Every sentence of the TL;DR and every item of what to watch links to the signals it rests on.
    const paragraph = md.split("\n")[2];
    expect(paragraph).toContain("Also in this digest: hiring at [Quantive](/app/signals/6)");
    for (const sentence of sentences(paragraph)) expect(sentence).toMatch(/\]\(\/app\/signals\/\d+\)/);
    expect(md).toContain("## What to watch");
    expect(md).toContain(
      "- Brightloop no longer offers a free plan: teams on it must pay or leave, a window to offer them your entry plan ([signal](/app/signals/3)).",
    );
    expect(md).toContain(
      "- High: [Globex raises Team plan price from $59 to $69 per seat/month (+17%)](/app/signals/2) ([source](https://globex.example/pricing))",
    );
    expect(md).toContain("## Evil \\*Corp\\*");
    expect(md).toContain("Evil \\*Corp\\* adds \\[click\\](javascript:alert(1)) \\<img src=x\\> plan");
    expect(md).toContain("*Changes first seen on 22 Nov 2026 (UTC).*");
    // The TL;DR is in the Markdown once; outside link targets no signal id is written.
    const words = md.replace(/\]\([^)]*\)/g, "]");
    expect(words).not.toMatch(/signals?:? \d|\(signal \d/);
    expect(md.split("Brightloop [ends its free plan]")).toHaveLength(2);
    // Rendered, the hostile title is text: no link, no emphasis, no tag.
    const html = renderMarkdown(md.replace(/\]\(\/app\//g, "](https://rivals.test/app/"));
    expect(html).not.toContain('href="javascript:');
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<em>Corp</em>");
    expect(html).toContain("Evil *Corp* adds [click](javascript:alert(1)) &lt;img src=x&gt; plan");
    expect(html).toContain('<a href="https://rivals.test/app/signals/3" rel="nofollow noopener noreferrer">');
  });

  test("no rule fires → no what_to_watch (nothing invented)", () => {
    const out = writeDigest(
      input([sig(9, { title: "Globex edits its terms", severity: "low", type: "policy_change" })]),
    );
    expect(out!.record.what_to_watch).toBeUndefined();
    expect(out!.record.tldr).toBe("Only smaller changes were seen: site pages and wording at Globex.");
    // Signals beyond the ones the writer reads are counted, and said to be left out.
    const more = writeDigest({
      ...input([sig(9, { title: "Globex edits its terms", severity: "low", type: "policy_change" })]),
      omitted: 3,
    })!.record;
    expect(more.tldr).toBe(
      "Only smaller changes were seen: site pages and wording at Globex; and 3 more changes.",
    );
    expect(more.markdown).toContain("The 3 least material changes are not listed.");
  });

  test("a quiet week writes a short weekly digest that says so", () => {
    const week = periodContaining("weekly_tldr", new Date("2026-11-22T12:00:00Z"));
    const out = writeDigest({ ...input([]), period: week, cycles: 7 });
    expect(out).not.toBeNull();
    expect(out!.record.slug).toBe("weekly-2026-w47");
    expect(out!.record.title).toBe("Weekly TL;DR — 16–22 Nov 2026");
    expect(out!.record.headline).toContain("quiet week");
    expect(out!.record.tldr).toContain("No competitor moves were recorded in the week of 16–22 Nov 2026.");
    expect(out!.record.tldr).toContain("7 monitoring cycles ran");
    expect(out!.signal_ids).toEqual([]);
  });
});

describe("digests and battlecards after real cycles", () => {
  let web: CycleWeb;
  let t: TestServer;
  let key: string;
  let acme: Client;
  let orgId: number;
  let globex: number;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    body(await acme.callTool({ name, arguments: args }));

  beforeAll(async () => {
    web = startCycleWeb();
    t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
    orgId = (await t.org("acme")).id;
    key = await t.key("acme");
    acme = await mcpClient(t.base, key);
    globex = (await call("add_competitor", { website_url: "https://globex.example" })).competitor.id;
    const { done } = await startResearch(
      t.services,
      { orgId, actor: "operator" },
      { kind: "one", competitor_id: globex },
      "operator",
      { usesAllowance: false },
    );
    expect((await done)[0].status).toBe("finished");
    const first = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(first.signals_created).toBe(0);
    expect(first.battlecards_written).toBe(0);
    expect(first.digests_written).toBe(0); // the workspace did not exist yesterday
  });
  afterAll(async () => {
    await t.close();
    await web.stop();
  });

  test("a cycle with a new high signal rewrites the battlecard, outside the daily cap", async () => {
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", {
      transform: (b) =>
        b
          .replace('<span class="amount">$59</span>', '<span class="amount">$69</span>')
          .replace("Team is $59", "Team is $69")
          .replace('"price": "59.00"', '"price": "69.00"'),
    });
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.signals_created).toBe(1);
    expect(s.battlecards_written).toBe(1);
    const [signal] = (await rest(t, key, `/api/v1/signals?competitor_id=${globex}`)).json.data;
    const cards = (await rest(t, key, "/api/v1/battlecards")).json.data;
    expect(cards).toHaveLength(1);
    expect(cards[0].competitor_id).toBe(globex);
    // The card cites the new evidence.
    expect(JSON.stringify(cards[0])).toContain("https://globex.example/pricing");
    expect(JSON.stringify(cards[0].evidence)).toContain(String(signal.id));
    // Not counted toward generate_battlecard's daily cap.
    const gens = await t.services.database.client.execute({
      sql: "SELECT COUNT(*) AS n FROM battlecard_generations WHERE org_id = ?",
      args: [orgId],
    });
    expect(Number(gens.rows[0].n)).toBe(0);
    // The material change is in a digest at once (the workspace's weekly cadence: this week's TL;DR), not at
    // the next slot.
    expect(s.digests_written).toBe(1);
    const [digest] = (await rest(t, key, "/api/v1/digests")).json.data;
    expect(digest).toMatchObject({ slug: "weekly-2026-w47", type: "weekly_tldr", signal_ids: [signal.id] });
    expect(digest.generated_at).toBe(t.clock.now.toISOString());
    expect(digest.headline).toContain("$69");
    // An unchanged cycle rewrites nothing.
    t.clock.advance(3_600_000);
    const again = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(again.battlecards_written).toBe(0);
    expect(again.digests_written).toBe(0);
  });

  test("the first cycle of the next UTC day writes the day's digest, once; the CLI rewrites it in place, linking to the server's base URL", async () => {
    t.clock.now = new Date("2026-11-21T01:00:00Z");
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.digests_written).toBe(1); // daily-2026-11-20; the week's digest has nothing new since it was written
    const list = (await rest(t, key, "/api/v1/digests?type=daily_digest")).json.data;
    expect(list).toHaveLength(1);
    const d = (await rest(t, key, `/api/v1/digests/${list[0].id}`)).json.data;
    expect(d.slug).toBe("daily-2026-11-20");
    expect(d.title).toBe("Daily digest — 20 Nov 2026");
    expect(d.headline).toContain("$69");
    expect(d.signal_ids).toHaveLength(1);
    expect(d.coverage_period_start).toBe("2026-11-20T00:00:00.000Z");
    expect(d.url).toContain("/app/digests/");
    // A later cycle the same day writes nothing more.
    t.clock.advance(3_600_000);
    expect((await runCycle(t.services, orgId, { trigger: "operator" })).digests_written).toBe(0);
    // what_changed reports the signal, the digests and the rewritten battlecard.
    const wc = await call("what_changed", { since: "2026-11-20T00:00:00Z" });
    expect(wc.signals.map((x: { id: number }) => x.id)).toEqual(d.signal_ids);
    expect(wc.digests.map((x: { slug: string }) => x.slug)).toEqual(["daily-2026-11-20", "weekly-2026-w47"]);
    expect(wc.battlecards.map((x: { competitor_id: number }) => x.competitor_id)).toEqual([globex]);
    // The operator's command writes the same period again: same id, no duplicate. Its process has no
    // RIVALS_BASE_URL (its own default is http://localhost:3000): the digest's links are still the server's.
    const env: Record<string, string | undefined> = { ...process.env, RIVALS_DB: t.services.config.dbUrl };
    delete env.RIVALS_BASE_URL;
    delete env.PORT;
    const out = await runProcess(
      [
        process.execPath,
        "src/main.ts",
        "digests",
        "generate",
        "--org",
        "acme",
        "--type",
        "daily_digest",
        "--end",
        "2026-11-21T00:00:00Z",
      ],
      { env },
    );
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const printed = JSON.parse(out.stdout);
    expect(printed).toMatchObject({
      id: list[0].id,
      slug: "daily-2026-11-20",
      written: true,
      replaced: true,
    });
    expect((await rest(t, key, "/api/v1/digests?type=daily_digest")).json.data).toHaveLength(1);
    const again = (await rest(t, key, `/api/v1/digests/${list[0].id}`)).json.data;
    const links = [...again.markdown.matchAll(/\]\((https?:\/\/[^)]+)\)/g)].map((m) => m[1]);
    const app = links.filter((u: string) => u.includes("/app/"));
    expect(app.length).toBeGreaterThan(0);
    for (const u of app) expect(u.startsWith(`${t.base}/app/`)).toBe(true);
    expect(again.items[0].url).toBe(`${t.base}/app/competitors/${globex}`);
    expect(again.items[0].signals[0].url).toBe(`${t.base}/app/signals/${d.signal_ids[0]}`);
    expect(JSON.stringify(again)).not.toContain("localhost:3000");
    // Stored, the links are the installation's own paths.
    const stored = await t.services.database.client.execute({
      sql: "SELECT doc FROM digests WHERE id = ?",
      args: [list[0].id],
    });
    expect(String(stored.rows[0].doc)).not.toContain("http://localhost");
    expect(String(stored.rows[0].doc)).toContain(`](/app/signals/${d.signal_ids[0]})`);
  });

  test("a day without signals writes no digest; a quiet week writes a short weekly one", async () => {
    const day = await runProcess(
      [
        process.execPath,
        "src/main.ts",
        "digests",
        "generate",
        "--org",
        "acme",
        "--type",
        "daily_digest",
        "--end",
        "2026-11-22T00:00:00Z",
      ],
      { env: { ...process.env, RIVALS_DB: t.services.config.dbUrl } },
    );
    expect(day.code).toBe(0);
    expect(JSON.parse(day.stdout)).toMatchObject({ slug: "daily-2026-11-21", written: false });
    const week = await runProcess(
      [
        process.execPath,
        "src/main.ts",
        "digests",
        "generate",
        "--org",
        "acme",
        "--type",
        "weekly_tldr",
        "--end",
        "2026-11-30T00:00:00Z",
      ],
      { env: { ...process.env, RIVALS_DB: t.services.config.dbUrl } },
    );
    expect(week.code).toBe(0);
    const w = JSON.parse(week.stdout);
    expect(w).toMatchObject({ slug: "weekly-2026-w48", written: true, signals: 0 });
    const d = (await rest(t, key, `/api/v1/digests/${w.id}`)).json.data;
    expect(d.headline).toContain("quiet week");
    expect(d.tldr).toContain("No competitor moves were recorded");
    const bad = await runProcess(
      [process.execPath, "src/main.ts", "digests", "generate", "--org", "acme", "--type", "monthly"],
      {
        env: { ...process.env, RIVALS_DB: t.services.config.dbUrl },
      },
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--type must be one of daily_digest, weekly_tldr");
  });
});
