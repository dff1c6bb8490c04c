// The cycle benchmark's sites (bench/engine.ts runs this in a child process, so serving costs no CPU in the
// measured process): hosts c<N>.bench.example, ten pages each (~100 KB, built from the fixture web's Globex
// pages), robots.txt, ETags with 304 answers. POST /__version?v=N switches the content version (v2, v3 … change
// every page: a price and a paragraph); POST /__etags?on=0 ignores If-None-Match (every check gets a 200).
// Prints its port on stdout.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const fixture = join(resolve(import.meta.dir, ".."), "fixtures", "web", "sites", "globex.example", "v1");
const read = (f: string) => readFileSync(join(fixture, f), "utf8");
export const CYCLE_PAGES: [string, string, string][] = [
  ["/", "index.html", "home"],
  ["/pricing", "pricing.html", "pricing"],
  ["/product", "product.html", "product"],
  ["/changelog", "changelog.html", "changelog"],
  ["/careers", "careers.html", "careers"],
  ["/about", "about.html", "about"],
  ["/blog", "blog.html", "blog"],
  ["/integrations", "integrations.html", "integrations"],
  ["/customers", "customers.html", "customers"],
  ["/security", "security.html", "security"],
];
const TARGET = 100_000;

function padded(html: string, salt: string): string {
  const body = /<main[\s\S]*?<\/main>/i.exec(html)?.[0] ?? "";
  let extra = "";
  let i = 0;
  while (html.length + extra.length < TARGET && body)
    extra += `<section class="more-${salt}-${i++}">${body.replace(/<\/?main[^>]*>/gi, "")}</section>`;
  return html.replace(/<\/main>/i, `${extra}</main>`);
}

const bodies = new Map(CYCLE_PAGES.map(([p, f]) => [p, padded(read(f), p.replace(/\W/g, "") || "home")]));

if (import.meta.main) {
  let version = 1;
  let etags = true;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/__version") {
        version = Number(url.searchParams.get("v") ?? 1);
        return new Response("ok");
      }
      if (url.pathname === "/__etags") {
        etags = url.searchParams.get("on") !== "0";
        return new Response("ok");
      }
      const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      const base = bodies.get(url.pathname);
      if (!base) return new Response("not found", { status: 404 });
      const etag = `"${host}-${url.pathname}-${version}"`;
      if (etags && req.headers.get("if-none-match") === etag)
        return new Response(null, { status: 304, headers: { etag } });
      const name = host.split(".")[0];
      let html = base.replace("<h1", `<p>${name} company.</p><h1`);
      if (version > 1)
        html = html
          .replaceAll("$59", `$${59 + version * 10}`)
          .replace("</main>", `<p>New in version ${version}: the ${name} workflow builder.</p></main>`);
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", etag } });
    },
  });
  console.log(server.port);
}
