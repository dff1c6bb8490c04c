// `npm run bench:mcp-flood` (on demand, not run by CI): does a client flooding the tool endpoint move another
// client's read-API latency? Issue 12 measured, before POST /mcp had a rate limit, a flood of about 2,000
// calls/s raising another client's read p50 from 0.8 to 11.9 ms and p99 from 2.2 to 21.7 ms.
//
// 1. Builds a temp database (one org, BENCH_SIGNALS signals over 20 competitors) through the real import path,
//    with two API keys: the reader's and the flooder's.
// 2. For each scenario starts the real server in its own process (`bun src/main.ts serve`) and, while the
//    reader reads for BENCH_SECONDS (GET /api/v1/signals?per_page=20, BENCH_READ_RATE requests/s, one after
//    another, each timed), runs the flooder in another process from the same moment: autocannon POSTing
//    `tools/call search_signals` at BENCH_FLOOD_RATE calls/s over 16 connections with its own key. The
//    default minute covers one whole rate-limit window, so the burst the budget lets through is measured.
//    - "no flood": the reader alone (the baseline);
//    - "flood, limited": RIVALS_MCP_RATE_LIMIT at its default (600 a minute per credential);
//    - "flood, unlimited": RIVALS_MCP_RATE_LIMIT out of reach, which is how the endpoint was before.
//    The three run in turn, BENCH_ROUNDS times, so that a change in the machine's load shows.
// 3. Prints per round and scenario the reader's p50/p99, the p99's ratio to that round's baseline, the
//    server's CPU and what the flooder got.
//
// The read API's own limit (600 a minute per address) is raised in every scenario so the reader can sample
// densely; it is the tool endpoint's limit that is under test.
//
// Env: BENCH_SECONDS (default 60, a whole rate-limit window), BENCH_ROUNDS (default 2), BENCH_SIGNALS
// (default 5000), BENCH_READ_RATE (default 50), BENCH_FLOOD_RATE (default 2000).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { loadConfig } from "../src/config.ts";
import { createApiKey, parseScopes } from "../src/domain/apiKeys.ts";
import { importNdjson } from "../src/domain/imports.ts";
import { openServices } from "../src/services.ts";

const root = resolve(import.meta.dir, "..");
const bun = process.execPath;

const toolsCall = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "search_signals", arguments: { limit: 20 } },
});

// --- flooder mode: `bun bench/mcp-flood.ts --flood <base> <token> <seconds> <rate>` ----------------------
if (process.argv[2] === "--flood") {
  const [base, token, seconds, rate] = process.argv.slice(3);
  const r = await autocannon({
    url: `${base}/mcp`,
    method: "POST",
    connections: 16,
    duration: Number(seconds),
    overallRate: Number(rate),
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: toolsCall,
  });
  const codes: Record<string, number> = {};
  for (const [code, v] of Object.entries(r.statusCodeStats ?? {}))
    codes[code] = (v as { count: number }).count;
  console.log(JSON.stringify({ sent: r.requests.total, perSecond: r.requests.average, codes }));
  process.exit(0);
}

// --- the bench ------------------------------------------------------------------------------------------
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 5000);
const READ_RATE = Number(process.env.BENCH_READ_RATE ?? 50);
const FLOOD_RATE = Number(process.env.BENCH_FLOOD_RATE ?? 2000);
const COMPETITORS = 20;

const dir = mkdtempSync(join(tmpdir(), "rivals-mcp-flood-"));
const dbUrl = `file:${join(dir, "bench.db")}`;
const children: ReturnType<typeof Bun.spawn>[] = [];
const cleanup = () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
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

function* records(): Generator<object> {
  yield { kind: "org", slug: "bench", name: "Bench Co", plan: "growth" };
  for (let c = 0; c < COMPETITORS; c++)
    yield { kind: "competitor", org: "bench", key: `c${c}`, name: `Competitor ${c}`, watch: "core" };
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < SIGNALS; i++)
    yield {
      kind: "signal",
      org: "bench",
      key: `s${i}`,
      competitor: `c${i % COMPETITORS}`,
      title: `Competitor ${i % COMPETITORS} changes its pricing page, step ${i}`,
      summary: `Observed change number ${i}; details in the evidence.`,
      severity: ["low", "medium", "high"][i % 3],
      first_seen_at: new Date(start + i * 60_000).toISOString(),
      evidence: [
        {
          text: `Evidence for change ${i}.`,
          source_url: `https://news.example/${i}`,
          observed_at: new Date(start + i * 60_000).toISOString(),
        },
      ],
    };
}

async function buildDatabase(): Promise<{ reader: string; flooder: string }> {
  const s = await openServices(loadConfig({ RIVALS_DB: dbUrl, PORT: "0" }));
  let batch: string[] = [];
  const flush = async () => {
    const r = await importNdjson(s.store, batch.join("\n"), "bench");
    if (r.errors.length) throw new Error(`import failed: ${JSON.stringify(r.errors.slice(0, 3))}`);
    batch = [];
  };
  for (const rec of records()) {
    batch.push(JSON.stringify(rec));
    if (batch.length === 5000) await flush();
  }
  await flush();
  const reader = (await createApiKey(s.store, "bench", "reader", parseScopes("read"))).token;
  const flooder = (await createApiKey(s.store, "bench", "flooder", parseScopes("read"))).token;
  s.close();
  return { reader, flooder };
}

async function startServer(mcpLimit: string): Promise<{ base: string; proc: ReturnType<typeof Bun.spawn> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([bun, join(root, "src", "main.ts"), "serve"], {
    cwd: root,
    env: {
      ...process.env,
      RIVALS_DB: dbUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      RIVALS_BASE_URL: base,
      RIVALS_RATE_LIMIT: "1000000000",
      RIVALS_MCP_RATE_LIMIT: mcpLimit,
      RIVALS_ACCESS_LOG: "",
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  children.push(proc);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    try {
      await fetch(`${base}/healthz`);
      return { base, proc };
    } catch {
      if (Date.now() > deadline) throw new Error("server did not answer within 30 s");
      await Bun.sleep(25);
    }
  }
}

/** Reads at `READ_RATE` requests/s for `seconds`, one request at a time, and returns each latency in ms. */
async function read(base: string, key: string, seconds: number): Promise<number[]> {
  const url = `${base}/api/v1/signals?per_page=20`;
  const headers = { authorization: `Bearer ${key}` };
  const times: number[] = [];
  const gap = 1000 / READ_RATE;
  const end = performance.now() + seconds * 1000;
  let next = performance.now();
  while (performance.now() < end) {
    const t0 = performance.now();
    const r = await fetch(url, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`reader got ${r.status}`);
    times.push(performance.now() - t0);
    next += gap;
    const wait = next - performance.now();
    if (wait > 0) await Bun.sleep(wait);
  }
  return times;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

interface Row {
  scenario: string;
  samples: number;
  p50: number;
  p99: number;
  /** Share of one core the server used while measured. */
  serverCpu?: number;
  flood?: { sent: number; perSecond: number; codes: Record<string, number> };
}

/** Server CPU seconds (user + system) so far, from /proc; undefined off Linux. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = f.slice(f.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function scenario(
  name: string,
  mcpLimit: string,
  keys: { reader: string; flooder: string },
  flood: boolean,
): Promise<Row> {
  const { base, proc } = await startServer(mcpLimit);
  // Warm up the read path and the tool path (caches, JIT) with the reader's key before measuring.
  await read(base, keys.reader, 1);
  for (let i = 0; i < 20; i++)
    await (
      await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${keys.reader}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: toolsCall,
      })
    ).arrayBuffer();
  const cpu0 = cpuSeconds(proc.pid!);
  // The flood starts with the reading: the measured minute includes the burst the budget lets through.
  let flooder: ReturnType<typeof Bun.spawn> | undefined;
  if (flood) {
    flooder = Bun.spawn(
      [
        bun,
        join(root, "bench", "mcp-flood.ts"),
        "--flood",
        base,
        keys.flooder,
        String(SECONDS + 1),
        String(FLOOD_RATE),
      ],
      { cwd: root, stdout: "pipe", stderr: "ignore" },
    );
    children.push(flooder);
  }
  const times = await read(base, keys.reader, SECONDS);
  let floodResult: Row["flood"];
  if (flooder) {
    const out = await new Response(flooder.stdout as ReadableStream).text();
    await flooder.exited;
    floodResult = JSON.parse(out.trim().split("\n").pop() ?? "{}");
  }
  const cpu1 = cpuSeconds(proc.pid!);
  proc.kill("SIGTERM");
  await proc.exited;
  return {
    scenario: name,
    samples: times.length,
    p50: pct(times, 50),
    p99: pct(times, 99),
    serverCpu: cpu0 === undefined || cpu1 === undefined ? undefined : (cpu1 - cpu0) / SECONDS,
    flood: floodResult,
  };
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const load = () => loadavg()[0].toFixed(1);

try {
  const keys = await buildDatabase();
  const rows: (Row & { round: number; load: string })[] = [];
  for (let round = 1; round <= ROUNDS; round++)
    for (const [name, limit, flood] of [
      ["no flood", "600", false],
      ["flood, limited (600/min)", "600", true],
      ["flood, unlimited", "1000000000", true],
    ] as const) {
      const l = load();
      rows.push({ ...(await scenario(name, limit, keys, flood)), round, load: l });
      console.error(`round ${round}: ${name} done`);
    }
  console.log(
    `\nreader: GET /api/v1/signals?per_page=20 at ${READ_RATE}/s for ${SECONDS} s per scenario; flooder: tools/call search_signals at ${FLOOD_RATE}/s over 16 connections; ${SIGNALS} signals; ${cpus().length} cores\n`,
  );
  console.log(
    "| round | scenario | load avg | reader p50 ms | reader p99 ms | p99 vs no flood | server CPU | flooder calls/s | flooder 200 / 429 |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const r of rows) {
    const base = rows.find((x) => x.round === r.round && x.scenario === "no flood")!;
    console.log(
      `| ${r.round} | ${r.scenario} | ${r.load} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p99 / base.p99).toFixed(2)}× | ${
        r.serverCpu === undefined ? "–" : `${Math.round(r.serverCpu * 100)}%`
      } | ${r.flood ? Math.round(r.flood.perSecond) : "–"} | ${
        r.flood ? `${r.flood.codes["200"] ?? 0} / ${r.flood.codes["429"] ?? 0}` : "–"
      } |`,
    );
  }
  const within = rows
    .filter((r) => r.scenario.startsWith("flood, limited"))
    .map((r) => r.p99 <= 2 * rows.find((x) => x.round === r.round && x.scenario === "no flood")!.p99);
  console.log(
    `\nlimited flood keeps the reader's p99 within 2× of no flood: ${within.map((w) => (w ? "yes" : "NO")).join(", ")}`,
  );
} finally {
  cleanup();
}
