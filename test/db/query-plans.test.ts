// Every list and look-up the read API runs is served by an index: EXPLAIN QUERY PLAN on the exact SQL
// the query functions issue (captured with a drizzle logger), never a table scan or a sort in memory.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { drizzle } from "drizzle-orm/libsql";
import { getBattlecard, listBattlecards } from "../../src/db/queries/battlecards.ts";
import { getCompetitor, listCompetitors } from "../../src/db/queries/competitors.ts";
import { getDigest, listDigests } from "../../src/db/queries/digests.ts";
import { getSignal, listSignals, type SignalFilter } from "../../src/db/queries/signals.ts";
import * as schema from "../../src/db/schema.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { type Ids, loadFixture, ORG } from "../support/read-api-fixture.ts";

let t: TestServer;
let ids: Ids;
let orgId: number;
beforeAll(async () => {
  t = await startTestServer();
  ({ ids } = await loadFixture(t));
  const r = await t.services.database.client.execute({
    sql: "SELECT id FROM orgs WHERE slug = ?",
    args: [ORG],
  });
  orgId = Number(r.rows[0].id);
});
afterAll(() => t.close());

const TABLES = ["competitors", "signals", "digests", "battlecards"];

/** Runs `fn` against a drizzle instance that records every statement, then explains each one. */
async function plansOf(fn: (db: typeof t.services.database.db) => Promise<unknown>): Promise<string[][]> {
  const captured: { sql: string; params: unknown[] }[] = [];
  const db = drizzle(t.services.database.client, {
    schema,
    logger: { logQuery: (sql, params) => captured.push({ sql, params }) },
  });
  await fn(db);
  expect(captured.length).toBeGreaterThan(0);
  const plans: string[][] = [];
  for (const { sql, params } of captured) {
    const r = await t.services.database.client.execute({
      sql: `EXPLAIN QUERY PLAN ${sql}`,
      args: params as never,
    });
    plans.push(r.rows.map((row) => String(row.detail)));
  }
  return plans;
}

function expectIndexed(plans: string[][]) {
  for (const plan of plans) {
    const context = plan.join(" | ");
    for (const step of plan) {
      // A step on a read table must search it by an index (or the primary key), never scan it.
      const table = TABLES.find((x) => new RegExp(`^(SCAN|SEARCH) ${x}\\b`).test(step));
      if (table)
        expect(step, context).toMatch(/^SEARCH \w+ USING (COVERING INDEX|INDEX|INTEGER PRIMARY KEY)/);
      expect(step, context).not.toMatch(/^SCAN (competitors|signals|digests|battlecards)( |$)/);
      // The index also gives the order: no sort in memory.
      expect(step, context).not.toContain("TEMP B-TREE");
    }
    expect(
      plan.some((s) => s.startsWith("SEARCH")),
      context,
    ).toBe(true);
  }
}

const page = { limit: 50, offset: 0 };

test("competitor list", async () => {
  const plans = await plansOf((db) => listCompetitors(db, orgId, ""));
  expectIndexed(plans);
  expect(plans[0].join()).toContain("competitors_listed");
});

test("battlecard list", async () => {
  const plans = await plansOf((db) => listBattlecards(db, orgId, ""));
  expectIndexed(plans);
  expect(plans[0].join()).toContain("battlecards_listed");
});

test.each([
  ["without type", undefined, "digests_feed"],
  ["with type", "weekly_tldr", "digests_by_type"],
])("digest list %s", async (_, type, index) => {
  const plans = await plansOf((db) => listDigests(db, orgId, { ...page, type }, ""));
  expectIndexed(plans);
  expect(plans[0].join()).toContain(index);
});

const since = "2026-11-01T00:00:00.000Z";
test.each<[string, () => Partial<SignalFilter>, string]>([
  ["no filter", () => ({}), "signals_feed"],
  ["competitor_id", () => ({ competitorId: ids.competitors.alpha }), "signals_by_competitor"],
  ["severity", () => ({ severity: "high" }), "signals_by_severity"],
  ["since", () => ({ since }), "signals_feed"],
  ["q (trigram)", () => ({ q: "alpha" }), "signals_fts"],
  ["q (short)", () => ({ q: "al" }), "signals_feed"],
  [
    "competitor_id + severity",
    () => ({ competitorId: ids.competitors.alpha, severity: "low" }),
    "signals_by",
  ],
  ["competitor_id + since", () => ({ competitorId: ids.competitors.alpha, since }), "signals_by_competitor"],
  ["severity + since", () => ({ severity: "low", since }), "signals_by_severity"],
  [
    "q + competitor_id + since",
    () => ({ q: "alpha", competitorId: ids.competitors.alpha, since }),
    "signals_fts",
  ],
  ["q + severity", () => ({ q: "pri", severity: "high" }), "signals_fts"],
  ["deep page", () => ({ offset: 5000 }), "signals_feed"],
  ["category", () => ({ category: "pricing" }), "signals_by_category"],
  ["type", () => ({ type: "price_change" }), "signals_by_type"],
  [
    "category + since + until",
    () => ({ category: "pricing", since, until: "2026-11-20T00:00:00.000Z" }),
    "signals_by_category",
  ],
])("signal list: %s", async (_, filter, index) => {
  const plans = await plansOf((db) => listSignals(db, orgId, { ...page, ...filter() }, ""));
  expectIndexed(plans);
  expect(plans[0].join()).toContain(index);
});

test("look-ups by id, slug and competitor id", async () => {
  expectIndexed(await plansOf((db) => getCompetitor(db, orgId, ids.competitors.alpha, "")));
  expectIndexed(await plansOf((db) => getSignal(db, orgId, ids.signals.a1, "")));
  expectIndexed(await plansOf((db) => getDigest(db, orgId, "week-45", "")));
  expectIndexed(await plansOf((db) => getDigest(db, orgId, String(ids.digests["d-daily-1"]), "")));
  expectIndexed(await plansOf((db) => getBattlecard(db, orgId, ids.battlecards["bc-alpha"], "")));
  expectIndexed(await plansOf((db) => getBattlecard(db, orgId, ids.competitors.alpha, "")));
});
