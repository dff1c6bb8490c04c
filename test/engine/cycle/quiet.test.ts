// Quiet checks written together: the checks of several competitors that found nothing changed go as one writer
// transaction, each with its own CompetitorChecked event; one that fails fails alone; one left waiting is
// written within the wait.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import { recordKeptSources } from "../../../src/db/sourceChecks.ts";
import type { CheckRecord } from "../../../src/domain/cycles.ts";
import { flushQuietChecks, writeQuietCheck } from "../../../src/engine/cycle/quiet.ts";
import { openServices, type Services } from "../../../src/services.ts";

const ORG = 7;
let s: Services;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-quiet-"));
  s = await openServices(loadConfig({ RIVALS_DB: `file:${join(dir, "q.db")}`, RIVALS_ARCHIVE_MONTHS: "0" }));
  for (const c of [101, 102, 103, 104, 105, 106, 107])
    await s.database.client.execute({
      sql: `INSERT INTO snapshot_sources (org_id, competitor_id, source_key, url, kind, first_seen_at,
              last_checked_at, failures, rendered, etag)
            VALUES (?, ?, 'page:https://a.test/', 'https://a.test/', 'page', '2026-01-01T00:00:00.000Z',
              '2026-01-01T00:00:00.000Z', 2, 0, '"old"')`,
      args: [ORG, c],
    });
});
afterAll(() => {
  s.close();
  rmSync(dir, { recursive: true, force: true });
});

const AT = "2026-02-01T10:00:00.000Z";

/** A competitor's quiet check: its one page answered 304 with a new ETag. */
const quiet = (competitorId: number, fail = false): CheckRecord => ({
  orgId: ORG,
  checked: {
    competitor_id: competitorId,
    cycle_id: 1,
    checked_at: AT,
    sources: 1,
    changed: 0,
    failed: 0,
    failing: [],
  },
  writeSources: async ({ later }) => {
    await recordKeptSources(later, [
      {
        o: ORG,
        c: competitorId,
        k: "page:https://a.test/",
        t: AT,
        e: `"v${competitorId}"`,
        m: null,
        h: null,
        r: null,
      },
    ]);
    if (fail) throw new Error("this check's write fails");
  },
});

async function commits(): Promise<number> {
  const r = await s.database.client.execute("SELECT n FROM data_changes WHERE id = 1");
  return Number(r.rows[0].n);
}

async function checked(ids: number[]) {
  const r = await s.database.client.execute({
    sql: `SELECT stream_id, COUNT(*) AS n FROM events WHERE type = 'CompetitorChecked'
            AND stream_id IN (${ids.map(() => "?").join(", ")}) GROUP BY stream_id ORDER BY stream_id`,
    args: ids.map(String),
  });
  return r.rows.map((x) => ({ competitor: Number(x.stream_id), events: Number(x.n) }));
}

async function source(competitorId: number) {
  const r = await s.database.client.execute({
    sql: "SELECT etag, last_checked_at, failures FROM snapshot_sources WHERE org_id = ? AND competitor_id = ?",
    args: [ORG, competitorId],
  });
  const row = r.rows[0];
  return { etag: row.etag, checked: row.last_checked_at, failures: Number(row.failures) };
}

test("the quiet checks of three competitors are one writer transaction, with one CompetitorChecked each", async () => {
  const before = await commits();
  const written = [101, 102, 103].map((c) => writeQuietCheck(s, quiet(c)));
  flushQuietChecks(s);
  await Promise.all(written);
  expect(await commits()).toBe(before + 1);
  expect(await checked([101, 102, 103])).toEqual([
    { competitor: 101, events: 1 },
    { competitor: 102, events: 1 },
    { competitor: 103, events: 1 },
  ]);
  for (const c of [101, 102, 103])
    expect(await source(c)).toEqual({ etag: `"v${c}"`, checked: AT, failures: 0 });
});

test("a check whose write fails fails alone: the others of its batch are written", async () => {
  const written = [104, 105, 106].map((c) => writeQuietCheck(s, quiet(c, c === 105)));
  flushQuietChecks(s);
  const outcomes = await Promise.allSettled(written);
  expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(await checked([104, 105, 106])).toEqual([
    { competitor: 104, events: 1 },
    { competitor: 106, events: 1 },
  ]);
  // Nothing of the failed check stayed: its source is as it was.
  expect(await source(105)).toEqual({ etag: '"old"', checked: "2026-01-01T00:00:00.000Z", failures: 2 });
});

test("a quiet check nobody flushes is written within the wait", async () => {
  const started = performance.now();
  await writeQuietCheck(s, quiet(107));
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(await checked([107])).toEqual([{ competitor: 107, events: 1 }]);
});
