// `bun bench/extract-profile.ts` (not run by CI): CPU per page of extraction and its phases, on the fixture
// web's HTML pages and on the benchmarks' padded ~100 KB pages (as bench/cycle-site.ts serves them).
// CPU time (process.cpuUsage) rather than wall time: steadier on a shared machine. ROUNDS (default 5) rounds
// after one warm-up round; prints ms per page per phase and set.
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { htmlFiles } from "../fixtures/web/files.ts";
import { normalise, serialise, snapshotHash } from "../src/engine/compare/normalise.ts";
import { PageSignature } from "../src/engine/compare/signature.ts";
import { observeDocument, parseDocument } from "../src/engine/extract/dom.ts";
import { extractPage } from "../src/engine/extract/page.ts";
import { detectTech } from "../src/engine/extract/tech.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const root = resolve(import.meta.dir, "..");
const web = join(root, "fixtures", "web", "sites");

const fixturePages = htmlFiles(web).map((p) => {
  const rel = relative(web, p).split("/");
  const path = rel
    .slice(2)
    .join("/")
    .replace(/index\.html$/, "")
    .replace(/\.html$/, "");
  return { url: `https://${rel[0]}/${path}`, html: readFileSync(p, "utf8") };
});

const globex = join(web, "globex.example", "v1");
function padded(html: string, salt: string, target: number): string {
  const body = /<main[\s\S]*?<\/main>/i.exec(html)?.[0] ?? "";
  let extra = "";
  let i = 0;
  while (html.length + extra.length < target && body)
    extra += `<section class="more-${salt}-${i++}">${body.replace(/<\/?main[^>]*>/gi, "")}</section>`;
  return html.replace(/<\/main>/i, `${extra}</main>`);
}
const CYCLE: [string, string][] = [
  ["/", "index.html"],
  ["/pricing", "pricing.html"],
  ["/product", "product.html"],
  ["/changelog", "changelog.html"],
  ["/careers", "careers.html"],
  ["/about", "about.html"],
  ["/blog", "blog.html"],
  ["/integrations", "integrations.html"],
  ["/customers", "customers.html"],
  ["/security", "security.html"],
];
const cyclePages = CYCLE.map(([p, f]) => ({
  url: `https://c1.bench.example${p}`,
  html: padded(readFileSync(join(globex, f), "utf8"), p.replace(/\W/g, "") || "home", 100_000),
}));

const cpu = (f: () => void, n: number): number => {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / n;
};

function profile(name: string, pages: { url: string; html: string }[]) {
  // each phase on the previous phase's output, so the columns add up (parse is part of extractPage)
  const extracts = new Map(pages.map((p) => [p, extractPage(p.html, p.url)]));
  const snapshots = new Map(pages.map((p) => [p, normalise(extracts.get(p)!)]));
  const phases: Record<string, (p: { url: string; html: string }) => unknown> = {
    parse: (p) => parseDocument(p.html),
    // what a cycle's snapshot task costs when the page's signature is the last one (a tokenizer pass, no tree)
    signature: (p) => {
      const sig = new PageSignature(p.url);
      observeDocument(p.html, sig);
      return sig.digest();
    },
    extractPage: (p) => extractPage(p.html, p.url),
    normalise: (p) => normalise(extracts.get(p)!),
    serialiseHash: (p) => snapshotHash(serialise(snapshots.get(p)!)),
    detectTech: (p) => detectTech({ html: p.html, headers: {}, scripts: [] }),
  };
  const row: Record<string, number> = {};
  for (const [phase, f] of Object.entries(phases)) {
    for (const p of pages) f(p); // warm
    row[phase] = +(
      cpu(() => {
        for (const p of pages) f(p);
      }, ROUNDS) / pages.length
    ).toFixed(2);
  }
  const kb = Math.round(pages.reduce((a, p) => a + p.html.length, 0) / pages.length / 1000);
  console.log(JSON.stringify({ set: name, pages: pages.length, avg_kb: kb, ms_per_page: row }));
}

const only = process.env.SET;
if (!only || only === "fixtures") profile("fixtures", fixturePages);
if (!only || only === "cycle") profile("cycle-100kb", cyclePages);
