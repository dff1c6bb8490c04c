// `npm run bench` (not run by CI): the read API under load, beside a bare Bun.serve answering the same bytes.
//
// 1. Builds a temp database with 100,000 signals over 50 competitors in one org, through the real import
//    path (importNdjson → the single writer, batched).
// 2. Starts the real server in its own process (`bun src/main.ts serve`), with the rate limiter on but set
//    high enough never to trip, and a bare Bun.serve in another process answering each scenario's real
//    response bytes and headers.
// 3. Warms both servers on every scenario (3 s each: the JIT's work on a new process is not billed to the
//    first scenario), then drives each with autocannon (64 connections on 127.0.0.1, BENCH_SECONDS each,
//    default 10) and prints requests/s, p99 latency and the ratio to the bare server.
//
// 4. Runs each scenario RUNS times (default 3), alternating the two servers, and reports the median of each
//    figure and the median ratio. Server CPU per request comes from /proc (user + system time of the server
//    process over the measured run, divided by the requests it answered): steadier than requests/s on a
//    shared machine, since autocannon runs on the same cores.
//
// It refuses to run while the 1-minute load average is above 0.5 (other work would skew every figure) unless
// given --force. Flags: --force, --runs N, --only <substring of a scenario name>, --profile (each scenario
// once more against a server run under `bun --cpu-prof`; prints where its CPU went, by part).
// Env: BENCH_SECONDS (default 10), BENCH_SIGNALS (default 100000), BENCH_KEEP=1 keeps the temp directory,
// BENCH_DB=<path> reuses (or creates and keeps) a database file instead of loading a new one each run.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { loadConfig } from "../src/config.ts";
import { createApiKey, parseScopes } from "../src/domain/apiKeys.ts";
import { importNdjson } from "../src/domain/imports.ts";
import { openServices } from "../src/services.ts";

const root = resolve(import.meta.dir, "..");
const bun = process.execPath;

// --- bare mode: `bun bench/read-api.ts --bare <responses.json> <port>` -----------------------------------
interface Canned {
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}
if (process.argv[2] === "--bare") {
  const canned = JSON.parse(readFileSync(process.argv[3], "utf8")) as Canned[];
  const byPath = new Map(canned.map((c) => [c.path, { ...c, bytes: new TextEncoder().encode(c.body) }]));
  const server = Bun.serve({
    port: Number(process.argv[4]),
    hostname: "127.0.0.1",
    fetch(req) {
      const u = new URL(req.url);
      // A cold-path request carries a varying `since`; it is answered with the same bytes as without it.
      u.searchParams.delete("since");
      const c = byPath.get(u.pathname + u.search);
      if (!c) return new Response("not canned", { status: 404 });
      return new Response(c.bytes, { status: c.status, headers: c.headers });
    },
  });
  console.log(JSON.stringify({ listening: true, port: server.port }));
  await new Promise(() => {});
}

// --- the bench ------------------------------------------------------------------------------------------
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const FORCE = flag("--force");
const RUNS = Number(option("--runs") ?? 3);
const ONLY = option("--only");
const PROFILE = flag("--profile");
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const load1 = Number(loadAverage().split(" ")[0]);
if (load1 > 0.5 && !FORCE) {
  console.error(
    `load average ${loadAverage()}: above 0.5, other work would skew the figures. Wait for a quiet machine, or pass --force (and say so with the figures).`,
  );
  process.exit(3);
}
const loadAtStart = loadAverage();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 100_000);
const COMPETITORS = 50;
const CONNECTIONS = 64;
const WARM_SECONDS = 3;
const WORD = "acquisition"; // in 1 title of 32: about 3% of rows

const dir = mkdtempSync(join(tmpdir(), "rivals-bench-"));
const reuse = process.env.BENCH_DB ? resolve(process.env.BENCH_DB) : undefined;
const dbUrl = `file:${reuse ?? join(dir, "bench.db")}`;
const children: ReturnType<typeof Bun.spawn>[] = [];
const cleanup = () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

async function waitReady(url: string, proc: ReturnType<typeof Bun.spawn>) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${url}: server exited with ${proc.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url}: no answer within 30 s`);
      await Bun.sleep(25);
    }
  }
}

const TOPICS = [
  "pricing",
  "hiring",
  "product",
  "funding",
  "partnership",
  "security",
  "marketing",
  "leadership",
];
const VERBS = ["launches", "announces", "expands", "cuts", "updates", "opens", "reworks", "pilots"];

function* records(): Generator<object> {
  yield { kind: "org", slug: "bench", name: "Bench Co", plan: "growth" };
  for (let c = 0; c < COMPETITORS; c++)
    yield {
      kind: "competitor",
      org: "bench",
      key: `c${c}`,
      name: `Competitor ${c}`,
      website_url: `https://c${c}.example`,
      category: "Analytics",
      watch: c % 5 === 0 ? "horizon" : "core",
      priority: (c % 10) + 1,
      tracked_since: new Date(Date.UTC(2025, 0, 1 + c)).toISOString(),
      description: `Competitor ${c} sells analytics software to mid-market teams.`,
      reads: { positioning: `Competitor ${c} is positioned as the fast, friendly option.` },
    };
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < SIGNALS; i++) {
    const topic = TOPICS[i % TOPICS.length];
    const word = i % 32 === 7 ? ` ${WORD} of a ${topic} startup` : ` ${topic} programme ${i}`;
    yield {
      kind: "signal",
      org: "bench",
      key: `s${i}`,
      competitor: `c${i % COMPETITORS}`,
      title: `Competitor ${i % COMPETITORS} ${VERBS[(i >> 3) % VERBS.length]}${word}`,
      summary: `Observed change number ${i} in ${topic}; details in the evidence.`,
      category: topic,
      type: `${topic}_change`,
      severity: ["low", "medium", "high"][i % 3],
      status: i % 20 === 19 ? "closed" : "open",
      first_seen_at: new Date(start + i * 60_000).toISOString(),
      last_seen_at: new Date(start + i * 60_000 + 3_600_000).toISOString(),
      confidence: 0.5 + (i % 50) / 100,
      topics: [topic],
      evidence: [
        {
          text: `Evidence for change ${i}.`,
          source_title: `Source ${i}`,
          source_url: `https://news.example/${i}`,
          observed_at: new Date(start + i * 60_000).toISOString(),
        },
      ],
    };
  }
}

async function buildDatabase(): Promise<string> {
  const s = await openServices(loadConfig({ RIVALS_DB: dbUrl, PORT: "0" }));
  const loaded = await s.database.client.execute("SELECT count(*) AS n FROM orgs WHERE slug = 'bench'");
  if (reuse && Number(loaded.rows[0].n) > 0) {
    console.log(`reusing ${reuse}`);
    const { token } = await createApiKey(s.store, "bench", "bench", parseScopes("read"));
    s.close();
    return token;
  }
  const t0 = performance.now();
  let batch: string[] = [];
  let lines = 0;
  const flush = async () => {
    const r = await importNdjson(s.store, batch.join("\n"), "bench");
    if (r.errors.length) throw new Error(`import failed: ${JSON.stringify(r.errors.slice(0, 3))}`);
    lines += r.lines;
    batch = [];
  };
  for (const rec of records()) {
    batch.push(JSON.stringify(rec));
    if (batch.length === 10_000) await flush();
  }
  await flush();
  const { token } = await createApiKey(s.store, "bench", "bench", parseScopes("read"));
  s.close();
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `loaded ${lines} records (${SIGNALS} signals) in ${secs.toFixed(1)} s (${Math.round(lines / secs)}/s)`,
  );
  return token;
}

/** CPU seconds (user + system) a process has used so far, from /proc; undefined off Linux. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = f.slice(f.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return undefined;
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** Where a `--cpu-prof` profile's time went: self time by part (our folders, each dependency, the runtime),
 * then the heaviest functions. Idle time (waiting for the next request) is left out. */
function breakdown(file: string): string {
  const prof = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  prof.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0));
  });
  /** A frame's file, relative to the repository when it is ours ("file://src/…" or an absolute path). */
  const fileOf = (n: ProfileNode) => {
    const f = n.callFrame.url.replace(/^file:\/\//, "");
    return f.startsWith(`${root}/`) ? f.slice(root.length + 1) : f;
  };
  const partOf = (n: ProfileNode): string => {
    const file = fileOf(n);
    const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    if (dep) return dep[1];
    if (file && !file.startsWith("/"))
      return file
        .split("/")
        .slice(0, file.startsWith("src/") ? 2 : 1)
        .join("/");
    if (n.callFrame.functionName.startsWith("(")) return n.callFrame.functionName;
    return `runtime: ${n.callFrame.functionName || "(anonymous)"}`;
  };
  const parts = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  for (const [id, t] of self) {
    const n = byId.get(id);
    if (!n || n.callFrame.functionName === "(idle)") continue;
    total += t;
    const part = partOf(n);
    parts.set(part, (parts.get(part) ?? 0) + t);
    const where = n.callFrame.url
      ? ` ${n.callFrame.url.replace(`${root}/`, "")}:${n.callFrame.lineNumber + 1}`
      : "";
    const fn = `${n.callFrame.functionName || "(anonymous)"}${where}`;
    fns.set(fn, (fns.get(fn) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, t]) => `  ${pct(t)}  ${name}`)
      .join("\n");
  return `self time by part:\n${top(parts, 14)}\nheaviest functions:\n${top(fns, 14)}`;
}

interface Result {
  /** Server CPU time per request, µs: how much of a core one request costs, whatever else runs. */
  cpuUs?: number;
  rps: number;
  p99: number;
  p50: number;
  non2xx: number;
  errors: number;
}

/** Load on one URL for `seconds`; `vary`, when given, rewrites each request's path (to defeat the read cache
 * for the cold-path row). */
function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  vary?: (path: string) => string,
) {
  const u = new URL(url);
  const requests = vary
    ? [
        {
          method: "GET",
          path: u.pathname + u.search,
          setupRequest: (req: { path: string }) => ({ ...req, path: vary(u.pathname + u.search) }),
        },
      ]
    : undefined;
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, requests });
}

async function drive(
  url: string,
  headers: Record<string, string>,
  pid: number,
  vary?: (path: string) => string,
): Promise<Result> {
  // A short warm-up, then the measured run.
  await load(url, headers, 1, vary);
  const cpu0 = cpuSeconds(pid);
  const r = await load(url, headers, SECONDS, vary);
  const cpu1 = cpuSeconds(pid);
  return {
    cpuUs: cpu0 === undefined || cpu1 === undefined ? undefined : ((cpu1 - cpu0) * 1e6) / r.requests.total,
    rps: r.requests.average,
    p99: r.latency.p99,
    p50: r.latency.p50,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

try {
  const token = await buildDatabase();
  const auth = { authorization: `Bearer ${token}` };

  /** The real server in its own process; `profileDir` runs it under `bun --cpu-prof`. */
  async function startReal(profileDir?: string) {
    const port = await freePort();
    const prof = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
    // From the repository root: Bun takes the JSX settings of src/web/*.tsx from ./tsconfig.json.
    const proc = Bun.spawn([bun, ...prof, join(root, "src", "main.ts"), "serve"], {
      cwd: root,
      env: {
        ...process.env,
        RIVALS_DB: dbUrl,
        PORT: String(port),
        HOST: "127.0.0.1",
        RIVALS_BASE_URL: `http://127.0.0.1:${port}`,
        RIVALS_RATE_LIMIT: "1000000000",
        // The monitoring scheduler would fetch the bench's made-up competitor sites mid-run.
        RIVALS_SCHEDULER: "off",
      },
      stdout: "ignore",
      stderr: "inherit",
    });
    children.push(proc);
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/api/v1/competitors`, proc);
    return { proc, base };
  }
  const real = await startReal();
  const realBase = real.base;

  const competitorId = (
    (await (await fetch(`${realBase}/api/v1/competitors`, { headers: auth })).json()) as {
      data: { id: number }[];
    }
  ).data[3].id;
  // Every `since` before the first signal selects the same page as none, but makes a new cache key: the
  // cold row measures the query path itself (a miss on every request).
  let n = 0;
  const coldSince = (path: string) =>
    `${path}&since=${new Date(Date.UTC(2025, 0, 1) + (n++ % 86_400_000)).toISOString()}`;
  const allScenarios: { name: string; path: string; vary?: (p: string) => string; cold?: true }[] = [
    { name: "signals?per_page=50", path: "/api/v1/signals?per_page=50" },
    { name: `signals?q=${WORD}`, path: `/api/v1/signals?per_page=50&q=${WORD}` },
    { name: "signals?competitor_id=", path: `/api/v1/signals?per_page=50&competitor_id=${competitorId}` },
    { name: "competitors", path: "/api/v1/competitors" },
    { name: "signals, cold (cache miss)", path: "/api/v1/signals?per_page=50", vary: coldSince, cold: true },
  ];
  const scenarios = allScenarios.filter((sc) => ONLY === undefined || sc.name.includes(ONLY));

  // The bare server answers each path with the real response's status, headers and bytes.
  const canned: Canned[] = [];
  for (const sc of scenarios) {
    if (canned.some((c) => c.path === sc.path)) continue;
    const r = await fetch(realBase + sc.path, { headers: auth });
    const body = await r.text();
    if (r.status !== 200) throw new Error(`${sc.path}: ${r.status} ${body}`);
    const headers: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      if (!["date", "content-length"].includes(k)) headers[k] = v;
    });
    const rows = (JSON.parse(body) as { data: unknown[] }).data.length;
    console.log(`${sc.path}: ${rows} rows, ${body.length} bytes`);
    canned.push({ path: sc.path, status: r.status, headers, body });
  }
  const cannedFile = join(dir, "canned.json");
  writeFileSync(cannedFile, JSON.stringify(canned));
  const barePort = await freePort();
  const bare = Bun.spawn([bun, join(root, "bench", "read-api.ts"), "--bare", cannedFile, String(barePort)], {
    stdout: "ignore",
    stderr: "inherit",
  });
  children.push(bare);
  const bareBase = `http://127.0.0.1:${barePort}`;
  await waitReady(bareBase, bare);

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  // Both servers are warmed on every scenario before the first measured run: in a new process the JIT
  // compiles the hot path during the first seconds of load, on the other core, and that time would be billed
  // to whichever scenario came first (58 µs a request for the first, 41-44 for the same path later).
  for (const sc of scenarios)
    for (const base of [realBase, bareBase]) await load(base + sc.path, auth, WARM_SECONDS, sc.vary);
  const rows: string[][] = [];
  let pass = true;
  for (const sc of scenarios) {
    const runs: { r: Result; b: Result }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await drive(realBase + sc.path, auth, real.proc.pid, sc.vary);
      const b = await drive(bareBase + sc.path, auth, bare.pid, sc.vary);
      runs.push({ r, b });
    }
    const m = (f: (x: { r: Result; b: Result }) => number | undefined) => {
      const xs = runs.map(f).filter((x): x is number => x !== undefined);
      return xs.length ? median(xs) : undefined;
    };
    const ratio = m((x) => x.r.rps / x.b.rps) as number;
    const rps = m((x) => x.r.rps) as number;
    const p50 = m((x) => x.r.p50) as number;
    const p99 = m((x) => x.r.p99) as number;
    const bareRps = m((x) => x.b.rps) as number;
    const bareP50 = m((x) => x.b.p50) as number;
    const bareP99 = m((x) => x.b.p99) as number;
    const cpu = m((x) => x.r.cpuUs);
    const bareCpu = m((x) => x.b.cpuUs);
    const failures = runs.reduce((a, x) => a + x.r.non2xx + x.r.errors, 0);
    const ok = sc.cold
      ? cpu !== undefined && cpu <= 250 && failures === 0
      : ratio >= 0.8 && p99 < 10 && failures === 0;
    pass &&= ok;
    rows.push([
      sc.name,
      rps.toFixed(0),
      `${p50} / ${p99} (${runs.map((x) => x.r.p99).join(", ")})`,
      bareRps.toFixed(0),
      `${bareP50} / ${bareP99}`,
      `${ratio.toFixed(2)} (${runs.map((x) => (x.r.rps / x.b.rps).toFixed(2)).join(", ")})`,
      cpu === undefined || bareCpu === undefined ? "-" : `${cpu.toFixed(0)} / ${bareCpu.toFixed(0)}`,
      failures ? `${failures} failed` : ok ? "ok" : "MISSED",
    ]);
  }
  const head = [
    "endpoint",
    "rivals req/s",
    "p50/p99 ms (p99 runs)",
    "bare req/s",
    "bare p50/p99 ms",
    "ratio, median (runs)",
    "server CPU µs/req rivals / bare",
    "target",
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s each, ${RUNS} runs per scenario (medians), ${SIGNALS} signals over ${COMPETITORS} competitors, ${navigator.hardwareConcurrency} cores, Bun ${Bun.version}\n`,
  );
  console.log(line(head));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(r));
  console.log(
    `\ntarget (cached: every ratio >= 0.8, p99 < 10 ms; cold: <= 250 µs server CPU per request): ${pass ? "met" : "MISSED"}`,
  );
  console.log(`load average at start ${loadAtStart}, at end ${loadAverage()}${FORCE ? " (--force)" : ""}`);

  if (PROFILE) {
    real.proc.kill("SIGTERM");
    await real.proc.exited;
    for (const sc of scenarios) {
      const profDir = join(dir, `prof-${scenarios.indexOf(sc)}`);
      const p = await startReal(profDir);
      const r = await drive(p.base + sc.path, auth, p.proc.pid, sc.vary);
      p.proc.kill("SIGTERM");
      await p.proc.exited;
      const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
      if (!file) {
        console.log(`${sc.name}: no profile written`);
        continue;
      }
      const kept = join(tmpdir(), `rivals-bench-${scenarios.indexOf(sc)}.cpuprofile`);
      copyFileSync(join(profDir, file), kept);
      console.log(
        `\n${sc.name}: ${r.cpuUs?.toFixed(0) ?? "-"} µs/req under the profiler (${kept})\n${breakdown(kept)}`,
      );
    }
  }
} finally {
  cleanup();
}
process.exit(0);
