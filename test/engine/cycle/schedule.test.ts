// The scheduler and its lease on one libSQL server (sqld, started here): two scheduler instances on two
// connections with a test-controlled clock run each due cycle once, a slot missed while down runs once (not once
// per missed slot), an expired lease of a crashed holder is taken over, jitter spreads workspaces; then two real
// `rivals serve` processes on the same database run the due cycle exactly once (finished cycle records counted).

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { handle, runCommand } from "../../../events/command.ts";
import { type Config, loadConfig } from "../../../src/config.ts";
import { setMonitoringCadence } from "../../../src/domain/cadence.ts";
import { createOrg } from "../../../src/domain/orgs.ts";
import { addCompetitor } from "../../../src/domain/watchlist.ts";
import { cycleStatus } from "../../../src/engine/cycle/status.ts";
import { startResearch } from "../../../src/engine/research/runner.ts";
import { Scheduler } from "../../../src/engine/schedule/scheduler.ts";
import { jitterOf, slotOf } from "../../../src/engine/schedule/slots.ts";
import { openServices, type Services } from "../../../src/services.ts";
import { freePort } from "../../e2e/harness.ts";
import { type CycleWeb, startCycleWeb } from "../../support/engine-cycle-web.ts";
import { type Sqld, startSqld } from "../../support/sqld.ts";

setDefaultTimeout(90_000);

const root = resolve(import.meta.dir, "..", "..", "..");

let dir: string;
let sqld: Sqld;
let dbUrl: string;
let web: CycleWeb;
let a: Services;
let b: Services;
const clock = { now: new Date("2026-11-20T12:30:00Z") };

/** The workspace's cycle records (all, or those that finished). */
async function cycles(s: Services, orgId: number, which: "all" | "finished"): Promise<number> {
  const r = await s.database.client.execute({
    sql: `SELECT COUNT(*) AS n FROM cycles WHERE org_id = ?${which === "finished" ? " AND finished_at IS NOT NULL" : ""}`,
    args: [orgId],
  });
  return Number(r.rows[0].n);
}

async function workspace(s: Services, slug: string, plan: string, site: string): Promise<number> {
  const org = await createOrg(s.store, { slug, name: slug, plan });
  const { result } = await s.store.execute((w) =>
    handle(addCompetitor, w, { orgId: org.id, actor: "test" }, { website_url: site }),
  );
  const { done } = await startResearch(
    s,
    { orgId: org.id, actor: "operator" },
    { kind: "one", competitor_id: result.id },
    "operator",
    { usesAllowance: false },
  );
  expect((await done)[0].status).toBe("finished");
  return org.id;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-sched-"));
  sqld = await startSqld(dir);
  dbUrl = sqld.url;
  web = startCycleWeb();
  const config: Config = loadConfig({
    RIVALS_DB: dbUrl,
    RIVALS_FETCH_REWRITE: web.rewrite,
    RIVALS_FETCH_DELAY_MS: "0",
  });
  a = await openServices(config, () => clock.now);
  b = await openServices({ ...config }, () => clock.now);
});

afterAll(async () => {
  a?.close();
  b?.close();
  await sqld?.stop();
  await web?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("slots and jitter", () => {
  test("slots per cadence (UTC; weeks start on Monday) and a stable jitter under a tenth of the period", () => {
    const now = new Date("2026-11-20T13:45:10Z"); // a Friday
    expect(slotOf("hourly", now).key).toBe("hourly@2026-11-20T13:00:00.000Z");
    expect(slotOf("twice_daily", now).key).toBe("twice_daily@2026-11-20T12:00:00.000Z");
    expect(slotOf("daily", now).key).toBe("daily@2026-11-20T00:00:00.000Z");
    expect(slotOf("weekly", now).key).toBe("weekly@2026-11-16T00:00:00.000Z");
    const j = jitterOf(7, 3_600_000, 600_000);
    expect(j).toBe(jitterOf(7, 3_600_000, 600_000));
    expect(j).toBeLessThan(360_000);
    expect(jitterOf(7, 3_600_000, 0)).toBe(0);
    expect(new Set([1, 2, 3, 4, 5, 6].map((o) => jitterOf(o, 86_400_000, 600_000))).size).toBeGreaterThan(1);
  });
});

describe("two schedulers on one database", () => {
  let orgId: number;
  let sa: Scheduler;
  let sb: Scheduler;
  beforeAll(async () => {
    orgId = await workspace(a, "hourly", "enterprise", "https://tallyhq.example");
    await runCommand(
      a.store,
      setMonitoringCadence,
      { cadence: "hourly" },
      { caller: { orgId, actor: "test" } },
    );
    sa = new Scheduler(a, { instance: "A", jitterMs: 0 });
    sb = new Scheduler(b, { instance: "B", jitterMs: 0 });
  });
  afterAll(async () => {
    await sa.stop();
    await sb.stop();
  });
  const both = async () => {
    const [ra, rb] = await Promise.all([sa.tick(), sb.tick()]);
    await Promise.all([sa.idle(), sb.idle()]);
    return [...ra.started, ...rb.started];
  };

  test("a due cycle runs once across both; again once the next slot is due", async () => {
    expect(await both()).toHaveLength(1);
    expect(await cycles(a, orgId, "finished")).toBe(1);
    expect(await both()).toHaveLength(0);
    clock.now = new Date("2026-11-20T12:59:00Z");
    expect(await both()).toHaveLength(0);
    clock.now = new Date("2026-11-20T13:00:00Z");
    const started = await both();
    expect(started).toEqual([{ orgId, slot: "hourly@2026-11-20T13:00:00.000Z" }]);
    expect(await cycles(a, orgId, "finished")).toBe(2);
    const r = await a.database.client.execute({
      sql: "SELECT trigger, slot FROM cycles WHERE org_id = ? ORDER BY id",
      args: [orgId],
    });
    expect(r.rows.map((x) => [x.trigger, x.slot])).toEqual([
      ["schedule", "hourly@2026-11-20T12:00:00.000Z"],
      ["schedule", "hourly@2026-11-20T13:00:00.000Z"],
    ]);
  });

  test("slots missed while no instance ran give one cycle, not one per missed slot", async () => {
    clock.now = new Date("2026-11-20T18:20:00Z");
    expect(await both()).toHaveLength(1);
    expect(await both()).toHaveLength(0);
    expect(await cycles(a, orgId, "finished")).toBe(3);
  });

  test("a crashed holder's lease is taken over once it expires", async () => {
    clock.now = new Date("2026-11-20T19:00:30Z");
    const slot = "hourly@2026-11-20T19:00:00.000Z";
    await a.database.client.execute({
      sql: "INSERT INTO cycle_leases (org_id, slot, holder, claimed_at, expires_at) VALUES (?, ?, 'crashed', ?, ?)",
      args: [orgId, slot, "2026-11-20T19:00:00.000Z", "2026-11-20T19:05:00.000Z"],
    });
    expect(await both()).toHaveLength(0);
    clock.now = new Date("2026-11-20T19:05:00Z");
    expect(await both()).toEqual([{ orgId, slot }]);
    const r = await a.database.client.execute({
      sql: "SELECT holder, takeovers, finished_at, cycle_id FROM cycle_leases WHERE org_id = ? AND slot = ?",
      args: [orgId, slot],
    });
    expect(["A", "B"]).toContain(String(r.rows[0].holder));
    expect(Number(r.rows[0].takeovers)).toBe(1);
    expect(r.rows[0].finished_at).not.toBeNull();
    expect(await cycles(a, orgId, "finished")).toBe(4);
  });

  test("cycleStatus: cadence, the last cycle's counts, when the next is due", async () => {
    const st = await cycleStatus(a, orgId, new Date("2026-11-20T19:30:00Z"));
    expect(st.cadence).toBe("hourly");
    expect(st.scheduler).toBe("on");
    // its home page and the Hacker News search of its domain
    expect(st.last_cycle).toMatchObject({ trigger: "schedule", pages_checked: 2, signals_created: 0 });
    expect(st.running_since).toBeUndefined();
    // The 19:00 slot ran: the next is 20:00 plus this workspace's jitter.
    expect(st.next_cycle_due_at).toBe(
      new Date(Date.parse("2026-11-20T20:00:00Z") + jitterOf(orgId, 3_600_000, 600_000)).toISOString(),
    );
  });

  test("jitter: a workspace's cycle is not due before its offset into the slot", async () => {
    const sj = new Scheduler(a, { instance: "J", jitterMs: 600_000 });
    const [w] = (await sj.dueWorkspaces(new Date("2026-11-20T20:00:00Z"))).filter((x) => x.orgId === orgId);
    expect(w.cadence).toBe("hourly");
    expect(w.dueAt.getTime() - Date.parse("2026-11-20T20:00:00Z")).toBe(jitterOf(orgId, 3_600_000, 600_000));
  });
});

describe("two rivals serve processes on one sqld database", () => {
  test("both schedulers run; the due cycle runs exactly once", async () => {
    const orgId = await workspace(a, "weekly", "growth", "https://globex.example");
    const procs: ReturnType<typeof Bun.spawn>[] = [];
    const outs: string[] = ["", ""];
    try {
      for (const i of [0, 1]) {
        const port = await freePort();
        const p = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
          cwd: root,
          env: {
            ...process.env,
            RIVALS_DB: dbUrl,
            PORT: String(port),
            HOST: "127.0.0.1",
            RIVALS_FETCH_REWRITE: web.rewrite,
            RIVALS_FETCH_DELAY_MS: "0",
            RIVALS_SCHEDULER_JITTER_MS: "0",
          },
          stdout: "pipe",
          stderr: "pipe",
        });
        procs.push(p);
        void (async () => {
          const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            outs[i] += new TextDecoder().decode(value);
          }
        })();
      }
      // Wait for this workspace's cycle (the other workspace's slot already ran under the test clock's times,
      // which lie in the past: the servers' real-time slot is due for it too).
      const deadline = Date.now() + 60_000;
      while ((await cycles(a, orgId, "finished")) < 1) {
        if (Date.now() > deadline) throw new Error(`no cycle ran:\n${outs.join("\n---\n")}`);
        await Bun.sleep(200);
      }
      // Both instances started their scheduler and checked at start; give the slower one time to try.
      while (!outs.every((o) => o.includes('"started":true'))) {
        if (Date.now() > deadline) throw new Error(`a scheduler did not start:\n${outs.join("\n---\n")}`);
        await Bun.sleep(100);
      }
      await Bun.sleep(2_000);
      expect(await cycles(a, orgId, "all")).toBe(1);
      expect(await cycles(a, orgId, "finished")).toBe(1);
      const r = await a.database.client.execute({
        sql: "SELECT holder, takeovers, finished_at FROM cycle_leases WHERE org_id = ?",
        args: [orgId],
      });
      expect(r.rows).toHaveLength(1);
      expect(Number(r.rows[0].takeovers)).toBe(0);
      expect(r.rows[0].finished_at).not.toBeNull();
      // The cycle ran in one of the two processes.
      expect(outs.filter((o) => o.includes(`"signals_created"`)).length).toBeGreaterThanOrEqual(1);
    } finally {
      for (const p of procs) p.kill();
      await Promise.all(procs.map((p) => p.exited));
    }
  });
});
