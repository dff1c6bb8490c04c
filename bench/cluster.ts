// `npm run bench:cluster` (not run by CI): Rivals on one libSQL server (sqld) with several instances.
//
// 1. Writes: `add_signal_note` over POST /mcp with 24 calls in flight (autocannon), for BENCH_SECONDS (default
//    10) each, against real `rivals serve` processes: one on a local file, one on sqld over HTTP, one over a
//    WebSocket (ws://), three over WebSockets (the connections spread over them, as a proxy would). Prints
//    calls/s, p50/p99 and the ratio to the file.
// 2. The worst stall: three instances on sqld under that load; one is paused (SIGSTOP) for 3 s mid-run, then
//    resumed; later another is killed (SIGKILL). Prints the slowest call the other instances answered meanwhile.
// 3. The shared rate limit's cost (src/http/rateLeases.ts): the read API on one sqld instance under load with
//    the limit out of reach (requests/s and the leases it took), and how many leases (round trips) one
//    address's 600 requests a minute spread over two instances take.
// The figures depend on the machine: it prints the load average with them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { loadConfig, MAX_RATE_LIMIT } from "../src/config.ts";
import { createApiKey } from "../src/domain/apiKeys.ts";
import { importNdjson } from "../src/domain/imports.ts";
import { SharedRateLimiter } from "../src/http/rateLeases.ts";
import { RateLimiter } from "../src/http/rateLimit.ts";
import { openServices } from "../src/services.ts";
import { startSqld } from "../test/support/sqld.ts";

const root = resolve(import.meta.dir, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const IN_FLIGHT = 24;
const dir = mkdtempSync(join(tmpdir(), "rivals-bench-cluster-"));
const children: ReturnType<typeof Bun.spawn>[] = [];
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

interface Instance {
  base: string;
  proc: ReturnType<typeof Bun.spawn>;
}

async function serve(db: string): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([process.execPath, join(root, "src/main.ts"), "serve"], {
    cwd: root,
    env: {
      ...process.env,
      RIVALS_DB: db,
      PORT: String(port),
      HOST: "127.0.0.1",
      RIVALS_BASE_URL: base,
      RIVALS_SCHEDULER: "off",
      RIVALS_RATE_LIMIT: String(MAX_RATE_LIMIT),
      RIVALS_MCP_RATE_LIMIT: String(MAX_RATE_LIMIT),
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  children.push(proc);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`rivals serve exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, proc };
    } catch {}
    if (Date.now() > deadline) throw new Error("rivals serve did not answer within 30 s");
    await Bun.sleep(50);
  }
}

/** A workspace with one signal and a key that may write, made through the real import path. */
async function seed(db: string): Promise<{ token: string; signalId: number }> {
  const s = await openServices(loadConfig({ RIVALS_DB: db }));
  try {
    await importNdjson(
      s.store,
      [
        { kind: "org", slug: "bench", name: "Bench Co", plan: "growth" },
        { kind: "competitor", org: "bench", key: "c1", name: "Globex" },
        { kind: "signal", org: "bench", key: "s1", competitor: "c1", title: "Globex raises prices" },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n"),
    );
    const signalId = Number((await s.database.client.execute("SELECT id FROM signals LIMIT 1")).rows[0].id);
    const token = (await createApiKey(s.store, "bench", "bench", ["read", "write"])).token;
    return { token, signalId };
  } finally {
    s.close();
  }
}

function noteLoad(base: string, token: string, signalId: number, connections: number, seconds: number) {
  return autocannon({
    url: `${base}/mcp`,
    method: "POST",
    connections,
    duration: seconds,
    timeout: 20,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "add_signal_note", arguments: { signal_id: signalId, body: "A talking point" } },
    }),
  });
}

/** Drives `instances` together with IN_FLIGHT connections spread over them. */
async function writes(instances: Instance[], token: string, signalId: number, seconds = SECONDS) {
  const per = Math.floor(IN_FLIGHT / instances.length);
  const results = await Promise.all(instances.map((i) => noteLoad(i.base, token, signalId, per, seconds)));
  const ok = results.reduce((n, r) => n + r["2xx"], 0);
  const errors = results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0);
  return {
    callsPerSecond: Math.round(ok / seconds),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    max: Math.max(...results.map((r) => r.latency.max)),
    errors,
  };
}

function stop(instances: Instance[]) {
  for (const i of instances) if (i.proc.exitCode === null) i.proc.kill("SIGTERM");
}

const report: Record<string, unknown> = { load_average_at_start: loadAverage(), seconds: SECONDS };
try {
  // 1. Write throughput.
  const fileDb = `file:${join(dir, "file.db")}`;
  const fileSeed = await seed(fileDb);
  const file = [await serve(fileDb)];
  await writes(file, fileSeed.token, fileSeed.signalId, 2); // warm
  const onFile = await writes(file, fileSeed.token, fileSeed.signalId);
  stop(file);
  report.file_one_instance = onFile;

  const sqld = await startSqld(dir);
  try {
    const remote = await seed(sqld.url);
    // Hrana over HTTP (a request per statement) and over a WebSocket (one connection, statements pipelined).
    const overHttp = [await serve(sqld.url)];
    await writes(overHttp, remote.token, remote.signalId, 2);
    const onHttp = await writes(overHttp, remote.token, remote.signalId);
    stop(overHttp);
    report.sqld_one_instance_http = {
      ...onHttp,
      ratio_to_file: +(onHttp.callsPerSecond / onFile.callsPerSecond).toFixed(2),
    };
    const ws = sqld.url.replace(/^http/, "ws");
    const one = [await serve(ws)];
    await writes(one, remote.token, remote.signalId, 2);
    const onSqld = await writes(one, remote.token, remote.signalId);
    report.sqld_one_instance_ws = {
      ...onSqld,
      ratio_to_file: +(onSqld.callsPerSecond / onFile.callsPerSecond).toFixed(2),
    };
    const three = [one[0], await serve(ws), await serve(ws)];
    await writes(three, remote.token, remote.signalId, 2);
    const onThree = await writes(three, remote.token, remote.signalId);
    report.sqld_three_instances_ws = {
      ...onThree,
      ratio_to_file: +(onThree.callsPerSecond / onFile.callsPerSecond).toFixed(2),
    };

    // 2. The worst stall the others see while one instance is paused, then while one is killed.
    const [victim, ...others] = three;
    const load = Promise.all([
      noteLoad(victim.base, remote.token, remote.signalId, 8, 9),
      ...others.map((o) => noteLoad(o.base, remote.token, remote.signalId, 8, 9)),
    ]);
    await Bun.sleep(2000);
    victim.proc.kill("SIGSTOP");
    await Bun.sleep(3000);
    victim.proc.kill("SIGCONT");
    await Bun.sleep(1000);
    victim.proc.kill("SIGKILL");
    const [, ...seen] = await load;
    report.worst_stall_ms_other_instances = Math.max(...seen.map((r) => r.latency.max));
    report.other_instances_p99_ms_during_pause_and_kill = Math.max(...seen.map((r) => r.latency.p99));
    stop(others);

    // 3. The shared limit: the read API under load on one instance, the limit out of reach.
    const reader = await serve(sqld.url);
    const readLoad = () =>
      autocannon({
        url: `${reader.base}/api/v1/signals?limit=20`,
        connections: 32,
        duration: Math.min(SECONDS, 5),
        headers: { authorization: `Bearer ${remote.token}` },
      });
    await readLoad();
    const slicesBefore = await leasesTaken(sqld.url);
    const reads = await readLoad();
    report.read_api_on_sqld = {
      requests_per_second: Math.round(reads["2xx"] / Math.min(SECONDS, 5)),
      p99_ms: reads.latency.p99,
      // Blocks of a twentieth of the budget (50,000 requests at this limit): one write batch each.
      leases_during_run: Math.ceil(((await leasesTaken(sqld.url)) - slicesBefore) / (MAX_RATE_LIMIT / 20)),
    };
    stop([reader]);
    report.leases_for_600_requests_over_two_instances = await leasesAt600(sqld.url);
  } finally {
    await sqld.stop();
  }
} finally {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
}
report.load_average_at_end = loadAverage();
console.log(JSON.stringify(report, null, 2));

/** Units of the read API's budget leased so far (a lease takes a twentieth of the budget at most). */
async function leasesTaken(url: string): Promise<number> {
  const s = await openServices(loadConfig({ RIVALS_DB: url }));
  try {
    const r = await s.database.client.execute(
      "SELECT COALESCE(SUM(taken), 0) AS n FROM rate_slices WHERE name = 'read_api'",
    );
    return Number(r.rows[0].n);
  } finally {
    s.close();
  }
}

/** One address's 600 requests over two instances' limiters on one server, counting the round trips. */
async function leasesAt600(url: string) {
  const s = await openServices(loadConfig({ RIVALS_DB: url }));
  try {
    let batches = 0;
    const client = s.database.client;
    const counting = Object.assign(Object.create(client), {
      batch: (...a: Parameters<typeof client.batch>) => {
        batches++;
        return client.batch(...a);
      },
    }) as typeof client;
    const now = new Date("2026-11-20T12:00:00Z");
    const limiters = [0, 1].map(() => new SharedRateLimiter(counting, "bench_shared", 600, () => now));
    let accepted = 0;
    const t0 = performance.now();
    for (let i = 0; i < 700; i++) if ((await limiters[i % 2].take("198.51.100.7")).allowed) accepted++;
    const ms = performance.now() - t0;
    const hot = new SharedRateLimiter(counting, "bench_hot", 1_000_000_000, () => now);
    await hot.take("203.0.113.9");
    const n = 1_000_000;
    const h0 = performance.now();
    for (let i = 0; i < n; i++) hot.take("203.0.113.9");
    const perTakeNs = ((performance.now() - h0) * 1e6) / n;
    const exact = new RateLimiter(1_000_000_000, () => now);
    const e0 = performance.now();
    for (let i = 0; i < n; i++) exact.take("203.0.113.9");
    const exactNs = ((performance.now() - e0) * 1e6) / n;
    return {
      accepted,
      round_trips: batches - 1,
      ms_for_700: Math.round(ms),
      shared_take_from_block_ns: +perTakeNs.toFixed(1),
      in_process_exact_take_ns: +exactNs.toFixed(1),
    };
  } finally {
    s.close();
  }
}
