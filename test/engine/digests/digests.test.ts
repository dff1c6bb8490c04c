// Digests and battlecard rewrites: the periods and the deterministic writer on their own, then end to
// end on the fixture web — a cycle that records a material signal rewrites the competitor's battlecard (outside
// the daily cap), the first cycle of the next UTC day writes the day's digest, `rivals digests generate`
// rewrites the same period in place, a quiet week gets a short weekly digest, and what_changed reports it all.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import {
  isoWeek,
  lastCompletePeriod,
  periodBefore,
  periodContaining,
} from "../../../src/engine/digests/period.ts";
import type { DigestSignal } from "../../../src/engine/digests/types.ts";
import { writeDigest } from "../../../src/engine/digests/writer.ts";
import { startResearch } from "../../../src/engine/research/runner.ts";
import { runProcess } from "../../e2e/harness.ts";
import { type CycleWeb, startCycleWeb } from "../../support/engine-cycle-web.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { rest } from "../../support/mcp-write-helpers.ts";

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
  competitor_id: 1,
  competitor: "Globex",
  title: `Signal ${id}`,
  first_seen_at: "2026-11-22T10:00:00.000Z",
  url: `https://app.test/app/signals/${id}`,
  ...over,
});

describe("the digest writer", () => {
  const day = periodContaining("daily_digest", new Date("2026-11-22T12:00:00Z"));
  const now = new Date("2026-11-23T06:00:00Z");
  const input = (signals: DigestSignal[]) => ({
    period: day,
    signals,
    omitted: 0,
    cycles: 0,
    competitorUrl: (id: number) => `https://app.test/app/competitors/${id}`,
    now,
  });

  test("a day without signals writes no daily digest", () => {
    expect(writeDigest(input([]))).toBeNull();
  });

  test("headline = the most material move; tldr of 2–4 sentences, each naming its signals; items per competitor", () => {
    const signals = [
      sig(1, { title: "Globex updates its privacy policy", severity: "low", type: "policy_change" }),
      sig(2, {
        title: "Globex raises Team plan price from $49 to $59 per seat/month (+20%)",
        severity: "high",
        category: "pricing",
        type: "price_increase",
        source_url: "https://globex.example/pricing",
      }),
      sig(3, {
        competitor_id: 2,
        competitor: "Brightloop",
        title: "Brightloop opens 6 sales roles (8 → 14 open roles)",
        severity: "high",
        category: "hiring",
        type: "hiring_surge",
        first_seen_at: "2026-11-22T08:00:00.000Z",
      }),
      sig(4, {
        competitor_id: 3,
        competitor: "Quantive",
        title: "Quantive adds a Zapier integration",
        severity: "medium",
        type: "integration_added",
      }),
    ];
    const out = writeDigest(input(signals));
    expect(out).not.toBeNull();
    const r = out!.record;
    expect(r.slug).toBe("daily-2026-11-22");
    expect(r.type).toBe("daily_digest");
    expect(r.status).toBe("generated");
    expect(r.title).toBe("Daily digest — 2026-11-22");
    expect(r.headline).toBe("Globex raises Team plan price from $49 to $59 per seat/month (+20%)");
    expect(r.coverage_period_start).toBe("2026-11-22T00:00:00.000Z");
    expect(r.coverage_period_end).toBe("2026-11-23T00:00:00.000Z");
    expect(r.generated_at).toBe(now.toISOString());
    const sentences = r.tldr!.split(/(?<=\.)\s+(?=[A-Z])/);
    expect(sentences.length).toBeGreaterThanOrEqual(2);
    expect(sentences.length).toBeLessThanOrEqual(4);
    expect(sentences[0]).toContain("4 signals about 3 competitors on 2026-11-22: 2 high, 1 medium, 1 low");
    for (const s of sentences.slice(1)) {
      const named = [...s.matchAll(/signal (\d+)/g)].map((m) => Number(m[1]));
      expect(named.length).toBeGreaterThan(0);
      for (const id of named) expect(out!.signal_ids).toContain(id);
    }
    expect(r.tldr).toContain("(signal 2)");
    expect(r.tldr).toContain("Also: Brightloop opens 6 sales roles (8 → 14 open roles) (signal 3)");
    expect(out!.signal_ids.sort()).toEqual([1, 2, 3, 4]);
    const items = r.items as {
      competitor: string;
      url?: string;
      signals: { id: number; severity?: string; line: string; url: string }[];
    }[];
    expect(items.map((i) => i.competitor)).toEqual(["Globex", "Brightloop", "Quantive"]);
    expect(items[0].url).toBe("https://app.test/app/competitors/1");
    expect(items[0].signals.map((s) => s.id)).toEqual([2, 1]);
    expect(items[0].signals[0].line).toBe(
      "[high] Globex raises Team plan price from $49 to $59 per seat/month (+20%).",
    );
    expect(items[0].signals[0].url).toBe("https://app.test/app/signals/2");
    // What to watch: stated rules, each sentence naming its signals; the sales hiring rule fires for Brightloop.
    expect(r.what_to_watch).toContain("Brightloop is hiring for sales or marketing");
    expect(r.what_to_watch).toContain("(signal 3)");
    expect(r.what_to_watch).toContain("Globex raised prices");
    expect(r.what_to_watch).toContain("(signal 2)");
    // The markdown holds the same content, with links.
    expect(r.markdown).toContain("# Daily digest — 2026-11-22");
    expect(r.markdown).toContain("## Brightloop");
    expect(r.markdown).toContain(
      "[Globex raises Team plan price from $49 to $59 per seat/month (+20%)](https://app.test/app/signals/2) — [source](https://globex.example/pricing)",
    );
    expect(r.markdown).toContain("## What to watch");
  });

  test("no rule fires → no what_to_watch (nothing invented)", () => {
    const out = writeDigest(
      input([sig(9, { title: "Globex edits its terms", severity: "low", type: "policy_change" })]),
    );
    expect(out!.record.what_to_watch).toBeUndefined();
    expect(out!.record.tldr!.split(/(?<=\.)\s+(?=[A-Z])/)).toHaveLength(2);
  });

  test("a quiet week writes a short weekly digest that says so", () => {
    const week = periodContaining("weekly_tldr", new Date("2026-11-22T12:00:00Z"));
    const out = writeDigest({ ...input([]), period: week, cycles: 7 });
    expect(out).not.toBeNull();
    expect(out!.record.slug).toBe("weekly-2026-w47");
    expect(out!.record.headline).toContain("quiet week");
    expect(out!.record.tldr).toContain(
      "No signals were recorded in 2026, week 47 (2026-11-16 to 2026-11-22).",
    );
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
    // An unchanged cycle rewrites nothing.
    t.clock.advance(3_600_000);
    const again = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(again.battlecards_written).toBe(0);
  });

  test("the first cycle of the next UTC day writes the day's digest, once; the CLI rewrites it in place", async () => {
    t.clock.now = new Date("2026-11-21T01:00:00Z");
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.digests_written).toBe(1); // daily-2026-11-20 (the weekly for w47 waits for the week to end)
    const list = (await rest(t, key, "/api/v1/digests?type=daily_digest")).json.data;
    expect(list).toHaveLength(1);
    const d = (await rest(t, key, `/api/v1/digests/${list[0].id}`)).json.data;
    expect(d.slug).toBe("daily-2026-11-20");
    expect(d.headline).toContain("$69");
    expect(d.signal_ids).toHaveLength(1);
    expect(d.coverage_period_start).toBe("2026-11-20T00:00:00.000Z");
    expect(d.url).toContain("/app/digests/");
    // A later cycle the same day writes nothing more.
    t.clock.advance(3_600_000);
    expect((await runCycle(t.services, orgId, { trigger: "operator" })).digests_written).toBe(0);
    // what_changed reports the signal, the digest and the rewritten battlecard.
    const wc = await call("what_changed", { since: "2026-11-20T00:00:00Z" });
    expect(wc.signals.map((x: { id: number }) => x.id)).toEqual(d.signal_ids);
    expect(wc.digests.map((x: { slug: string }) => x.slug)).toEqual(["daily-2026-11-20"]);
    expect(wc.battlecards.map((x: { competitor_id: number }) => x.competitor_id)).toEqual([globex]);
    // The operator's command writes the same period again: same id, no duplicate.
    const out = await runProcess(
      [
        "bun",
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
      { env: { ...process.env, RIVALS_DB: t.services.config.dbUrl } },
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
  });

  test("a day without signals writes no digest; a quiet week writes a short weekly one", async () => {
    const day = await runProcess(
      [
        "bun",
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
        "bun",
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
    expect(d.tldr).toContain("No signals were recorded");
    const bad = await runProcess(
      ["bun", "src/main.ts", "digests", "generate", "--org", "acme", "--type", "monthly"],
      {
        env: { ...process.env, RIVALS_DB: t.services.config.dbUrl },
      },
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--type must be one of daily_digest, weekly_tldr");
  });
});
