// `npm run bench:engine` (not run by CI): research of a 20-page site from loopback at delay 0.
//
// 1. Serves a generated 20-page site (home, 5 product pages, 2 pricing, 2 about, 2 legal, docs, changelog,
//    careers, blog, integrations, customers, security, plus robots.txt, a sitemap and a feed; ~80 KB a page,
//    built from the fixture web's Globex pages) on 127.0.0.1, reached through the rewrite table.
// 2. Runs the real service in this process (as `rivals serve` does: research runs beside the API) on a temp
//    database with the demo workspace, and researches the site as the operator: wall time and CPU per page
//    (process CPU, all threads: main and the Worker pool), BENCH_RUNS times (default 5; the first is cold).
// 3. Hammers GET /api/v1/signals (one request at a time) before and while research runs: p50/p99.
//
// Targets (docs/engine.md): research under 2 s, ≤ 30 ms CPU per page, signals p99 under 20 ms.
// 4. The monitoring cycle (bench/cycle.ts): 200 competitors × 10 pages. BENCH_PART=research or cycle runs one part.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { handle } from "../events/command.ts";
import demoData from "../examples/demo.ndjson" with { type: "text" };
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createApiKey, parseScopes } from "../src/domain/apiKeys.ts";
import { importNdjson } from "../src/domain/imports.ts";
import { requireOrg } from "../src/domain/state.ts";
import { addCompetitor } from "../src/domain/watchlist.ts";
import { extractPage } from "../src/engine/extract/page.ts";
import { startResearch } from "../src/engine/research/runner.ts";
import { openServices } from "../src/services.ts";
import { cycleBench, startCycleSite } from "./cycle.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PART = process.env.BENCH_PART ?? "all";
const root = resolve(import.meta.dir, "..");
const fixture = join(root, "fixtures", "web", "sites", "globex.example", "v1");
const read = (f: string) => readFileSync(join(fixture, f), "utf8");

// --- the site ---------------------------------------------------------------------------------------------
const PAGES: [string, string][] = [
  ["/product", "product.html"],
  ["/features/funnels", "product.html"],
  ["/features/retention", "product.html"],
  ["/features/cohorts", "product.html"],
  ["/features/ask", "product.html"],
  ["/pricing", "pricing.html"],
  ["/plans/enterprise", "pricing.html"],
  ["/about", "about.html"],
  ["/company/team", "about.html"],
  ["/legal/terms", "legal/terms.html"],
  ["/legal/privacy", "legal/privacy.html"],
  ["/docs", "product.html"],
  ["/changelog", "changelog.html"],
  ["/careers", "careers.html"],
  ["/blog", "blog.html"],
  ["/integrations", "integrations.html"],
  ["/customers", "customers.html"],
  ["/security", "security.html"],
  ["/jobs", "careers.html"],
];
const TARGET_BYTES = 80_000;

/** Pads a page to ~80 KB with more of its own body (sections repeated), as long marketing pages are. */
function padded(html: string, salt: string): string {
  const body = /<main[\s\S]*?<\/main>/i.exec(html)?.[0] ?? "";
  let extra = "";
  let i = 0;
  while (html.length + extra.length < TARGET_BYTES && body) {
    extra += `<section class="more-${salt}-${i++}">${body.replace(/<\/?main[^>]*>/gi, "")}</section>`;
  }
  return html.replace(/<\/main>/i, `${extra}</main>`);
}

const nav = PAGES.map(([p]) => `<a href="${p}">${p.split("/").pop()}</a>`).join("");
const home = read("index.html").replace(/<nav([^>]*)>/i, `<nav$1>${nav}`);
const files = new Map<string, { body: string; type: string }>();
files.set("/", { body: padded(home, "home"), type: "text/html; charset=utf-8" });
for (const [path, file] of PAGES)
  files.set(path, { body: padded(read(file), path), type: "text/html; charset=utf-8" });
files.set("/robots.txt", {
  body: "User-agent: *\nAllow: /\nSitemap: https://bench.example/sitemap.xml\n",
  type: "text/plain",
});
files.set("/sitemap.xml", {
  body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
    "/",
    ...PAGES.map(([p]) => p),
  ]
    .map((p) => `<url><loc>https://bench.example${p}</loc></url>`)
    .join("")}</urlset>`,
  type: "application/xml",
});
files.set("/changelog/rss.xml", { body: read("changelog/rss.xml"), type: "application/rss+xml" });
const site = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const f = files.get(new URL(req.url).pathname);
    return f
      ? new Response(f.body, { headers: { "content-type": f.type } })
      : new Response("no", { status: 404 });
  },
});
const htmlBytes = [...files.values()].filter((f) => f.type.startsWith("text/html")).map((f) => f.body.length);

// --- the service ------------------------------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), "rivals-bench-engine-"));
const cycleSite = PART === "research" ? undefined : await startCycleSite();
const serviceEnv = {
  RIVALS_DB: `file:${join(dir, "bench.db")}`,
  RIVALS_FETCH_REWRITE: [
    ...(cycleSite
      ? Array.from(
          { length: Number(process.env.BENCH_COMPETITORS ?? 200) },
          (_, i) => `https://c${i}.bench.example=http://127.0.0.1:${cycleSite.port}`,
        )
      : []),
    `*=http://127.0.0.1:${site.port}`,
  ].join(","),
  RIVALS_FETCH_DELAY_MS: "0",
};
const config = loadConfig({ ...serviceEnv, PORT: "0", RIVALS_RATE_LIMIT: "1000000" });
const s = await openServices(config);
await importNdjson(s.store, demoData, "demo");
const key = (await createApiKey(s.store, "demo", "bench", parseScopes(undefined))).token;
const org = await requireOrg(s.database.client, "demo");
const { app } = createApp(s);
app.listen({ port: 0, hostname: "127.0.0.1" });
const base = `http://127.0.0.1:${app.server!.port}`;
const { result } = await s.store.execute((w) =>
  handle(
    addCompetitor,
    w,
    { orgId: org.id, actor: "bench" },
    { website_url: "https://bench.example/", name: "Bench" },
  ),
);
const competitorId = result.id;

async function oneResearch() {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { done } = await startResearch(
    s,
    { orgId: org.id, actor: "operator" },
    { kind: "one", competitor_id: competitorId },
    "operator",
    {
      usesAllowance: false,
    },
  );
  const [report] = await done;
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (report.status !== "finished") throw new Error(`research failed: ${JSON.stringify(report.error)}`);
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    pages: report.summary!.pages_read,
    fetched: report.summary!.fetched,
  };
}

async function hammer(until: () => boolean, min = 200, at = base): Promise<number[]> {
  const lat: number[] = [];
  while (!until() || lat.length < min) {
    const t0 = performance.now();
    const r = await fetch(`${at}/api/v1/signals?per_page=50`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`signals answered ${r.status}`);
    lat.push(performance.now() - t0);
  }
  return lat;
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

if (PART === "cycle") {
  const cycle = await cycleBench({ s, childEnv: serviceEnv, hammer, pct }, cycleSite!);
  console.log(JSON.stringify({ cycle, workers: Number(process.env.RIVALS_WORKERS) || "default" }, null, 2));
  await app.stop(true);
  site.stop(true);
  cycleSite?.stop();
  s.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await oneResearch());
const warm = runs.slice(1);
const idle = await hammer(() => true, 500);
let researching = true;
const during = hammer(() => !researching);
const busy = [];
for (let i = 0; i < 3; i++) busy.push(await oneResearch());
researching = false;
const duringLat = await during;

const median = (xs: number[]) => pct(xs, 50);

/** Extraction alone (extractPage on this thread, every HTML page, 3 rounds): its share of the CPU per page. */
function extractionCpuPerPage(): number {
  const htmls = [...files.entries()].filter(([, f]) => f.type.startsWith("text/html"));
  for (const [p, f] of htmls) extractPage(f.body, `https://bench.example${p}`); // warm
  const c0 = process.cpuUsage();
  for (let r = 0; r < 3; r++) for (const [p, f] of htmls) extractPage(f.body, `https://bench.example${p}`);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / (3 * htmls.length);
}
const out = {
  site: {
    pages: htmlBytes.length,
    avg_page_kb: Math.round(htmlBytes.reduce((a, b) => a + b, 0) / htmlBytes.length / 1000),
  },
  research: {
    pages_read: runs[0].pages,
    requests: runs[0].fetched,
    cold_ms: Math.round(runs[0].ms),
    warm_median_ms: Math.round(median(warm.map((r) => r.ms))),
    cpu_ms_per_page_cold: +(runs[0].cpuMs / runs[0].pages).toFixed(1),
    cpu_ms_per_page_warm_median: +median(warm.map((r) => r.cpuMs / r.pages)).toFixed(1),
    of_which_extract_page_cpu_ms: +extractionCpuPerPage().toFixed(1),
  },
  signals_api: {
    idle: { requests: idle.length, p50_ms: +pct(idle, 50).toFixed(2), p99_ms: +pct(idle, 99).toFixed(2) },
    during_research: {
      requests: duringLat.length,
      p50_ms: +pct(duringLat, 50).toFixed(2),
      p99_ms: +pct(duringLat, 99).toFixed(2),
    },
  },
  workers: Number(process.env.RIVALS_WORKERS) || "default",
};
console.log(JSON.stringify(out, null, 2));
if (cycleSite)
  console.log(
    JSON.stringify({ cycle: await cycleBench({ s, childEnv: serviceEnv, hammer, pct }, cycleSite) }, null, 2),
  );
await app.stop(true);
site.stop(true);
cycleSite?.stop();
s.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
