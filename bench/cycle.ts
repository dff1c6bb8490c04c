// The cycle part of `npm run bench:engine` (docs/decisions.md, "The engine's targets"): a monitoring cycle over BENCH_COMPETITORS
// (default 200) competitors × 10 pages of ~100 KB from a local site server in a child process (bench/cycle-site.ts),
// fetch delay 0. The workspace is set up by a child process (`--setup`); the cycles run in the service's own
// process with the API listening:
//   1. first cycle (every page a baseline), 2. unchanged with 304 answers, 3. unchanged with 200 answers (same
//   content: fetched, extracted, normalised, hashed), 4. every page changed (a price and a paragraph),
//   5. every page changed again while GET /api/v1/signals is hammered (p50/p99), 6. every page changed again,
//   run by a real `rivals cycle` process on the same database, 7. every page changed again, run at start by the
//   scheduler of a real `rivals serve` process whose signals API this process hammers.
// CPU is process CPU (all threads: main and the Worker pool) per page; growth of the log and the snapshot store
// over the unchanged cycles. Memory: this process's RSS is sampled every 20 ms (it also holds the demo import and,
// in cycle 5, the hammering client); the peaks of the `rivals cycle` and `rivals serve` processes are their own
// (VmHWM, see peakRss). Targets: ≤ 10 ms CPU per unchanged page, ≤ 60 ms per changed page, ≤ 400 MB peak, one
// event per competitor for an unchanged cycle, signals p99 < 20 ms.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfig } from "../src/config.ts";
import { importNdjson } from "../src/domain/imports.ts";
import { createOrg } from "../src/domain/orgs.ts";
import { handleStartResearch } from "../src/domain/research.ts";
import type { ResearchDossier } from "../src/domain/researchTypes.ts";
import { requireOrg } from "../src/domain/state.ts";
import { runCycle } from "../src/engine/cycle/run.ts";
import { endRun } from "../src/engine/research/lease.ts";
import { openServices, type Services } from "../src/services.ts";
import { CYCLE_PAGES } from "./cycle-site.ts";

export interface CycleBenchEnv {
  s: Services;
  /** The environment a `rivals` process needs for this service's database and fetch rewrites. */
  childEnv: Record<string, string>;
  /** GET /api/v1/signals latencies until `until()` says stop (of this process's API, or of `base`). */
  hammer(until: () => boolean, min?: number, base?: string): Promise<number[]>;
  pct(xs: number[], p: number): number;
}

export async function startCycleSite(): Promise<{
  port: number;
  control(path: string): Promise<void>;
  stop(): void;
}> {
  const proc = Bun.spawn([process.execPath, resolve(import.meta.dir, "cycle-site.ts")], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("cycle site did not start");
    text += new TextDecoder().decode(value);
  }
  const port = Number(text.trim());
  return {
    port,
    control: async (path) => {
      await (await fetch(`http://127.0.0.1:${port}${path}`, { method: "POST" })).text();
    },
    stop: () => proc.kill(),
  };
}

async function counts(s: Services, orgId: number) {
  const r = await s.database.client.execute({
    sql: `SELECT (SELECT COUNT(*) FROM events) AS events, (SELECT COUNT(*) FROM events WHERE org_id = ?) AS org_events,
            (SELECT COUNT(*) FROM snapshot_versions) AS versions, (SELECT COUNT(*) FROM snapshot_blobs) AS blobs,
            (SELECT COALESCE(SUM(LENGTH(data)), 0) FROM snapshot_blobs) AS blob_bytes`,
    args: [orgId],
  });
  const row = r.rows[0];
  return {
    events: Number(row.org_events),
    versions: Number(row.versions),
    blobs: Number(row.blobs),
    blob_bytes: Number(row.blob_bytes),
  };
}

/** The peak RSS of a running process, from the kernel's high-water mark of its address space (VmHWM), read
 * every 20 ms until it exits. Not `resourceUsage().maxRSS`: the kernel carries a task's maxrss across exec, and
 * a child started by Bun.spawn (posix_spawn, sharing the parent's memory until exec) reports this process's
 * peak when it is the larger (a child that held 35 MB reported the 525 MB of its parent). */
function peakRss(pid: number): () => number {
  let peak = 0;
  const read = () => {
    try {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      if (kb) peak = Math.max(peak, Number(kb) * 1024);
    } catch {
      // exited
    }
  };
  const timer = setInterval(read, 20);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** One cycle by `rivals cycle` in its own process: its summary's counts, CPU per page and peak RSS. */
async function childCycle(env: Record<string, string>) {
  const p = Bun.spawn([process.execPath, "src/main.ts", "cycle", "--org", "cyclebench"], {
    cwd: resolve(import.meta.dir, ".."),
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const peak = peakRss(p.pid);
  const out = await new Response(p.stdout).text();
  const code = await p.exited;
  const peakBytes = peak();
  if (code !== 0) throw new Error(`rivals cycle failed: ${out}`);
  const sum = JSON.parse(out);
  const ru = p.resourceUsage();
  if (!ru) throw new Error("no resource usage for rivals cycle");
  return {
    label: "every page changed, `rivals cycle` process",
    pages: sum.pages_checked,
    pages_changed: sum.pages_changed,
    signals_created: sum.signals_created,
    cpu_ms_per_page: +(Number(ru.cpuTime.total) / 1000 / Math.max(1, sum.pages_checked)).toFixed(2),
    peak_rss_mb: Math.round(peakBytes / 1e6),
  };
}

/** One cycle run by a real `rivals serve` process: its scheduler runs the workspace's due cycle at start (no
 * cycle of the current slot has finished), while this process reads GET /api/v1/signals from it. The figure for
 * The engine's peak-memory target (docs/decisions.md): a service process with the API, the scheduler and the cycle, and nothing the
 * bench set up (the bench's own process also holds the setup and the hammering client). */
async function serveCycle(env: CycleBenchEnv, orgId: number) {
  const { s } = env;
  const last = async () =>
    Number(
      (
        await s.database.client.execute({
          sql: "SELECT COALESCE(MAX(id), 0) AS id FROM cycles WHERE org_id = ?",
          args: [orgId],
        })
      ).rows[0].id,
    );
  const before = await last();
  const p = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    cwd: resolve(import.meta.dir, ".."),
    env: {
      ...process.env,
      ...env.childEnv,
      PORT: "0",
      HOST: "127.0.0.1",
      RIVALS_SCHEDULER_JITTER_MS: "0",
      RIVALS_RATE_LIMIT: "1000000",
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  const peak = peakRss(p.pid);
  try {
    const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
    let text = "";
    let port = 0;
    while (!port) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`rivals serve stopped: ${text}`);
      text += new TextDecoder().decode(value);
      port = Number(/"port":(\d+)/.exec(text)?.[1] ?? 0);
    }
    void (async () => {
      while (!(await reader.read()).done) {} // its log lines
    })();
    const finished = async () =>
      (
        await s.database.client.execute({
          sql: "SELECT summary FROM cycles WHERE org_id = ? AND id > ? AND finished_at IS NOT NULL",
          args: [orgId, before],
        })
      ).rows[0];
    let row: Awaited<ReturnType<typeof finished>> | undefined;
    const polling = (async () => {
      while (row === undefined) {
        await Bun.sleep(250);
        row = await finished();
      }
    })();
    const lat = await env.hammer(() => row !== undefined, 200, `http://127.0.0.1:${port}`);
    await polling;
    const sum = JSON.parse(String(row?.summary));
    return {
      label: "every page changed, run by the scheduler of a `rivals serve` process, its signals API hammered",
      pages: sum.pages_checked,
      pages_changed: sum.pages_changed,
      signals_created: sum.signals_created,
      peak_rss_mb: Math.round(peak() / 1e6),
      signals_api: {
        requests: lat.length,
        p50_ms: +env.pct(lat, 50).toFixed(2),
        p99_ms: +env.pct(lat, 99).toFixed(2),
      },
    };
  } finally {
    p.kill();
    await p.exited;
    peak();
  }
}

/** The bench's workspace: `n` core competitors by import (imports count against no plan's core slots), then
 * each one's research recorded with its ten pages as sources (the research run itself is the other half of
 * this bench). Run in its own process (`bun bench/cycle.ts --setup`, with the service's environment), so the
 * bench's process holds none of what the setup allocated. */
async function setupWorkspace(s: Services, n: number): Promise<void> {
  const org = await createOrg(s.store, { slug: "cyclebench", name: "Cycle bench", plan: "enterprise" });
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      kind: "competitor",
      org: "cyclebench",
      key: `c${i}`,
      name: `Company ${i}`,
      website_url: `https://c${i}.bench.example`,
      watch: "core",
      tracking: "active",
    }),
  );
  const imported = await importNdjson(s.store, lines.join("\n"));
  if (imported.errors.length) throw new Error(JSON.stringify(imported.errors.slice(0, 3)));
  const ids = (
    await s.database.client.execute({
      sql: "SELECT id, website_url FROM competitors WHERE org_id = ? ORDER BY id",
      args: [org.id],
    })
  ).rows.map((r) => ({ id: Number(r.id), site: String(r.website_url) }));
  for (const c of ids) {
    const { result } = await s.store.execute(
      (w) =>
        handleStartResearch(
          w,
          { orgId: org.id, actor: "operator" },
          { kind: "one", competitor_id: c.id },
          "operator",
          false,
        ),
      { actor: "operator" },
    );
    const dossier: ResearchDossier = {
      profile: {},
      urls: {},
      reads: {},
      sources: CYCLE_PAGES.map(([p, , kind]) => ({ url: new URL(p, c.site).href, kind })),
      fetched: CYCLE_PAGES.length,
    };
    await endRun(s, result.runs[0].run_id, { ok: true, dossier }, { actor: "operator" });
  }
}

export async function cycleBench(env: CycleBenchEnv, site: { control(path: string): Promise<void> }) {
  const { s } = env;
  const n = Number(process.env.BENCH_COMPETITORS ?? 200);
  const setup = Bun.spawn([process.execPath, import.meta.path, "--setup"], {
    env: { ...process.env, ...env.childEnv, BENCH_COMPETITORS: String(n) },
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await setup.exited) !== 0) throw new Error("the cycle bench's setup failed");
  const org = await requireOrg(s.database.client, "cyclebench");

  Bun.gc(true);
  const rssAtStart = process.memoryUsage().rss;
  let peak = 0;
  let cyclePeak = 0;
  const sampler = setInterval(() => {
    const rss = process.memoryUsage().rss;
    peak = Math.max(peak, rss);
    cyclePeak = Math.max(cyclePeak, rss);
  }, 20);
  const one = async (label: string) => {
    cyclePeak = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const before = await counts(s, org.id);
    const sum = await runCycle(s, org.id, { trigger: "operator" });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    const after = await counts(s, org.id);
    const pages = sum.pages_checked;
    return {
      label,
      pages,
      pages_changed: sum.pages_changed,
      pages_not_modified: sum.pages_not_modified,
      pages_baseline: sum.pages_baseline,
      pages_failed: sum.pages_failed,
      signals_created: sum.signals_created,
      wall_s: +(ms / 1000).toFixed(1),
      cpu_ms_per_page: +((cpu.user + cpu.system) / 1000 / Math.max(1, pages)).toFixed(2),
      peak_rss_mb: Math.round(cyclePeak / 1e6),
      growth: {
        events: after.events - before.events,
        snapshot_versions: after.versions - before.versions,
        snapshot_blobs: after.blobs - before.blobs,
        snapshot_bytes: after.blob_bytes - before.blob_bytes,
      },
    };
  };
  const first = await one("first (baselines)");
  const unchanged304 = await one("unchanged, 304 answers");
  await site.control("/__etags?on=0");
  const unchanged200 = await one("unchanged, 200 answers (same content)");
  await site.control("/__version?v=2");
  const changed = await one("every page changed");
  const peakBeforeHammer = peak;
  await site.control("/__version?v=3");
  let running = true;
  const lat = env.hammer(() => !running);
  const changedBusy = await one("every page changed, signals API hammered");
  running = false;
  const during = await lat;
  clearInterval(sampler);
  await site.control("/__version?v=4");
  const child = await childCycle(env.childEnv);
  await site.control("/__version?v=5");
  const served = await serveCycle(env, org.id);
  return {
    competitors: n,
    pages_per_competitor: CYCLE_PAGES.length,
    cycles: [first, unchanged304, unchanged200, changed, changedBusy],
    rss_mb_before_first_cycle: Math.round(rssAtStart / 1e6),
    peak_rss_mb: Math.round(peak / 1e6),
    peak_rss_mb_before_hammering: Math.round(peakBeforeHammer / 1e6),
    rivals_cycle_process: child,
    rivals_serve_process: served,
    signals_api_during_cycle: {
      requests: during.length,
      p50_ms: +env.pct(during, 50).toFixed(2),
      p99_ms: +env.pct(during, 99).toFixed(2),
    },
  };
}

if (import.meta.main && process.argv[2] === "--setup") {
  const s = await openServices(loadConfig({ ...process.env, PORT: "0", RIVALS_SCHEDULER: "off" }));
  await setupWorkspace(s, Number(process.env.BENCH_COMPETITORS ?? 200));
  s.close();
}
