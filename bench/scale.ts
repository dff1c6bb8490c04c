// `npm run bench:scale` (not run by CI): the engine at scale, as `rivals serve` runs it. A local site server in a
// child process (bench/scale-site.ts) answers for BENCH_N competitors (default 1,000; one host each) ×
// BENCH_PAGES pages (default 10, ~BENCH_PAGE_KB KB each), in workspaces of 500 with an hourly cadence. This
// process is the service: the database, the read API listening, and the real scheduler (an injected clock moved
// an hour per cycle; every workspace's cycle runs through the scheduler's leases, lanes and per-host pauses of
// BENCH_DELAY_MS, default 1000 as in production; BENCH_FIRST_DELAY_MS, the first cycle's alone). The workspaces
// are set up by a child process (`--setup`), so this process holds none of what the setup allocated.
//
// Cycles: 1. the first (every page a baseline); with BENCH_CALIBRATE (default on) one cycle of each answer alone
// — every page 304, every page the same bytes again (200), every page changed (a price and a paragraph) — for
// the CPU per page of each kind (BENCH_KINDS chooses among them); then BENCH_CYCLES (default 3) hourly cycles of the realistic mix (~90% 304, 8%
// unchanged 200, 2% changed), the first of them while GET /api/v1/signals is asked BENCH_API_RPS times a second
// (default 50, each request sent on time whether the one before answered; p50, p99), or with BENCH_API_RPS=0 one
// request after another as fast as the process answers them, which takes every idle moment of its main thread. CPU is this process's (main thread and the extraction Worker pool); peak RSS is sampled every 20 ms per
// cycle; the database's size is its used pages (WAL included). Every competitor's careers page names a board on one
// job board host: RIVALS_SHARED_HOST_HOURLY sets that host's hourly share, so its rotation shows at a few hundred
// competitors. A month of hourly cycles is the size after the
// first cycle plus 720 times the mean growth of a mixed cycle (extrapolated, said so in the output).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createApiKey, parseScopes } from "../src/domain/apiKeys.ts";
import type { CycleSummary } from "../src/engine/cycle/run.ts";
import { Scheduler } from "../src/engine/schedule/scheduler.ts";
import { openServices, type Services } from "../src/services.ts";
import { seedWorkspace } from "../test/support/host-sites.ts";
import { SCALE_PAGES } from "./scale-site.ts";

const N = Number(process.env.BENCH_N ?? 1000);
const PER_WORKSPACE = 500;
const WORKSPACES = Math.ceil(N / PER_WORKSPACE);
const DELAY_MS = process.env.BENCH_DELAY_MS ?? "1000";
/** The pause of the first cycle alone, when set. Its first snapshots are CPU-bound at thousands of competitors,
 * and a never-checked source on a host every competitor shares is always due: 10,000 boards on one host at a
 * second each would hold the first cycle for 2.8 hours. The cycles after it run at BENCH_DELAY_MS. */
const FIRST_DELAY_MS = process.env.BENCH_FIRST_DELAY_MS;
const MIXED = Number(process.env.BENCH_CYCLES ?? 3);
const CALIBRATE = process.env.BENCH_CALIBRATE !== "0";
/** The calibration cycles run (BENCH_KINDS=304,200 leaves out the costly every-page-changed one). */
const KINDS = (process.env.BENCH_KINDS ?? "304,200,changed").split(",");
/** Seconds of quiet before each cycle after the first (default 0). Cycles of a workspace are an hour apart in
 * production, and the extraction pool's workers end after a minute without a task: BENCH_GAP_S=65 measures each
 * cycle with the workers it would start with then, not with the ones the cycle before grew. */
const GAP_S = Number(process.env.BENCH_GAP_S ?? 0);
/** Requests a second to GET /api/v1/signals during the first mixed cycle; 0: one after another, back to back. */
const API_RPS = Number(process.env.BENCH_API_RPS ?? 50);
const slug = (w: number) => `scale${w}`;
const site = (i: number) => `https://s${i}.scale.example`;

/** The workspaces: competitors by import, each one's research recorded with its pages as sources, hourly. */
async function setup(s: Services): Promise<void> {
  for (let w = 0; w < WORKSPACES; w++) {
    const first = w * PER_WORKSPACE;
    await seedWorkspace(s, {
      slug: slug(w),
      websites: Array.from({ length: Math.min(PER_WORKSPACE, N - first) }, (_, k) => site(first + k)),
      pages: SCALE_PAGES.map(([p, , kind]) => [p, kind] as const),
      cadence: "hourly",
    });
  }
}

export async function startSite(): Promise<{ port: number; stop(): void }> {
  const proc = Bun.spawn([process.execPath, resolve(import.meta.dir, "scale-site.ts")], {
    stdout: "pipe",
    stderr: "inherit",
    env: process.env,
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the scale site did not start");
    text += new TextDecoder().decode(value);
  }
  return { port: Number(text.trim()), stop: () => proc.kill() };
}

/** A temp database seeded by `scale.ts --setup` with BENCH_N competitors, the scale site serving their pages,
 * and the environment a bench opens its services with (scheduler off, no pause, no archive). */
export async function seededBench(name: string, n: number) {
  const dir = mkdtempSync(join(tmpdir(), `rivals-bench-${name}-`));
  const sites = await startSite();
  const env = {
    RIVALS_DB: `file:${join(dir, `${name}.db`)}`,
    RIVALS_FETCH_REWRITE: `*=http://127.0.0.1:${sites.port}`,
    RIVALS_FETCH_DELAY_MS: "0",
    RIVALS_ARCHIVE_MONTHS: "0",
    RIVALS_SCHEDULER: "off",
  };
  const setup = Bun.spawn([process.execPath, resolve(import.meta.dir, "scale.ts"), "--setup"], {
    env: { ...process.env, ...env, BENCH_N: String(n) },
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await setup.exited) !== 0) throw new Error("the setup failed");
  return { dir, sites, env };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "rivals-bench-scale-"));
  const sites = await startSite();
  const env = {
    RIVALS_DB: `file:${join(dir, "scale.db")}`,
    RIVALS_FETCH_REWRITE: `*=http://127.0.0.1:${sites.port}`,
    RIVALS_FETCH_DELAY_MS: DELAY_MS,
    RIVALS_ARCHIVE_MONTHS: "0",
    RIVALS_RATE_LIMIT: "1000000",
    RIVALS_SCHEDULER: "off",
    RIVALS_SCHEDULER_JITTER_MS: "0",
    // A shared host's hourly share, to see its rotation at fewer competitors than the default share needs.
    ...(process.env.RIVALS_SHARED_HOST_HOURLY
      ? { RIVALS_SHARED_HOST_HOURLY: process.env.RIVALS_SHARED_HOST_HOURLY }
      : {}),
    PORT: "0",
  };
  const t0 = performance.now();
  const setupProc = Bun.spawn([process.execPath, import.meta.path, "--setup"], {
    env: { ...process.env, ...env },
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await setupProc.exited) !== 0) throw new Error("the setup failed");
  const setupS = (performance.now() - t0) / 1000;
  console.error(`setup: ${N} competitors in ${WORKSPACES} workspaces, ${setupS.toFixed(1)} s`);

  let now = new Date("2026-12-01T00:00:00Z");
  let finished: { summary: CycleSummary | Error }[] = [];
  let allDone: (() => void) | undefined;
  /** The service on the database with a pause of `delayMs` between two requests to a host: its scheduler, and
   * the read API listening. */
  const serve = async (delayMs: string) => {
    const s = await openServices(loadConfig({ ...env, RIVALS_FETCH_DELAY_MS: delayMs }), () => now);
    const key = (await createApiKey(s.store, slug(0), "bench", parseScopes(undefined))).token;
    const { app } = createApp(s);
    app.listen({ port: 0, hostname: "127.0.0.1" });
    const scheduler = new Scheduler(s, {
      clock: () => now,
      jitterMs: 0,
      pattern: "0 0 1 1 *",
      onCycle: (_org, _slot, summary) => {
        finished.push({ summary });
        if (finished.length === WORKSPACES) allDone?.();
      },
    });
    return { s, key, app, base: `http://127.0.0.1:${app.server!.port}`, scheduler };
  };
  let service = await serve(FIRST_DELAY_MS ?? DELAY_MS);
  const stop = async () => {
    await service.scheduler.stop();
    await service.app.stop(true);
    service.s.close();
  };

  const used = async () => {
    const r = await service.s.database.client.execute(
      "SELECT (SELECT page_count FROM pragma_page_count()) AS pages, (SELECT freelist_count FROM pragma_freelist_count()) AS free, (SELECT page_size FROM pragma_page_size()) AS size, (SELECT COUNT(*) FROM events) AS events",
    );
    const row = r.rows[0];
    return {
      bytes: (Number(row.pages) - Number(row.free)) * Number(row.size),
      events: Number(row.events),
    };
  };

  let rssPeak = 0;
  /** What the process held when its RSS peaked: the main thread's heap, and memory outside it. */
  let atPeak: NodeJS.MemoryUsage | undefined;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > rssPeak) {
      rssPeak = m.rss;
      atPeak = m;
    }
  }, 20);

  let cyclesRun = 0;
  const cycle = async (label: string, mode: string, hammer = false) => {
    if (cyclesRun++ > 0 && GAP_S > 0) await Bun.sleep(GAP_S * 1000);
    now = new Date(now.getTime() + 3_600_000);
    await fetch(`http://127.0.0.1:${sites.port}/__cycle?mode=${mode}`, { method: "POST" });
    Bun.gc(true);
    atPeak = process.memoryUsage();
    rssPeak = atPeak.rss;
    const before = await used();
    finished = [];
    const done = new Promise<void>((r) => {
      allDone = r;
    });
    const cpu0 = process.cpuUsage();
    const w0 = performance.now();
    const load0 = loadavg()[0];
    let loadMax = load0;
    // A long cycle says how far it is every minute, so a run cut short still shows its pace.
    const progress = setInterval(async () => {
      loadMax = Math.max(loadMax, loadavg()[0]);
      const so = await fetch(`http://127.0.0.1:${sites.port}/__stats`)
        .then((r) => r.json())
        .catch(() => ({}));
      console.error(
        JSON.stringify({
          cycle: label,
          elapsed_s: Math.round((performance.now() - w0) / 1000),
          answers_so_far: so,
          cycles_done: finished.length,
          rss_mb: Math.round(process.memoryUsage().rss / 1e6),
          peak_rss_mb: Math.round(rssPeak / 1e6),
          load_1min: +loadavg()[0].toFixed(2),
        }),
      );
    }, 60_000);
    let running = true;
    const lat: number[] = [];
    const ask = async () => {
      const q0 = performance.now();
      const res = await fetch(`${service.base}/api/v1/signals?per_page=50`, {
        headers: { authorization: `Bearer ${service.key}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`signals answered ${res.status}`);
      lat.push(performance.now() - q0);
    };
    const asking = !hammer
      ? Promise.resolve()
      : API_RPS > 0
        ? (async () => {
            // Open loop: a request every 1/API_RPS s from the start, late answers or not (a slow answer is
            // measured, not hidden by the next request waiting for it).
            const sent: Promise<void>[] = [];
            const t0 = performance.now();
            for (let i = 0; running; i++) {
              const due = t0 + (i * 1000) / API_RPS - performance.now();
              if (due > 0) await Bun.sleep(due);
              if (running) sent.push(ask());
            }
            await Promise.all(sent);
          })()
        : (async () => {
            while (running) await ask();
          })();
    await service.scheduler.tick();
    await done;
    clearInterval(progress);
    loadMax = Math.max(loadMax, loadavg()[0]);
    running = false;
    await asking;
    const wall = (performance.now() - w0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const after = await used();
    const answered = (await (await fetch(`http://127.0.0.1:${sites.port}/__stats`)).json()) as Record<
      string,
      number
    >;
    const sums = finished.map((f) => {
      if (f.summary instanceof Error) throw f.summary;
      return f.summary;
    });
    const total = (k: keyof CycleSummary) => sums.reduce((n, x) => n + Number(x[k] ?? 0), 0);
    const pages = total("pages_checked");
    const result = {
      label,
      pages,
      answers: answered,
      pages_not_modified: total("pages_not_modified"),
      pages_changed: total("pages_changed"),
      pages_baseline: total("pages_baseline"),
      pages_failed: total("pages_failed"),
      pages_due_later: total("pages_due_later"),
      signals_created: total("signals_created"),
      wall_s: +wall.toFixed(1),
      cpu_ms_per_page: +((cpu.user + cpu.system) / 1000 / Math.max(1, pages)).toFixed(3),
      peak_rss_mb: Math.round(rssPeak / 1e6),
      at_peak_mb: atPeak && {
        heap_used: Math.round(atPeak.heapUsed / 1e6),
        heap_total: Math.round(atPeak.heapTotal / 1e6),
        external: Math.round(atPeak.external / 1e6),
        array_buffers: Math.round(atPeak.arrayBuffers / 1e6),
      },
      db_growth_bytes: after.bytes - before.bytes,
      events_per_competitor: +((after.events - before.events) / N).toFixed(2),
      load_average_1min: {
        start: +load0.toFixed(2),
        max: +loadMax.toFixed(2),
        end: +loadavg()[0].toFixed(2),
      },
      ...(hammer
        ? {
            signals_api: {
              rate: API_RPS > 0 ? `${API_RPS} a second` : "back to back",
              requests: lat.length,
              p50_ms: +pct(lat, 50).toFixed(2),
              p99_ms: +pct(lat, 99).toFixed(2),
            },
          }
        : {}),
    };
    console.error(JSON.stringify({ cycle_done: result }));
    return result;
  };

  const cycles = [await cycle("first (every page a baseline)", "200")];
  if (FIRST_DELAY_MS !== undefined) {
    // The hourly cycles with the pause they have in production.
    await stop();
    service = await serve(DELAY_MS);
  }
  const afterFirst = await used();
  if (CALIBRATE) {
    if (KINDS.includes("304")) cycles.push(await cycle("every page 304", "304"));
    if (KINDS.includes("200")) cycles.push(await cycle("every page the same bytes (200)", "200"));
    if (KINDS.includes("changed")) cycles.push(await cycle("every page changed", "changed"));
  }
  const mixed = [];
  for (let i = 0; i < MIXED; i++) mixed.push(await cycle(`hourly mix ${i + 1}`, "mix", i === 0));
  cycles.push(...mixed);
  clearInterval(sampler);
  const end = await used();
  const growth = mixed.reduce((n, c) => n + c.db_growth_bytes, 0) / Math.max(1, mixed.length);
  const month = afterFirst.bytes + 720 * growth;
  const cpuRam = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1];
  console.log(
    JSON.stringify(
      {
        machine: { cpu: cpuRam, cores: navigator.hardwareConcurrency },
        competitors: N,
        workspaces: WORKSPACES,
        pages_per_competitor: SCALE_PAGES.length,
        page_kb: Number(process.env.BENCH_PAGE_KB ?? 100),
        fetch_delay_ms: Number(DELAY_MS),
        ...(FIRST_DELAY_MS !== undefined ? { first_cycle_fetch_delay_ms: Number(FIRST_DELAY_MS) } : {}),
        setup_s: +setupS.toFixed(1),
        cycles,
        database: {
          bytes_now: end.bytes,
          mean_growth_per_mixed_cycle_bytes: Math.round(growth),
          month_extrapolated_bytes: Math.round(month),
          per_competitor_month_extrapolated_mb: +(month / N / 1e6).toFixed(3),
        },
      },
      null,
      2,
    ),
  );
  await stop();
  sites.stop();
  rmSync(dir, { recursive: true, force: true });
}

if (import.meta.main) {
  if (process.argv[2] === "--setup") {
    const s = await openServices(loadConfig({ ...process.env }));
    await setup(s);
    s.close();
  } else await main();
}
