// Several instances on one libSQL server (sqld) share a cycle's competitors. Two instances (each its own
// Services: its own writer and lanes) split one cycle — each checks some, every page is fetched once, every
// competitor has exactly one CompetitorChecked in the cycle. Then a real `rivals serve` process leads a cycle and
// is killed while it holds some competitors: the other instance, its clock moved on less than a minute, takes
// over the lease and the dead instance's share, and finishes the same cycle — nothing checked twice, nothing
// skipped.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Config, loadConfig } from "../../../src/config.ts";
import type { CycleSummary } from "../../../src/engine/cycle/run.ts";
import { Scheduler } from "../../../src/engine/schedule/scheduler.ts";
import { openServices, type Services } from "../../../src/services.ts";
import { freePort } from "../../e2e/harness.ts";
import { type HostSites, hostPage, seedWorkspace, serveHosts } from "../../support/host-sites.ts";
import { type Sqld, startSqld } from "../../support/sqld.ts";

setDefaultTimeout(120_000);

const root = resolve(import.meta.dir, "..", "..", "..");
const PAGES = [
  ["/", "home"],
  ["/pricing", "pricing"],
] as const;

async function until<T>(
  what: string | (() => string),
  f: () => Promise<T | undefined | false>,
  ms = 90_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    await Bun.sleep(50);
  }
}

/** CompetitorChecked events of the cycle, per competitor. */
async function checkedPerCompetitor(s: Services, cycleId: number): Promise<Map<number, number>> {
  const r = await s.database.client.execute({
    sql: `SELECT json_extract(data, '$.competitor_id') AS c, COUNT(*) AS n FROM events
          WHERE type = 'CompetitorChecked' AND json_extract(data, '$.cycle_id') = ? GROUP BY c`,
    args: [cycleId],
  });
  return new Map(r.rows.map((row) => [Number(row.c), Number(row.n)]));
}

async function competitorIds(s: Services, orgId: number): Promise<number[]> {
  const r = await s.database.client.execute({
    sql: "SELECT id FROM competitors WHERE org_id = ? ORDER BY id",
    args: [orgId],
  });
  return r.rows.map((row) => Number(row.id));
}

/** Each host's page requests (robots.txt aside), sorted. */
function pagesByHost(site: HostSites): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const a of site.arrivals) {
    if (a.path === "/robots.txt") continue;
    out.set(a.host, [...(out.get(a.host) ?? []), a.path].sort());
  }
  return out;
}

describe("two instances split a cycle", () => {
  let dir: string;
  let sqld: Sqld;
  let site: HostSites;
  let a: Services;
  let b: Services;
  const clock = { now: new Date("2026-11-20T12:30:00Z") };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "rivals-instances-"));
    sqld = await startSqld(dir);
    // A site that takes a moment to answer, so both instances have competitors in flight.
    site = serveHosts({ page: hostPage, delayMs: 200, record: true });
    const config: Config = loadConfig({
      RIVALS_DB: sqld.url,
      RIVALS_FETCH_REWRITE: site.rewrite,
      RIVALS_FETCH_DELAY_MS: "0",
      RIVALS_ARCHIVE_MONTHS: "0",
    });
    a = await openServices(config, () => clock.now);
    b = await openServices({ ...config }, () => clock.now);
  });
  afterAll(async () => {
    a?.close();
    b?.close();
    site?.stop();
    await sqld?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("each instance checks some competitors; none twice, none skipped", async () => {
    const N = 12;
    const orgId = await seedWorkspace(a, {
      slug: "split",
      websites: Array.from({ length: N }, (_, i) => `https://split-${i}.instances.test`),
      pages: PAGES,
      cadence: "hourly",
    });
    let finished!: (x: CycleSummary | Error) => void;
    const done = new Promise<CycleSummary | Error>((r) => {
      finished = r;
    });
    // Both check at start; whichever claims the lease leads, the other helps (it looks every 100 ms).
    const common = {
      jitterMs: 0,
      pattern: "0 0 1 1 *",
      lanes: 3,
      pollMs: 100,
      helpMs: 100,
      onCycle: (_o: number, _s: string, x: CycleSummary | Error) => finished(x),
    };
    const sa = new Scheduler(a, { ...common, instance: "A" });
    const sb = new Scheduler(b, { ...common, instance: "B" });
    sa.start();
    sb.start();
    const summary = await done;
    await sa.stop();
    await sb.stop();
    if (summary instanceof Error) throw summary;
    const lease = await a.database.client.execute({
      sql: "SELECT holder, slot FROM cycle_leases WHERE org_id = ?",
      args: [orgId],
    });
    expect(lease.rows.map((r) => r.slot)).toEqual(["hourly@2026-11-20T12:00:00.000Z"]);
    const helper = lease.rows[0].holder === "A" ? sb : sa;

    expect(summary.competitors_checked).toBe(N);
    expect(summary.pages_checked).toBe(N * PAGES.length);
    expect(summary.pages_failed).toBe(0);
    expect(summary.pages_baseline).toBe(N * PAGES.length);
    // Both took part.
    expect(helper.helped).toBeGreaterThan(0);
    expect(helper.helped).toBeLessThan(N);
    // Each page fetched once, each competitor recorded once in the cycle.
    const byHost = pagesByHost(site);
    expect(byHost.size).toBe(N);
    for (const [host, paths] of byHost) expect({ host, paths }).toEqual({ host, paths: ["/", "/pricing"] });
    const per = await checkedPerCompetitor(a, summary.cycle_id);
    expect([...per.keys()].sort((x, y) => x - y)).toEqual(await competitorIds(a, orgId));
    expect([...per.values()].every((n) => n === 1)).toBe(true);
    // The cycle's rows are gone once it finished.
    const left = await a.database.client.execute({
      sql: "SELECT COUNT(*) AS n FROM cycle_shares WHERE cycle_id = ?",
      args: [summary.cycle_id],
    });
    expect(Number(left.rows[0].n)).toBe(0);
  });
});

describe("an instance killed mid-cycle", () => {
  let dir: string;
  let sqld: Sqld;
  let site: HostSites;
  let a: Services;
  const clock = { now: new Date() };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "rivals-instances-kill-"));
    sqld = await startSqld(dir);
    site = serveHosts({ page: hostPage, record: true });
    a = await openServices(
      loadConfig({
        RIVALS_DB: sqld.url,
        RIVALS_FETCH_REWRITE: site.rewrite,
        RIVALS_FETCH_DELAY_MS: "0",
        RIVALS_ARCHIVE_MONTHS: "0",
      }),
      () => clock.now,
    );
  });
  afterAll(async () => {
    a?.close();
    site?.stop();
    await sqld?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the other instance takes over its share within a minute and finishes the same cycle", async () => {
    const N = 8;
    const orgId = await seedWorkspace(a, {
      slug: "killed",
      websites: Array.from({ length: N }, (_, i) => `https://killed-${i}.instances.test`),
      pages: PAGES,
      cadence: "daily",
    });
    // Every answer waits: whatever an instance claims stays in flight until the test lets it go.
    site.hold();
    const port = await freePort();
    const child = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
      cwd: root,
      env: {
        ...process.env,
        RIVALS_DB: sqld.url,
        PORT: String(port),
        HOST: "127.0.0.1",
        RIVALS_FETCH_REWRITE: site.rewrite,
        RIVALS_FETCH_DELAY_MS: "0",
        RIVALS_SCHEDULER_JITTER_MS: "0",
        RIVALS_SCHEDULER_LANES: "3",
        RIVALS_ARCHIVE_MONTHS: "0",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    // What the process said, for a failure's message.
    let said = "";
    for (const stream of [child.stdout, child.stderr])
      void (async () => {
        const reader = (stream as ReadableStream<Uint8Array>).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          said += new TextDecoder().decode(value);
        }
      })().catch(() => undefined);
    let finished!: (x: CycleSummary | Error) => void;
    const done = new Promise<CycleSummary | Error>((r) => {
      finished = r;
    });
    const survivor = new Scheduler(a, {
      jitterMs: 0,
      pattern: "0 0 1 1 *",
      lanes: 3,
      helpMs: 50,
      pollMs: 100,
      onCycle: (_o, _s, x) => finished(x),
    });
    try {
      // The process leads the cycle and holds three competitors.
      const held = await until(
        () => `the process to claim its share:\n${said}`,
        async () => {
          const r = await a.database.client.execute(
            "SELECT competitor_id, holder FROM cycle_shares WHERE holder IS NOT NULL",
          );
          return r.rows.length === 3 ? r.rows.map((row) => Number(row.competitor_id)) : undefined;
        },
      );
      // This instance claims three more; two are left to claim.
      expect(await survivor.help()).toBe(1);
      await until("this instance's claims", async () => {
        const r = await a.database.client.execute(
          "SELECT COUNT(*) AS n FROM cycle_shares WHERE holder IS NOT NULL",
        );
        return Number(r.rows[0].n) === 6;
      });
      child.kill("SIGKILL");
      await child.exited;
      const killedAt = Date.now();
      site.release();
      // It checks its three and the two left, but not the dead instance's: their claims have not expired.
      await survivor.idle();
      expect(survivor.helped).toBe(5);
      const cycle = await a.database.client.execute({
        sql: "SELECT id, holder, finished_at FROM cycles WHERE org_id = ?",
        args: [orgId],
      });
      expect(cycle.rows).toHaveLength(1);
      expect(cycle.rows[0].finished_at).toBeNull();
      const cycleId = Number(cycle.rows[0].id);

      // Less than a minute later (this instance's clock), the dead instance's lease and claims have expired:
      // this instance's scheduler, running now, takes them over.
      clock.now = new Date(killedAt + 59_000);
      survivor.start();
      const summary = await done;
      await survivor.stop();
      if (summary instanceof Error) throw summary;

      // The same cycle, finished by this instance; the dead instance's three checked here, once.
      expect(summary.cycle_id).toBe(cycleId);
      expect(summary.competitors_checked).toBe(N);
      expect(summary.pages_checked).toBe(N * PAGES.length);
      const lease = await a.database.client.execute({
        sql: "SELECT takeovers, finished_at FROM cycle_leases WHERE org_id = ?",
        args: [orgId],
      });
      expect(Number(lease.rows[0].takeovers)).toBe(1);
      expect(lease.rows[0].finished_at).not.toBeNull();
      const per = await checkedPerCompetitor(a, cycleId);
      expect([...per.keys()].sort((x, y) => x - y)).toEqual(await competitorIds(a, orgId));
      expect([...per.values()].every((n) => n === 1)).toBe(true);
      for (const id of held) expect(per.get(id)).toBe(1);
      // Every page was fetched once: the dead instance's requests never got past robots.txt.
      const byHost = pagesByHost(site);
      expect(byHost.size).toBe(N);
      for (const [host, paths] of byHost) expect({ host, paths }).toEqual({ host, paths: ["/", "/pricing"] });
    } finally {
      child.kill("SIGKILL");
      await child.exited;
      await survivor.stop();
    }
  });
});
