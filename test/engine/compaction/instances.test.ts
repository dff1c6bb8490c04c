// Compaction by two real `rivals serve` processes on one libSQL server (sqld). The workspace's cycles ran more
// than COMPACT_DAYS ago (an earlier clock) and once lately; both processes start at once with compaction due, so
// both look for it at the same moment: exactly one compacts (one claim row, its holder that process, one report,
// the other logs none), the old checks and cycle records are gone but the ones the read side needs, and what the
// read API and the tools serve is the same as a process that does not compact served before. `rivals compact
// --vacuum` refuses on sqld, which does not run VACUUM, before it deletes anything. Then two instances (each its
// own Services and connection) with their loops looking every 10 ms and a clock moved a day at a time: each period
// one compaction, which drops that period's newly due checks, and one claim row.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, spyOn, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createClient } from "@libsql/client";
import { loadConfig } from "../../../src/config.ts";
import { createApiKey } from "../../../src/domain/apiKeys.ts";
import { COMPACT_DAYS } from "../../../src/engine/compaction/compact.ts";
import { startCompactionLoop } from "../../../src/engine/compaction/periodic.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { instanceOf } from "../../../src/engine/instance.ts";
import { openServices } from "../../../src/services.ts";
import { runProcess } from "../../e2e/harness.ts";
import { startCluster } from "../../support/cluster.ts";
import { type HostSites, seedWorkspace, serveHosts } from "../../support/host-sites.ts";
import { body, rawPost, toolsCall } from "../../support/mcp-helpers.ts";
import { type ServeProcess, startServe } from "../../support/serve-process.ts";
import { type Sqld, startSqld } from "../../support/sqld.ts";

setDefaultTimeout(120_000);

const root = resolve(import.meta.dir, "..", "..", "..");
const DAY = 86_400_000;
const BASE_URL = "https://rivals.test";
const N = 3;
/** Hourly cycles run more than COMPACT_DAYS ago; the second finds a new price on every pricing page. */
const OLD_CYCLES = 6;

let dir: string;
let sqld: Sqld;
let site: HostSites;
let token: string;
let price = 29;
const ids: number[] = [];
const env = () => ({
  RIVALS_DB: sqld.url,
  RIVALS_BASE_URL: BASE_URL,
  RIVALS_FETCH_REWRITE: site.rewrite,
  RIVALS_FETCH_DELAY_MS: "0",
  RIVALS_ARCHIVE_MONTHS: "0",
  RIVALS_SCHEDULER: "off",
});

function page(host: string, path: string): Response {
  const main =
    path === "/pricing"
      ? `<h1>Pricing</h1><section><h2>Team</h2><p>$${price} per month</p><ul><li>Unlimited projects</li></ul></section>`
      : `<h1>${host}</h1><p>Project planning for small teams.</p>`;
  return new Response(
    `<!doctype html><html><head><title>${host}</title></head><body><main>${main}</main></body></html>`,
    { headers: { "content-type": "text/html; charset=utf-8" } },
  );
}

/** A `rivals serve` process on this test's database. */
const serve = (extra: Record<string, string>) => startServe({ ...env(), ...extra });

async function stop(p: ServeProcess): Promise<void> {
  p.proc.kill("SIGTERM");
  await p.proc.exited;
}

/** What a reader is served: the read API's lists and each competitor, its signals, and the tools. */
async function served(base: string): Promise<Record<string, unknown>> {
  const headers = { authorization: `Bearer ${token}` };
  const out: Record<string, unknown> = {};
  const paths = ["/api/v1/competitors", "/api/v1/signals", "/api/v1/digests"];
  for (const id of ids) paths.push(`/api/v1/competitors/${id}`, `/api/v1/signals?competitor_id=${id}`);
  for (const path of paths) {
    const r = await fetch(`${base}${path}`, { headers });
    expect({ path, status: r.status }).toEqual({ path, status: 200 });
    out[path] = await r.json();
  }
  const tools: [string, object][] = [
    ["what_changed", {}],
    ["get_workspace", {}],
    ...ids.map((id): [string, object] => ["get_competitor", { competitor_id: id }]),
  ];
  for (const [name, args] of tools) {
    const r = await rawPost(base, toolsCall(name, args), headers);
    out[`${name} ${JSON.stringify(args)}`] = body(((await r.json()) as { result: unknown }).result);
  }
  return out;
}

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const c = createClient({ url: sqld.url });
  try {
    return (await c.execute(sql)).rows.map((r) => ({ ...r }));
  } finally {
    c.close();
  }
}
const count = async (sql: string) => Number((await rows(sql))[0].n);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-compact-instances-"));
  sqld = await startSqld(dir);
  site = serveHosts({ page });
  // The workspace's first cycles ran COMPACT_DAYS + 5 days ago, its last two days ago.
  const clock = { now: new Date(Date.now() - (COMPACT_DAYS + 5) * DAY) };
  const s = await openServices(loadConfig(env()), () => clock.now);
  const orgId = await seedWorkspace(s, {
    slug: "acme",
    websites: Array.from({ length: N }, (_, i) => `https://rival-${i}.compaction.test`),
    pages: [
      ["/", "home"],
      ["/pricing", "pricing"],
    ],
    cadence: "hourly",
  });
  for (let i = 0; i < OLD_CYCLES; i++) {
    clock.now = new Date(clock.now.getTime() + 3_600_000);
    if (i === 1) price = 39;
    const summary = await runCycle(s, orgId, { trigger: "schedule" });
    expect(summary.competitors_checked).toBe(N);
    if (i === 1) expect(summary.signals_created).toBe(N);
  }
  clock.now = new Date(Date.now() - 2 * DAY);
  await runCycle(s, orgId, { trigger: "schedule" });
  token = (await createApiKey(s.store, "acme", "compaction", ["read"])).token;
  const r = await s.database.client.execute({
    sql: "SELECT id FROM competitors WHERE org_id = ? ORDER BY id",
    args: [orgId],
  });
  ids.push(...r.rows.map((row) => Number(row.id)));
  s.close();
});
afterAll(async () => {
  site?.stop();
  await sqld?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("compaction by two processes on one sqld", () => {
  test("both look at once; one compacts, once; what is dropped is gone and what is served is unchanged", async () => {
    const checks = "SELECT COUNT(*) AS n FROM events WHERE type = 'CompetitorChecked'";
    const cycles = "SELECT COUNT(*) AS n FROM cycles";
    expect(await count(checks)).toBe(N * (OLD_CYCLES + 1));
    expect(await count(cycles)).toBe(OLD_CYCLES + 1);

    // sqld does not run VACUUM: `rivals compact --vacuum` refuses before it compacts anything.
    const refused = await runProcess([process.execPath, "src/main.ts", "compact", "--vacuum"], {
      cwd: root,
      env: { ...process.env, ...env() },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("a libSQL server does not run VACUUM");
    expect(await count(checks)).toBe(N * (OLD_CYCLES + 1));

    // What a process that does not compact serves.
    const reader = await serve({ RIVALS_COMPACT_HOURS: "0" });
    const before = await served(reader.base);
    await stop(reader);
    expect(JSON.stringify(before)).toContain("$39");
    expect(await count("SELECT COUNT(*) AS n FROM maintenance_claims")).toBe(0);

    const both = await Promise.all([
      serve({ RIVALS_COMPACT_HOURS: "1" }),
      serve({ RIVALS_COMPACT_HOURS: "1" }),
    ]);
    try {
      const reports = () =>
        both.flatMap((p, i) =>
          p
            .out()
            .split("\n")
            .filter((l) => l.includes('"compaction"'))
            .map((l) => ({ i, line: JSON.parse(l) })),
        );
      const deadline = Date.now() + 30_000;
      while (reports().length === 0 && Date.now() < deadline) await Bun.sleep(50);
      // Each looks as it starts, a moment after it answers: a second report would be written well within this.
      await Bun.sleep(2000);
      const logged = reports();
      expect(logged).toHaveLength(1);
      const [{ i, line }] = logged;
      expect(line.compaction).toBeDefined();

      // One claim, held by the process that compacted, for an hour.
      const claims = await rows("SELECT task, holder, expires_at FROM maintenance_claims");
      expect(claims).toHaveLength(1);
      expect(String(claims[0].holder).split(":")[1]).toBe(String(both[i].proc.pid));
      const held = Date.parse(String(claims[0].expires_at)) - Date.now();
      expect(held).toBeGreaterThan(50 * 60_000);
      expect(held).toBeLessThanOrEqual(3_600_000);

      // Each competitor keeps its newest check and the one that found the new price; the cycles but the last.
      const report = line.compaction;
      expect(report.checks_deleted).toBe(N * (OLD_CYCLES + 1) - 2 * N);
      expect(await count(checks)).toBe(2 * N);
      const kept = await rows(`SELECT json_extract(data, '$.competitor_id') AS c, COUNT(*) AS n,
          SUM(json_extract(data, '$.changed') > 0) AS changed FROM events
          WHERE type = 'CompetitorChecked' GROUP BY c ORDER BY c`);
      expect(kept).toEqual(ids.map((c) => ({ c, n: 2, changed: 1 })));
      expect(report.cycles_deleted).toBe(OLD_CYCLES);
      expect(await count(cycles)).toBe(1);
      expect(
        await count(
          `SELECT COUNT(*) AS n FROM events WHERE type IN ('CycleStarted', 'CycleFinished')
           AND json_extract(data, '$.cycle_id') NOT IN (SELECT id FROM cycles)`,
        ),
      ).toBe(0);

      // Both serve what was served before.
      for (const p of both) expect(await served(p.base)).toEqual(before);
      for (const p of both) expect(p.out()).not.toContain('"level":"error"');
    } finally {
      await Promise.all(both.map(stop));
    }
  });
});

describe("compaction by two instances on one sqld, period after period", () => {
  test("with a moved clock, each period's compaction runs once, by one of them, and drops that period's due", async () => {
    const clock = { now: new Date("2026-01-05T00:00:00Z") };
    const cluster = await startCluster(
      2,
      {
        RIVALS_FETCH_REWRITE: site.rewrite,
        RIVALS_FETCH_DELAY_MS: "0",
        RIVALS_ARCHIVE_MONTHS: "0",
        RIVALS_COMPACT_HOURS: "24",
      },
      () => clock.now,
    );
    const [a, b] = cluster.instances.map((i) => i.services);
    const logged: string[] = [];
    const log = spyOn(console, "log").mockImplementation((line: unknown) => {
      if (String(line).includes('"compaction"')) logged.push(String(line));
    });
    const loops: { stop(): Promise<void> }[] = [];
    try {
      const orgId = await seedWorkspace(a, {
        slug: "periods",
        websites: Array.from({ length: N }, (_, i) => `https://period-${i}.compaction.test`),
        pages: [["/", "home"]],
        cadence: "daily",
      });
      // A cycle a day for three days, then COMPACT_DAYS later: each day's check falls due a day after the other.
      for (let d = 0; d < 3; d++) {
        clock.now = new Date(clock.now.getTime() + DAY);
        await runCycle(a, orgId, { trigger: "schedule" });
      }
      const checks = async () =>
        Number(
          (
            await a.database.client.execute(
              "SELECT COUNT(*) AS n FROM events WHERE type = 'CompetitorChecked'",
            )
          ).rows[0].n,
        );
      expect(await checks()).toBe(3 * N);
      clock.now = new Date(clock.now.getTime() + (COMPACT_DAYS - 2) * DAY + 60_000);
      await runCycle(a, orgId, { trigger: "schedule" });
      expect(await checks()).toBe(4 * N);

      // Both look every 10 ms from here on.
      loops.push(...[a, b].map((s) => startCompactionLoop(s, { checkMs: 10 })));
      const names = new Set([instanceOf(a), instanceOf(b)]);
      // Each period: the first day's checks, then the second's, then the third's fall due; nothing the fourth.
      for (const [period, deleted] of [
        [1, N],
        [2, N],
        [3, N],
        [4, 0],
      ]) {
        const deadline = Date.now() + 20_000;
        while (logged.length < period && Date.now() < deadline) await Bun.sleep(10);
        // Some twenty looks each after the period's compaction: none compacts again.
        await Bun.sleep(300);
        expect(logged).toHaveLength(period);
        const report = JSON.parse(logged[period - 1]).compaction;
        expect(report.checks_deleted).toBe(deleted);
        expect(await checks()).toBe(4 * N - Math.min(period, 3) * N);
        const claim = await a.database.client.execute("SELECT holder, expires_at FROM maintenance_claims");
        expect(claim.rows).toHaveLength(1);
        expect(names.has(String(claim.rows[0].holder))).toBe(true);
        expect(String(claim.rows[0].expires_at)).toBe(new Date(clock.now.getTime() + DAY).toISOString());
        // Past the claim: the next period.
        clock.now = new Date(clock.now.getTime() + DAY + 1000);
      }
    } finally {
      for (const l of loops) await l.stop();
      log.mockRestore();
      await cluster.close();
    }
  });
});
