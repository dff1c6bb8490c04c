// `bun bench/storage.ts` (not run by CI): what a competitor-month of hourly cycles keeps on disk. BENCH_N
// competitors (default 5) × 10 pages of ~100 KB from bench/scale-site.ts's sites (a child process; fetch delay
// 0), seeded by `bench/scale.ts --setup`; a first cycle takes the baselines, then BENCH_CYCLES (default 720, a
// month) hourly cycles of the realistic mix (~90% 304, 8% the same bytes, 2% a changed price and paragraph), an
// injected clock moved an hour per cycle. Prints the database's used bytes (its pages in use, WAL checkpointed)
// along the way and at the end, per table where the build has `dbstat`, the events by type, and the bytes per
// competitor-month; then the same after `rivals compact` (its default retention, and one day: the floor).
import { readFileSync, rmSync } from "node:fs";
import { loadConfig } from "../src/config.ts";
import { COMPACT_DAYS, compact } from "../src/engine/compaction/compact.ts";
import { runCycle } from "../src/engine/cycle/run.ts";
import { openServices } from "../src/services.ts";
import { seededBench } from "./scale.ts";

const N = Number(process.env.BENCH_N ?? 5);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 720);

const { dir, sites, env } = await seededBench("storage", N);
let now = new Date("2026-12-01T00:00:00Z");
const s = await openServices(loadConfig(env), () => now);
const db = s.database.client;
const orgs = (await db.execute("SELECT id FROM orgs ORDER BY id")).rows.map((r) => Number(r.id));

async function used() {
  await db.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  const r = await db.execute(
    `SELECT (SELECT page_count FROM pragma_page_count()) AS pages, (SELECT freelist_count FROM pragma_freelist_count()) AS free,
            (SELECT page_size FROM pragma_page_size()) AS size, (SELECT COUNT(*) FROM events) AS events`,
  );
  const row = r.rows[0];
  return { bytes: (Number(row.pages) - Number(row.free)) * Number(row.size), events: Number(row.events) };
}

/** Bytes per table and index, largest first (empty when the build has no dbstat). */
async function tables(): Promise<Record<string, number>> {
  try {
    const r = await db.execute(
      "SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 15",
    );
    return Object.fromEntries(r.rows.map((x) => [String(x.name), Number(x.bytes)]));
  } catch {
    return {};
  }
}

async function eventsByType(): Promise<Record<string, number>> {
  const r = await db.execute("SELECT type, COUNT(*) AS n FROM events GROUP BY type ORDER BY n DESC");
  return Object.fromEntries(r.rows.map((x) => [String(x.type), Number(x.n)]));
}

const answers: Record<string, number> = {};
async function cycle(mode: string, n: number) {
  await fetch(`http://127.0.0.1:${sites.port}/__cycle?mode=${mode}&n=${n}`, { method: "POST" });
  for (const orgId of orgs) await runCycle(s, orgId, { trigger: "schedule" });
  const st = (await (await fetch(`http://127.0.0.1:${sites.port}/__stats`)).json()) as Record<string, number>;
  for (const [k, v] of Object.entries(st)) answers[k] = (answers[k] ?? 0) + v;
}

const start = await used();
const t0 = performance.now();
await cycle("200", 0);
const afterFirst = await used();
const along: { cycles: number; bytes: number; events: number }[] = [];
for (let i = 1; i <= CYCLES; i++) {
  now = new Date(now.getTime() + 3_600_000);
  await cycle("mix", i);
  if (i % 72 === 0 || i === CYCLES) along.push({ cycles: i, ...(await used()) });
}
const end = await used();
const wall = (performance.now() - t0) / 1000;
const month = (b: number) => +((((b - start.bytes) / N) * (720 / CYCLES)) / 1e6).toFixed(3);
const report: Record<string, unknown> = {
  machine: {
    cpu: readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1],
    cores: navigator.hardwareConcurrency,
    load: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
  },
  competitors: N,
  pages_per_competitor: 10,
  hourly_cycles: CYCLES,
  wall_s: +wall.toFixed(1),
  answers,
  bytes: { before_first_cycle: start.bytes, after_first_cycle: afterFirst.bytes, end: end.bytes },
  along,
  per_competitor_month_mb: month(end.bytes),
  first_cycle_per_competitor_mb: +((afterFirst.bytes - start.bytes) / N / 1e6).toFixed(3),
  events: await eventsByType(),
  tables: await tables(),
};
const compacted = await compact(s, COMPACT_DAYS);
report[`after compact (${COMPACT_DAYS} days)`] = { ...compacted, used_bytes: (await used()).bytes };
const floor = await compact(s, 1, { vacuum: true });
report["after compact --days 1 --vacuum"] = {
  ...floor,
  used_bytes: (await used()).bytes,
  per_competitor_month_mb: month((await used()).bytes),
  events: await eventsByType(),
  tables: await tables(),
};
console.log(JSON.stringify(report, null, 2));
s.close();
sites.stop();
rmSync(dir, { recursive: true, force: true });
