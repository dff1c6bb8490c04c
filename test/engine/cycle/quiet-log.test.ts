// What quiet hourly cycles leave in the log: one CompetitorChecked per competitor and cycle, nothing else per
// cycle (a week of them adds the weekly digest, one per period); and the freshness each check writes in place is
// the same bytes a rewrite of the whole competitor would give.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { competitorDetailDoc } from "../../../projections/docs.ts";
import type { CompetitorRecord } from "../../../src/domain/records.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import {
  addResearched,
  type FixtureWorkspace,
  startFixtureWorkspace,
} from "../../support/fixture-workspace.ts";

setDefaultTimeout(120_000);

let w: FixtureWorkspace;
const ids: number[] = [];

beforeAll(async () => {
  w = await startFixtureWorkspace();
  ids.push(await addResearched(w, "https://globex.example"));
  ids.push(await addResearched(w, "https://tallyhq.example"));
  // The first cycle after research: its baselines are research's, asked again conditionally.
  await runCycle(w.t.services, w.orgId, { trigger: "schedule" });
});
afterAll(() => w.stop());

async function lastPosition(): Promise<number> {
  const r = await w.t.services.database.client.execute("SELECT COALESCE(MAX(position), 0) AS p FROM events");
  return Number(r.rows[0].p);
}

/** Events after `pos`, counted by type and by competitor stream. */
async function eventsSince(pos: number) {
  const r = await w.t.services.database.client.execute({
    sql: `SELECT type, stream_type, stream_id, COUNT(*) AS n FROM events WHERE position > ?
          GROUP BY type, stream_type, stream_id ORDER BY type, stream_id`,
    args: [pos],
  });
  return r.rows.map((x) => ({
    type: String(x.type),
    stream: `${x.stream_type}:${x.stream_id}`,
    n: Number(x.n),
  }));
}

async function quietCycles(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    w.t.clock.advance(3_600_000);
    const s = await runCycle(w.t.services, w.orgId, { trigger: "schedule" });
    expect(s.pages_changed).toBe(0);
    expect(s.pages_failed).toBe(0);
    expect(s.competitors_checked).toBe(ids.length);
  }
}

describe("quiet cycles", () => {
  test("a day of hourly quiet cycles appends exactly one CompetitorChecked per competitor and cycle", async () => {
    const before = await lastPosition();
    await quietCycles(24);
    expect(await eventsSince(before)).toEqual(
      ids.map((id) => ({ type: "CompetitorChecked", stream: `competitor:${id}`, n: 24 })),
    );
  });

  test("a week of them adds only the weekly digest besides: at most one event per competitor and cycle", async () => {
    const before = await lastPosition();
    const cycles = 7 * 24;
    await quietCycles(cycles);
    const evs = await eventsSince(before);
    const checked = evs.filter((e) => e.type === "CompetitorChecked");
    expect(checked).toEqual(
      ids.map((id) => ({ type: "CompetitorChecked", stream: `competitor:${id}`, n: cycles })),
    );
    const others = evs.filter((e) => e.type !== "CompetitorChecked");
    expect(others.every((e) => e.type === "DigestRecorded" && !e.stream.startsWith("competitor:"))).toBe(
      true,
    );
    expect(others.reduce((a, e) => a + e.n, 0)).toBeLessThanOrEqual(1);
  });

  test("each check's freshness, written in place, is what a rewrite of the whole competitor gives", async () => {
    const r = await w.t.services.database.client.execute({
      sql: `SELECT id, state, detail_doc FROM competitors WHERE org_id = ? AND id IN (${ids.map(() => "?").join(",")})`,
      args: [w.orgId, ...ids],
    });
    expect(r.rows).toHaveLength(ids.length);
    for (const row of r.rows) {
      const record = JSON.parse(String(row.state)) as CompetitorRecord & {
        freshness: Record<string, unknown>;
      };
      expect(record.freshness.last_checked_at).toBe(w.t.clock.now.toISOString());
      expect(record.freshness.sources).toEqual(expect.objectContaining({ changed: 0, failed: 0 }));
      expect(String(row.state)).toBe(JSON.stringify(record));
      expect(String(row.detail_doc)).toBe(JSON.stringify(competitorDetailDoc(Number(row.id), record)));
    }
  });
});
