// The signal list's order and content over pages of a larger feed, on a local file and on a remote libSQL
// server (sqld): each page is the rows the query's ORDER BY gives (newest first_seen_at, ties by higher id),
// whatever order they were imported in, each object with its own id's app link. The list is read from the
// database as one aggregated row (links.ts docListSql), so this is what holds that aggregation's order.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { listSignals, type SignalFilter } from "../../src/db/queries/signals.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { createOrg } from "../../src/domain/orgs.ts";
import { openServices, type Services } from "../../src/services.ts";
import { type Sqld, startSqld } from "../support/sqld.ts";

const BASE = "http://rivals.test";
const SEVERITIES = ["low", "medium", "high"];
const N = 330;

interface Planted {
  key: string;
  competitor: string;
  title: string;
  summary: string;
  severity: string;
  first_seen_at: string;
}

/** A seeded feed: many ties on first_seen_at, keys imported in shuffled order, some non-ASCII text, and
 * characters JSON escapes (quotes, backslashes, control characters) in the summaries. */
function plantedFeed(): Planted[] {
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const feed: Planted[] = [];
  for (let i = 0; i < N; i++)
    feed.push({
      key: `s${i}`,
      competitor: `c${rand(3)}`,
      title: i % 7 === 0 ? `Acquisition talk ${i} — Übernahme 価格` : `Signal ${i}`,
      summary: i % 5 === 0 ? `Quote " backslash \\ brace } record\u001eseparator ${i}` : "",
      severity: SEVERITIES[rand(3)],
      first_seen_at: new Date(Date.UTC(2026, 9, 1) + rand(40) * 86_400_000).toISOString(),
    });
  for (let i = feed.length - 1; i > 0; i--) {
    const j = rand(i + 1);
    [feed[i], feed[j]] = [feed[j], feed[i]];
  }
  return feed;
}

const feed = plantedFeed();

async function load(s: Services): Promise<{ orgId: number; idOf: Map<string, number> }> {
  const orgId = (await createOrg(s.store, { slug: "acme", name: "ACME", plan: "growth" })).id;
  const lines = [
    ...["c0", "c1", "c2"].map((key) => ({ kind: "competitor", org: "acme", key, name: key.toUpperCase() })),
    ...feed.map((p) => ({ kind: "signal", org: "acme", ...p })),
  ];
  const report = await importNdjson(s.store, lines.map((l) => JSON.stringify(l)).join("\n"));
  expect(report.errors).toEqual([]);
  const r = await s.database.client.execute({
    sql: "SELECT key, id FROM signals WHERE org_id = ?",
    args: [orgId],
  });
  return { orgId, idOf: new Map(r.rows.map((row) => [String(row.key), Number(row.id)])) };
}

/** What a filter must list, in order, computed from the planted feed. */
function oracle(idOf: Map<string, number>, keep: (p: Planted) => boolean): number[] {
  return feed
    .filter(keep)
    .map((p) => ({ id: idOf.get(p.key) as number, at: p.first_seen_at }))
    .sort((a, b) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1))
    .map((x) => x.id);
}

function suite(
  name: string,
  open: (dir: string) => Promise<{ services: Services; stop?: () => Promise<void> }>,
) {
  describe(name, () => {
    let dir: string;
    let s: Services;
    let stop: (() => Promise<void>) | undefined;
    let orgId: number;
    let idOf: Map<string, number>;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "rivals-order-"));
      ({ services: s, stop } = await open(dir));
      ({ orgId, idOf } = await load(s));
    }, 60_000);
    afterAll(async () => {
      s?.close();
      await stop?.();
      rmSync(dir, { recursive: true, force: true });
    });

    const byKey = new Map(feed.map((p) => [p.key, p]));
    const since = "2026-10-20T00:00:00.000Z";
    const shapes: [string, Omit<SignalFilter, "limit" | "offset">, (p: Planted) => boolean][] = [
      ["no filter", {}, () => true],
      ["competitor", { competitorId: -1 }, (p) => p.competitor === "c1"],
      ["severity", { severity: "high" }, (p) => p.severity === "high"],
      ["since", { since }, (p) => p.first_seen_at >= since],
      ["q", { q: "acquisition" }, (p) => p.title.startsWith("Acquisition")],
      [
        "q and since",
        { q: "übernahme", since },
        (p) => p.title.startsWith("Acq") && p.first_seen_at >= since,
      ],
    ];
    for (const [label, filter, keep] of shapes)
      test(`${label}: every page in the query's order, each object its own`, async () => {
        const competitorId = filter.competitorId === -1 ? await competitorIdOf(s, orgId, "c1") : undefined;
        const f = competitorId === undefined ? filter : { ...filter, competitorId };
        const want = oracle(idOf, keep);
        expect(want.length).toBeGreaterThan(10);
        const got: number[] = [];
        for (let offset = 0; offset <= want.length; offset += 50) {
          const page = await listSignals(s.database.db, orgId, { ...f, limit: 50, offset }, BASE);
          expect(page.length).toBe(Math.min(50, want.length - offset));
          for (const o of page) {
            const id = Number(String(o.url).split("/").pop());
            const key = [...idOf].find(([, v]) => v === id)?.[0] as string;
            expect(o.url).toBe(`${BASE}/app/signals/${id}`);
            expect(o.title).toBe(byKey.get(key)?.title);
            expect(o.first_seen_at).toBe(byKey.get(key)?.first_seen_at);
            if (byKey.get(key)?.summary) expect(o.summary).toBe(byKey.get(key)?.summary);
            got.push(id);
          }
        }
        expect(got).toEqual(want);
      });
  });
}

async function competitorIdOf(s: Services, orgId: number, key: string): Promise<number> {
  const r = await s.database.client.execute({
    sql: "SELECT id FROM competitors WHERE org_id = ? AND key = ?",
    args: [orgId, key],
  });
  return Number(r.rows[0].id);
}

suite("a local database file", async (dir) => ({
  services: await openServices(
    loadConfig({ RIVALS_DB: `file:${join(dir, "rivals.db")}`, RIVALS_BASE_URL: BASE }),
  ),
}));

suite("a remote libSQL server (sqld)", async (dir) => {
  const sqld: Sqld = await startSqld(dir);
  return {
    services: await openServices(loadConfig({ RIVALS_DB: sqld.url, RIVALS_BASE_URL: BASE })),
    stop: () => sqld.stop(),
  };
});
