// `bun bench/page-cost.ts` (not run by CI): where a page's CPU goes in a cycle whose every page answers alike.
// BENCH_N competitors (default 100) × BENCH_PAGES pages (default 10) from bench/scale-site.ts's sites (a child
// process), fetch delay 0, seeded by `bench/scale.ts --setup`; a first cycle takes the baselines, then one cycle
// per kind in BENCH_KINDS (default 304,200: every page 304, every page the same bytes) runs under JSC's sampling
// profiler (BENCH_PROFILE=0: without it). Prints each kind's CPU per page (this process, all threads), the peak
// RSS so far and the profile's functions with the most samples at the top of the stack (BENCH_TOP, default 25).
// A kind named again (304,304) is a cycle of a process that has run one already: printed as `304#2`.
// BENCH_LANES: competitors checked at once (default 8).
import { profile } from "bun:jsc";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { loadConfig } from "../src/config.ts";
import { runCycle } from "../src/engine/cycle/run.ts";
import { openServices } from "../src/services.ts";
import { seededBench } from "./scale.ts";

const N = Number(process.env.BENCH_N ?? 100);
const KINDS = (process.env.BENCH_KINDS ?? "304,200").split(",");
const TOP = Number(process.env.BENCH_TOP ?? 25);
// BENCH_PROFILE=0 runs the cycles without the sampling profiler (whose kept samples grow the heap it collects)
const PROFILE = process.env.BENCH_PROFILE !== "0";
/** Competitors checked at once (the scheduler's default is 48). */
const LANES = Number(process.env.BENCH_LANES ?? 8);

const { dir, sites, env } = await seededBench("cost", N);
const s = await openServices(loadConfig(env));
const orgs = (await s.database.client.execute("SELECT id FROM orgs ORDER BY id")).rows.map((r) =>
  Number(r.id),
);

/** CPU seconds per thread name (/proc/self/task), to see what runs off the main thread. */
function threads(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "#");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    } catch {}
  }
  return out;
}

/** The process's peak resident set so far (`VmHWM`), in MB. */
const peakRss = (): number =>
  Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024);

const cycle = async (mode: string) => {
  await fetch(`http://127.0.0.1:${sites.port}/__cycle?mode=${mode}`, { method: "POST" });
  let pages = 0;
  for (const orgId of orgs)
    pages += (await runCycle(s, orgId, { trigger: "operator", concurrency: LANES })).pages_checked;
  return pages;
};

await cycle("200");
const out: Record<string, unknown> = {};
for (const [i, kind] of KINDS.entries()) {
  const seen = KINDS.slice(0, i).filter((k) => k === kind).length;
  Bun.gc(true);
  const c0 = process.cpuUsage();
  const t0 = threads();
  let pages = 0;
  const run = async () => {
    pages = await cycle(kind);
  };
  let p = { functions: "", bytecodes: "" };
  if (PROFILE) p = await profile(run, 200);
  else await run();
  const cpu = process.cpuUsage(c0);
  const t1 = threads();
  const perThread = Object.fromEntries(
    [...t1]
      .map(([k, v]) => [k, +(((v - (t0.get(k) ?? 0)) * 1000) / Math.max(1, pages)).toFixed(3)] as const)
      .filter(([, v]) => v > 0),
  );
  out[seen ? `${kind}#${seen + 1}` : kind] = {
    thread_cpu_ms_per_page: perThread,
    pages,
    cpu_ms_per_page: +((cpu.user + cpu.system) / 1000 / Math.max(1, pages)).toFixed(3),
    peak_rss_mb: peakRss(),
    top: p.functions.split("\n").slice(0, TOP + 2),
    bytecodes: p.bytecodes.split("\n").slice(0, 12),
  };
}
console.log(JSON.stringify(out, null, 2));
s.close();
sites.stop();
rmSync(dir, { recursive: true, force: true });
