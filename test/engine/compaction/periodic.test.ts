// Compaction as a step of `rivals serve`, on a real libSQL file with a moved clock: of two instances, the first to
// look when it is due compacts (a competitor's checks older than COMPACT_DAYS go but the newest), the other finds
// it done; neither runs it again until RIVALS_COMPACT_HOURS have passed; the loop runs it on its own.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { COMPACT_DAYS } from "../../../src/engine/compaction/compact.ts";
import { compactIfDue, startCompactionLoop } from "../../../src/engine/compaction/periodic.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import {
  addResearched,
  type FixtureWorkspace,
  startFixtureWorkspace,
} from "../../support/fixture-workspace.ts";

setDefaultTimeout(60_000);

const HOUR = 3_600_000;
let w: FixtureWorkspace;

const checks = async () =>
  Number(
    (
      await w.t.services.database.client.execute(
        "SELECT COUNT(*) AS n FROM events WHERE type = 'CompetitorChecked'",
      )
    ).rows[0].n,
  );
const cycle = async () => {
  w.t.clock.advance(HOUR);
  await runCycle(w.t.services, w.orgId, { trigger: "schedule" });
};

beforeAll(async () => {
  w = await startFixtureWorkspace();
  await addResearched(w, "https://globex.example");
  for (let i = 0; i < 3; i++) await cycle();
  w.t.clock.advance((COMPACT_DAYS + 1) * 24 * HOUR);
  await cycle();
});
afterAll(() => w.stop());

describe("periodic compaction", () => {
  test("one instance compacts when due; neither again until the cadence has passed", async () => {
    const s = w.t.services;
    expect(await checks()).toBe(4);
    const a = await compactIfDue(s, { everyHours: 24, holder: "a" });
    expect(a?.checks_deleted).toBe(3);
    expect(await checks()).toBe(1);
    expect(await compactIfDue(s, { everyHours: 24, holder: "b" })).toBeNull();

    w.t.clock.advance(23 * HOUR);
    expect(await compactIfDue(s, { everyHours: 24, holder: "a" })).toBeNull();
    expect(await compactIfDue(s, { everyHours: 24, holder: "b" })).toBeNull();

    w.t.clock.advance(HOUR + 1000);
    const b = await compactIfDue(s, { everyHours: 24, holder: "b" });
    expect(b).not.toBeNull();
    expect(b?.checks_deleted).toBe(0);
    expect(await compactIfDue(s, { everyHours: 24, holder: "a" })).toBeNull();
  });

  test("rivals serve's loop compacts once it is due, beside the API, and stops", async () => {
    const s = w.t.services;
    w.t.clock.advance(COMPACT_DAYS * 24 * HOUR);
    await cycle();
    expect(await checks()).toBe(2);
    const loop = startCompactionLoop(s, { checkMs: 20 });
    const deadline = Date.now() + 20_000;
    while ((await checks()) > 1 && Date.now() < deadline) {
      const r = await fetch(`${w.t.base}/healthz`);
      expect(r.status).toBeLessThan(500);
      await Bun.sleep(20);
    }
    await loop.stop();
    expect(await checks()).toBe(1);
    const held = await s.database.client.execute(
      "SELECT expires_at FROM maintenance_claims WHERE task = 'compaction'",
    );
    expect(String(held.rows[0].expires_at)).toBe(new Date(w.t.clock.now.getTime() + 24 * HOUR).toISOString());
  });
});
