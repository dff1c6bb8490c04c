// `npm run bench:instances` (not run by CI): one hourly cycle of BENCH_N competitors (default 1,000, in
// workspaces of 500) × BENCH_PAGES pages, checked by one `rivals serve` process and then by two, on one libSQL
// server (sqld), against bench/scale-site.ts's local sites (a child process) with the realistic mix of answers
// (~90% 304, 8% the same bytes, 2% changed) and BENCH_DELAY_MS between two requests to a host (default 1000, as in
// production). The workspaces are seeded by `bench/scale.ts --setup`; a first cycle (one process) takes every
// page's baseline. Between two runs the slot's leases are deleted, so the same hour's cycle is due again; each
// run starts its processes at once and ends when every workspace's cycle has finished.
//
// Prints, per run: the cycle's wall time (first cycle's start to last one's end, from the cycles table), each
// process's CPU seconds and peak RSS (from /proc, the whole process), the pages checked; then the speed-up of
// two processes over one on the same cycle.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config.ts";
import { openServices } from "../src/services.ts";
import { startSqld } from "../test/support/sqld.ts";
import { startSite } from "./scale.ts";

const root = resolve(import.meta.dir, "..");
const N = Number(process.env.BENCH_N ?? 1000);
const WORKSPACES = Math.ceil(N / 500);
const DELAY_MS = process.env.BENCH_DELAY_MS ?? "1000";
const LANES = process.env.BENCH_LANES ?? "48";
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;

interface ProcStats {
  cpuS: number;
  peakRssMb: number;
}

/** The process's CPU (user + system) and its peak resident memory, from /proc. */
function procStats(pid: number): ProcStats | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpuS = (Number(fields[11]) + Number(fields[12])) / TICKS;
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return { cpuS, peakRssMb: Math.round(Number(hwm) / 1024) };
  } catch {
    return undefined;
  }
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "rivals-bench-instances-"));
  const sqld = await startSqld(dir);
  const sites = await startSite();
  const env = {
    ...process.env,
    RIVALS_DB: sqld.url,
    RIVALS_FETCH_REWRITE: `*=http://127.0.0.1:${sites.port}`,
    RIVALS_FETCH_DELAY_MS: DELAY_MS,
    RIVALS_ARCHIVE_MONTHS: "0",
    RIVALS_SCHEDULER_JITTER_MS: "0",
    RIVALS_SCHEDULER_LANES: LANES,
    RIVALS_FREE_BRIEFS: "off",
    HOST: "127.0.0.1",
  };
  const t0 = performance.now();
  const setup = Bun.spawn([process.execPath, resolve(import.meta.dir, "scale.ts"), "--setup"], {
    env: { ...env, BENCH_N: String(N) },
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await setup.exited) !== 0) throw new Error("the setup failed");
  const setupS = (performance.now() - t0) / 1000;
  const s = await openServices(loadConfig({ RIVALS_DB: sqld.url, RIVALS_SCHEDULER: "off" }));
  const db = s.database.client;

  const run = async (label: string, processes: number, mode: string) => {
    await db.execute("DELETE FROM cycle_leases");
    await fetch(`http://127.0.0.1:${sites.port}/__cycle?mode=${mode}`, { method: "POST" });
    const after = Number((await db.execute("SELECT COALESCE(MAX(id), 0) AS id FROM cycles")).rows[0].id);
    const procs = await Promise.all(
      Array.from({ length: processes }, async () =>
        Bun.spawn([process.execPath, join(root, "src/main.ts"), "serve"], {
          cwd: root,
          env: { ...env, PORT: String(await freePort()) },
          stdout: "ignore",
          stderr: "inherit",
        }),
      ),
    );
    const peaks = procs.map(() => ({ cpuS: 0, peakRssMb: 0 }));
    const sample = () =>
      procs.forEach((p, i) => {
        const st = procStats(p.pid);
        if (st) peaks[i] = st;
      });
    const deadline = Date.now() + 2 * 3_600_000;
    for (;;) {
      sample();
      const r = await db.execute({
        sql: `SELECT COUNT(*) AS n, MIN(started_at) AS a, MAX(finished_at) AS b,
                SUM(json_extract(summary, '$.pages_checked')) AS pages,
                SUM(json_extract(summary, '$.competitors_checked')) AS comps
              FROM cycles WHERE id > ? AND finished_at IS NOT NULL`,
        args: [after],
      });
      const row = r.rows[0];
      if (Number(row.n) >= WORKSPACES) {
        for (const p of procs) p.kill();
        await Promise.all(procs.map((p) => p.exited));
        const wall = (Date.parse(String(row.b)) - Date.parse(String(row.a))) / 1000;
        return {
          label,
          processes,
          competitors_checked: Number(row.comps),
          pages_checked: Number(row.pages),
          wall_s: +wall.toFixed(1),
          per_process: peaks.map((p) => ({ cpu_s: +p.cpuS.toFixed(1), peak_rss_mb: p.peakRssMb })),
        };
      }
      if (Date.now() > deadline) throw new Error(`${label}: the cycle did not finish`);
      await Bun.sleep(250);
    }
  };

  const first = await run("first cycle (every page a baseline)", 1, "200");
  const one = await run("one instance, hourly mix", 1, "mix");
  const two = await run("two instances, hourly mix", 2, "mix");
  console.log(
    JSON.stringify(
      {
        machine: {
          cpu: readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1],
          cores: navigator.hardwareConcurrency,
        },
        competitors: N,
        workspaces: WORKSPACES,
        pages_per_competitor: Number(process.env.BENCH_PAGES ?? 10),
        fetch_delay_ms: Number(DELAY_MS),
        lanes_per_instance: Number(LANES),
        setup_s: +setupS.toFixed(1),
        runs: [first, one, two],
        speed_up: +(one.wall_s / two.wall_s).toFixed(2),
      },
      null,
      2,
    ),
  );
  s.close();
  sites.stop();
  await sqld.stop();
  rmSync(dir, { recursive: true, force: true });
}

await main();
