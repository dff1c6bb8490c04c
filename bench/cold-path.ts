// `bun bench/cold-path.ts <db file> [--hit]`: the read API's cache-miss path in one process, without HTTP:
// each request a different `since`, answered through the app's own handler (with --hit: the same cached
// list every time). Prints server CPU µs per request (process.cpuUsage, garbage collection included), for
// trying changes to the request path one at a time; `bun --cpu-prof` on it shows where the time goes.
// The database must hold the org `bench` (made by `BENCH_DB=<file> npm run bench`).
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createApiKey, parseScopes } from "../src/domain/apiKeys.ts";
import { openServices } from "../src/services.ts";

const file = process.argv[2];
if (!file) throw new Error("usage: bun bench/cold-path.ts <db file>");
const s = await openServices(
  loadConfig({
    RIVALS_DB: `file:${file}`,
    PORT: "0",
    RIVALS_RATE_LIMIT: "1000000000",
    RIVALS_SCHEDULER: "off",
  }),
);
const { token } = await createApiKey(s.store, "bench", "cold-path", parseScopes("read"));
const { app } = createApp(s);
const headers = { authorization: `Bearer ${token}` };
const hit = process.argv.includes("--hit");
let n = 0;
const request = () =>
  app.handle(
    new Request(
      hit
        ? "http://127.0.0.1/api/v1/signals?per_page=50"
        : `http://127.0.0.1/api/v1/signals?per_page=50&since=${new Date(Date.UTC(2025, 0, 1) + n++).toISOString()}`,
      { headers },
    ),
  );
const N = Number(process.env.N ?? 5000);
for (let i = 0; i < 500; i++) await (await request()).arrayBuffer(); // warm up
for (let round = 0; round < 5; round++) {
  Bun.gc(true);
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const r = await request();
    if (r.status !== 200) throw new Error(`status ${r.status}`);
    await r.arrayBuffer();
  }
  const c = process.cpuUsage(c0);
  console.log(`${hit ? "hit" : "cold"} path: ${((c.user + c.system) / N).toFixed(1)} µs CPU per request`);
}
s.close();
