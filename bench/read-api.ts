// `npm run bench` (not run by CI): the read API under load, beside a bare Bun.serve answering the same bytes.
//
// 1. Builds a temp database with 100,000 signals over 50 competitors in one org, through the real import
//    path (importNdjson → the single writer, batched).
// 2. Starts the real server in its own process (`bun src/main.ts serve`), with the rate limiter on but set
//    high enough never to trip, and a bare Bun.serve in another process answering each scenario's real
//    response bytes and headers.
// 3. Drives each with autocannon (64 connections on 127.0.0.1, BENCH_SECONDS each, default 10) and prints
//    requests/s, p99 latency and the ratio to the bare server.
//
// Env: BENCH_SECONDS (default 10), BENCH_SIGNALS (default 100000), BENCH_KEEP=1 keeps the temp directory,
// BENCH_DB=<path> reuses (or creates and keeps) a database file instead of loading a new one each run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 100_000);
const COMPETITORS = 50;
const CONNECTIONS = 64;
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

interface Result {
  /** Server CPU time per request, µs: how much of a core one request costs, whatever else runs. */
  cpuUs?: number;
  rps: number;
  p99: number;
  p50: number;
  non2xx: number;
  errors: number;
}

/** `vary`, when given, rewrites each request's path (to defeat the read cache for the cold-path row). */
async function drive(
  url: string,
  headers: Record<string, string>,
  pid: number,
  vary?: (path: string) => string,
): Promise<Result> {
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
  // A short warm-up, then the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers, requests });
  const cpu0 = cpuSeconds(pid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, requests });
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

  const port = await freePort();
  // From the repository root: Bun takes the JSX settings of src/web/*.tsx from ./tsconfig.json.
  const real = Bun.spawn([bun, join(root, "src", "main.ts"), "serve"], {
    cwd: root,
    env: {
      ...process.env,
      RIVALS_DB: dbUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      RIVALS_BASE_URL: `http://127.0.0.1:${port}`,
      RIVALS_RATE_LIMIT: "1000000000",
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  children.push(real);
  const realBase = `http://127.0.0.1:${port}`;
  await waitReady(`${realBase}/api/v1/competitors`, real);

  const competitorId = (
    (await (await fetch(`${realBase}/api/v1/competitors`, { headers: auth })).json()) as {
      data: { id: number }[];
    }
  ).data[3].id;
  // Every `since` before the first signal selects the same page as none, but makes a new cache key: the
  // cold row measures the query path itself (a miss on every request). It is reported, not held to the target.
  let n = 0;
  const coldSince = (path: string) =>
    `${path}&since=${new Date(Date.UTC(2025, 0, 1) + (n++ % 86_400_000)).toISOString()}`;
  const scenarios: { name: string; path: string; vary?: (p: string) => string; target?: false }[] = [
    { name: "signals?per_page=50", path: "/api/v1/signals?per_page=50" },
    { name: `signals?q=${WORD}`, path: `/api/v1/signals?per_page=50&q=${WORD}` },
    { name: "signals?competitor_id=", path: `/api/v1/signals?per_page=50&competitor_id=${competitorId}` },
    { name: "competitors", path: "/api/v1/competitors" },
    {
      name: "signals, cold (cache miss)",
      path: "/api/v1/signals?per_page=50",
      vary: coldSince,
      target: false,
    },
  ];

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

  const rows: string[][] = [];
  let pass = true;
  for (const sc of scenarios) {
    const r = await drive(realBase + sc.path, auth, real.pid, sc.vary);
    const b = await drive(bareBase + sc.path, auth, bare.pid, sc.vary);
    const ratio = r.rps / b.rps;
    const ok = ratio >= 0.5 && r.p99 < 10 && r.non2xx === 0 && r.errors === 0;
    if (sc.target !== false) pass &&= ok;
    rows.push([
      sc.name,
      r.rps.toFixed(0),
      `${r.p50} / ${r.p99}`,
      b.rps.toFixed(0),
      `${b.p50} / ${b.p99}`,
      ratio.toFixed(2),
      r.cpuUs === undefined || b.cpuUs === undefined ? "-" : `${r.cpuUs.toFixed(0)} / ${b.cpuUs.toFixed(0)}`,
      r.non2xx + r.errors
        ? `${r.non2xx} non-2xx, ${r.errors} errors`
        : sc.target === false
          ? "(not a target)"
          : ok
            ? "ok"
            : "MISSED",
    ]);
  }
  const head = [
    "endpoint",
    "rivals req/s",
    "p50/p99 ms",
    "bare req/s",
    "bare p50/p99 ms",
    "ratio",
    "server CPU µs/req rivals / bare",
    "target",
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s each, ${SIGNALS} signals over ${COMPETITORS} competitors, ${navigator.hardwareConcurrency} cores, Bun ${Bun.version}\n`,
  );
  console.log(line(head));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(r));
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`\ntarget (every ratio >= 0.5, p99 < 10 ms): ${pass ? "met" : "MISSED"}; load average ${load}`);
} finally {
  cleanup();
}
process.exit(0);
