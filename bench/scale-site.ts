// The scale bench's sites (bench/scale.ts runs this in a child process, so serving costs no CPU in the measured
// process): any host (s<N>.scale.example), BENCH_PAGES pages each (of bench/cycle-site.ts's ten, ~BENCH_PAGE_KB KB,
// built from the fixture web's Globex pages), robots.txt, ETags. What a page answers in a cycle is chosen by a
// hash of (host, path, cycle): in mode `mix` about 2% change (a price and a paragraph; the page's version moves
// on), 8% ignore If-None-Match and send the same bytes, the rest answer 304; modes `304`, `200` and `changed`
// give every page that answer (the bench's calibration cycles). The Greenhouse board the careers page names answers
// for every competitor on its one host, the same list each time (304 when asked with its ETag). POST /__cycle?n=K&mode=M sets both; GET
// /__stats gives the counts of the cycle's answers by kind. Prints its port on stdout.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { serveHosts } from "../test/support/host-sites.ts";
import { CYCLE_PAGES } from "./cycle-site.ts";

const fixture = join(resolve(import.meta.dir, ".."), "fixtures", "web", "sites", "globex.example", "v1");
const PAGES = CYCLE_PAGES.slice(0, Number(process.env.BENCH_PAGES ?? 10));
/** The job board every competitor's careers page names (the Globex careers page's Greenhouse board). */
const boardJobs = readFileSync(
  join(fixture, "..", "..", "boards-api.greenhouse.io", "v1", "v1", "boards", "globex", "jobs.json"),
  "utf8",
);
const TARGET = Number(process.env.BENCH_PAGE_KB ?? 100) * 1000;

function padded(html: string, salt: string): string {
  const body = /<main[\s\S]*?<\/main>/i.exec(html)?.[0] ?? "";
  let extra = "";
  let i = 0;
  while (html.length + extra.length < TARGET && body)
    extra += `<section class="more-${salt}-${i++}">${body.replace(/<\/?main[^>]*>/gi, "")}</section>`;
  return html.replace(/<\/main>/i, `${extra}</main>`);
}

export const SCALE_PAGES = PAGES;

if (import.meta.main) {
  const bodies = new Map(
    PAGES.map(([p, f]) => [
      p,
      padded(readFileSync(join(fixture, f), "utf8"), p.replace(/\W/g, "") || "home"),
    ]),
  );
  let cycle = 0;
  let mode = "mix";
  const versions = new Map<string, number>();
  const decided = new Map<string, string>();
  const stats: Record<string, number> = {};
  const kindOf = (host: string, path: string): string => {
    const k = `${host}${path}`;
    let kind = decided.get(k);
    if (kind) return kind;
    if (mode !== "mix") kind = mode;
    else {
      const r = Number(Bun.hash(`${k}#${cycle}`) % 10_000n) / 10_000;
      kind = r < 0.02 ? "changed" : r < 0.1 ? "200" : "304";
    }
    if (kind === "changed") versions.set(k, (versions.get(k) ?? 1) + 1);
    decided.set(k, kind);
    return kind;
  };
  const server = serveHosts({
    page(host, path, req) {
      if (path === "/__cycle") {
        const url = new URL(req.url);
        cycle = Number(url.searchParams.get("n") ?? cycle + 1);
        mode = url.searchParams.get("mode") ?? "mix";
        decided.clear();
        for (const k of Object.keys(stats)) delete stats[k];
        return new Response("ok");
      }
      if (path === "/__stats") return Response.json(stats);
      // Each competitor's board on the one host they share: the same list every time, with an ETag.
      if (host === "boards-api.greenhouse.io" && path.startsWith("/v1/boards/")) {
        const etag = `"${path}"`;
        const kind = req.headers.get("if-none-match") === etag ? "board_304" : "board_200";
        stats[kind] = (stats[kind] ?? 0) + 1;
        return kind === "board_304"
          ? new Response(null, { status: 304, headers: { etag } })
          : new Response(boardJobs, { headers: { "content-type": "application/json", etag } });
      }
      const base = bodies.get(path);
      if (!base) return new Response("not found", { status: 404 });
      const kind = kindOf(host, path);
      const version = versions.get(`${host}${path}`) ?? 1;
      const etag = `"${host}-${path}-${version}"`;
      if (kind === "304" && req.headers.get("if-none-match") === etag) {
        stats["304"] = (stats["304"] ?? 0) + 1;
        return new Response(null, { status: 304, headers: { etag } });
      }
      stats[kind] = (stats[kind] ?? 0) + 1;
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
