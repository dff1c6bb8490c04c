// `bun bench/vacuum.ts` (not run by CI): whether periodic compaction should also give space back to the disk.
// 1. BENCH_DAYS (default 8) days of hourly cycles of the realistic mix over BENCH_N competitors (default 5) × 10
//    pages from bench/scale-site.ts's sites, an injected clock moved an hour per cycle, compacted after each day
//    with a retention of BENCH_KEEP_DAYS (default 2; what `rivals serve` does with 35, in less time): the file's
//    pages, free pages and largest tables day by day show whether the file keeps growing without a VACUUM, and
//    with what.
// 2. VACUUM of that database, then of copies grown to BENCH_GROW_MB (default 50,200) by copying its events under
//    other stream ids, half of them deleted first (the free pages a first compaction after months leaves): how
//    long it holds the database and, a local file being run on the calling thread, the event loop.
// 3. On each grown copy, auto_vacuum = INCREMENTAL (set by one VACUUM), a quarter of the copied events deleted:
//    what `PRAGMA incremental_vacuum` takes. BENCH_GROW_MB="" leaves out the grown copies (2's second part and 3).
import { copyFileSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Client, createClient } from "@libsql/client";
import { loadConfig } from "../src/config.ts";
import { compact } from "../src/engine/compaction/compact.ts";
import { runCycle } from "../src/engine/cycle/run.ts";
import { openServices } from "../src/services.ts";
import { seededBench } from "./scale.ts";

const N = Number(process.env.BENCH_N ?? 5);
const DAYS = Number(process.env.BENCH_DAYS ?? 8);
const KEEP = Number(process.env.BENCH_KEEP_DAYS ?? 2);
const GROW = (process.env.BENCH_GROW_MB ?? "50,200").split(",").map(Number).filter(Boolean);

const { dir, sites, env } = await seededBench("vacuum", N);
let now = new Date("2026-12-01T00:00:00Z");
const s = await openServices(loadConfig(env), () => now);
const db = s.database.client;
const orgs = (await db.execute("SELECT id FROM orgs ORDER BY id")).rows.map((r) => Number(r.id));
const mb = (b: number) => +(b / 1e6).toFixed(2);
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

async function pages(c: Client) {
  await c.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  const r = await c.execute(
    `SELECT (SELECT page_count FROM pragma_page_count()) AS pages, (SELECT freelist_count FROM pragma_freelist_count()) AS free,
            (SELECT page_size FROM pragma_page_size()) AS size, (SELECT COUNT(*) FROM events) AS events`,
  );
  const row = r.rows[0];
  const size = Number(row.size);
  return {
    file_mb: mb(Number(row.pages) * size),
    free_mb: mb(Number(row.free) * size),
    events: Number(row.events),
  };
}

/** Bytes of the largest tables and indexes (empty when the build has no dbstat). */
async function tables(): Promise<Record<string, number>> {
  try {
    const r = await db.execute(
      "SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8",
    );
    return Object.fromEntries(r.rows.map((x) => [String(x.name), mb(Number(x.bytes))]));
  } catch {
    return {};
  }
}

async function cycle(mode: string, n: number) {
  await fetch(`http://127.0.0.1:${sites.port}/__cycle?mode=${mode}&n=${n}`, { method: "POST" });
  for (const orgId of orgs) await runCycle(s, orgId, { trigger: "schedule" });
}

// 1. Days of cycles, each followed by the periodic compaction.
await cycle("200", 0);
const days: Record<string, unknown>[] = [];
for (let d = 1, n = 1; d <= DAYS; d++) {
  for (let h = 0; h < 24; h++, n++) {
    now = new Date(now.getTime() + 3_600_000);
    await cycle("mix", n);
  }
  const grown = await pages(db);
  const t0 = performance.now();
  const r = await compact(s, KEEP);
  const ms = Math.round(performance.now() - t0);
  days.push({
    day: d,
    before_compaction: grown,
    compaction_ms: ms,
    checks_deleted: r.checks_deleted,
    after: await pages(db),
    tables_mb: await tables(),
  });
}
s.close();
sites.stop();

/** Statements run on one connection: how long they took, and the longest the event loop stood still meanwhile
 * (a local database file is run on the calling thread, so in `rivals serve` every request waits as long). */
async function timed(path: string, ...sqls: string[]) {
  const a = createClient({ url: `file:${path}` });
  const before = await pages(a);
  let last = performance.now();
  let stall = 0;
  const tick = setInterval(() => {
    const t = performance.now();
    stall = Math.max(stall, t - last);
    last = t;
  }, 1);
  await Bun.sleep(20);
  const t0 = performance.now();
  // One call to the end: the client runs an `execute` of `PRAGMA incremental_vacuum` for one step (one page).
  await a.executeMultiple(sqls.map((q) => `${q};`).join("\n"));
  const ms = Math.round(performance.now() - t0);
  await Bun.sleep(20);
  clearInterval(tick);
  const auto = Number((await a.execute("PRAGMA auto_vacuum")).rows[0].auto_vacuum);
  const after = await pages(a);
  a.close();
  return {
    sql: sqls.join("; "),
    before,
    ms,
    event_loop_stall_ms: Math.round(stall),
    after,
    auto_vacuum: auto,
    load: load(),
  };
}

const file = join(dir, "vacuum.db");
const out: Record<string, unknown> = {
  machine: {
    cpu: readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1],
    cores: navigator.hardwareConcurrency,
  },
  competitors: N,
  keep_days: KEEP,
  load_after_cycles: load(),
  days,
};

// 2. VACUUM of the bench's database as it is, then of grown copies with half their events deleted.
let copies = 0;
/** A new copy of the bench's database (its own name: a closed client's connection may linger until collected). */
const fresh = () => {
  const copy = join(dir, `copy-${++copies}.db`);
  copyFileSync(file, copy);
  return copy;
};
out.vacuum_as_is = await timed(fresh(), "VACUUM");
const grown: unknown[] = [];
for (const target of GROW) {
  const copy = fresh();
  const c = createClient({ url: `file:${copy}` });
  for (let k = 1; statSync(copy).size < target * 1e6; k++)
    await c.execute({
      sql: `INSERT INTO events (org_id, stream_type, stream_id, stream_version, type, data, metadata, recorded_at)
            SELECT org_id, stream_type, stream_id || '~' || ?, stream_version, type, data, metadata, recorded_at
            FROM events WHERE stream_id NOT LIKE '%~%'`,
      args: [k],
    });
  await c.execute("DELETE FROM events WHERE position % 2 = 0 AND stream_id LIKE '%~%'");
  c.close();
  const full = await timed(copy, "VACUUM");
  // 3. auto_vacuum = INCREMENTAL takes one VACUUM on the connection that set it.
  const convert = await timed(copy, "PRAGMA auto_vacuum = INCREMENTAL", "VACUUM");
  const c3 = createClient({ url: `file:${copy}` });
  await c3.execute("DELETE FROM events WHERE position % 4 = 1 AND stream_id LIKE '%~%'");
  c3.close();
  const incremental = await timed(copy, "PRAGMA incremental_vacuum");
  grown.push({ target_mb: target, full, convert_to_incremental: convert, incremental });
}
out.grown = grown;
console.log(JSON.stringify(out, null, 2));
rmSync(dir, { recursive: true, force: true });
