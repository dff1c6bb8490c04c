// The cycles table has one write path (src/db/cycleRecords.ts): a running cycle's record and the CycleStarted /
// CycleFinished events of older logs, replayed, give the same rows; a replay keeps a row already there.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoredEvent } from "../../events/catalog.ts";
import { projectCycles } from "../../projections/cycles.ts";
import { loadConfig } from "../../src/config.ts";
import { finishCycle, openCycle } from "../../src/engine/cycle/record.ts";
import type { CycleSummary } from "../../src/engine/cycle/types.ts";
import { openServices, type Services } from "../../src/services.ts";

let s: Services;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-cycle-records-"));
  s = await openServices(loadConfig({ RIVALS_DB: `file:${join(dir, "c.db")}`, RIVALS_ARCHIVE_MONTHS: "0" }));
});
afterAll(() => {
  s.close();
  rmSync(dir, { recursive: true, force: true });
});

const event = (type: string, data: Record<string, unknown>, position: number) =>
  ({
    position,
    orgId: 3,
    streamType: "org",
    streamId: "3",
    streamVersion: position,
    type,
    data,
    metadata: {},
    recordedAt: "2025-05-05T00:00:00.000Z",
  }) as unknown as StoredEvent;

async function row(id: number): Promise<Record<string, unknown> | undefined> {
  const r = await s.database.client.execute({
    sql: "SELECT org_id, trigger, slot, started_at, finished_at, summary, holder, expires_at FROM cycles WHERE id = ?",
    args: [id],
  });
  return r.rows[0] ? { ...r.rows[0] } : undefined;
}

const summary = (id: number): CycleSummary => ({
  cycle_id: id,
  org: "acme",
  trigger: "schedule",
  started_at: "2025-05-05T00:00:00.000Z",
  finished_at: "",
  competitors_checked: 1,
  competitors_skipped: [],
  pages_checked: 3,
  pages_changed: 0,
  pages_failed: 0,
  pages_not_modified: 3,
  pages_baseline: 0,
  pages_due_later: 0,
  signals_created: 0,
  signals_updated: 0,
  signals_closed: 0,
  battlecards_written: 0,
  digests_written: 0,
  deliveries: 0,
  failures: [],
});

test("an older log's CycleStarted and CycleFinished, replayed, give a finished cycle's row; a second replay keeps it", async () => {
  const started = event(
    "CycleStarted",
    { cycle_id: 900, trigger: "schedule", started_at: "2025-05-05T00:00:00.000Z", slot: "hourly@x" },
    1,
  );
  const finished = event(
    "CycleFinished",
    { cycle_id: 900, finished_at: "2025-05-05T00:02:00.000Z", summary: summary(900) },
    2,
  );
  await s.store.writeTables(async ({ tx }) => {
    await projectCycles(started, tx);
    await projectCycles(finished, tx);
  });
  const first = await row(900);
  expect(first).toEqual({
    org_id: 3,
    trigger: "schedule",
    slot: "hourly@x",
    started_at: "2025-05-05T00:00:00.000Z",
    finished_at: "2025-05-05T00:02:00.000Z",
    summary: JSON.stringify(summary(900)),
    holder: null,
    expires_at: null,
  });
  // A rebuild replays the start again: the finished row stays as it is.
  await s.store.writeTables(({ tx }) => projectCycles(started, tx));
  expect(await row(900)).toEqual(first);
});

test("a running cycle's record is written by the same statements: its holder and heartbeat, then its end", async () => {
  const opened = await openCycle(s, 3, { trigger: "operator" });
  opened.stop();
  const running = await row(opened.id);
  expect(running?.holder).toBeString();
  expect(running?.expires_at).toBeString();
  expect(running?.finished_at).toBeNull();
  await finishCycle(s, opened.id, summary(opened.id));
  const done = await row(opened.id);
  expect(done?.finished_at).toBeString();
  expect(done?.expires_at).toBeNull();
  expect(JSON.parse(String(done?.summary)).pages_not_modified).toBe(3);
});
