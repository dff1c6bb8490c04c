// A confined fetcher (the demo workspace's: a closed web of fictional sites) reaches the origins its rewrite
// table names and nothing else: another host, a redirect out of the table, a robots.txt elsewhere all fail with
// `outside_sites` before any name is looked up or any connection made. workspaceFetcher gives it to the demo
// workspace only, in every process: where no demo web is served, that workspace reaches nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createFetcher, type FetchResult, workspaceFetcher } from "../../../src/engine/fetch/index.ts";
import { tenantRenderer } from "../../../src/engine/render/index.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

let site: ReturnType<typeof Bun.serve>;
let origin: string;
const served: string[] = [];
/** Every name the fetchers looked up: a confined fetcher looks up none. */
const lookedUp: string[] = [];
const logged: Record<string, unknown>[] = [];

beforeAll(() => {
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const u = new URL(req.url);
      served.push(`${req.headers.get("host")}${u.pathname}`);
      if (u.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      if (u.pathname === "/away")
        return Response.redirect("https://boards-api.greenhouse.io/v1/boards/x/jobs", 302);
      if (u.pathname === "/next") return Response.redirect("https://jobs.fixture.example/board", 302);
      return new Response(`<h1>${req.headers.get("host")}${u.pathname}</h1>`, {
        headers: { "content-type": "text/html" },
      });
    },
  });
  origin = `http://127.0.0.1:${site.port}`;
});
afterAll(() => site.stop(true));

function confined() {
  return createFetcher({
    userAgent: "RivalsBot/1.0 (+http://localhost/bot)",
    delayMs: 0,
    rewrite: [
      { from: "https://site.fixture.example", to: origin },
      { from: "https://jobs.fixture.example", to: origin },
    ],
    confine: true,
    resolve: async (host) => {
      lookedUp.push(host);
      return ["93.184.216.34"];
    },
    log: (l) => logged.push(l),
  });
}

const failed = (r: FetchResult) => {
  if (r.ok) throw new Error(`expected a failure, got ${r.status}`);
  return r;
};

test("the table's origins are read (redirects within it followed); every other host fails before a look-up", async () => {
  const f = confined();
  const ok = await f.fetch({ url: "https://site.fixture.example/pricing" });
  expect(ok.ok && ok.text).toBe("<h1>site.fixture.example/pricing</h1>");
  const moved = await f.fetch({ url: "https://site.fixture.example/next" });
  expect(moved.ok && moved.finalUrl).toBe("https://jobs.fixture.example/board");

  const other = failed(await f.fetch({ url: "https://boards-api.greenhouse.io/v1/boards/globex/jobs" }));
  expect(other.error).toBe("outside_sites");
  expect(other.message).toBe("boards-api.greenhouse.io is not one of the sites this workspace reads");
  const away = failed(await f.fetch({ url: "https://site.fixture.example/away" }));
  expect(away.error).toBe("outside_sites");
  expect(failed(await f.fetch({ url: "http://127.0.0.1:1/" })).error).toBe("outside_sites");

  expect(lookedUp).toEqual([]);
  expect(
    served.every((s) => s.startsWith("site.fixture.example/") || s.startsWith("jobs.fixture.example/")),
  ).toBe(true);
  expect(logged.filter((l) => l.msg === "fetch refused")).toEqual([]);
  expect(logged.filter((l) => l.msg === "fetch outside the sites").map((l) => l.host)).toEqual([
    "boards-api.greenhouse.io",
    "boards-api.greenhouse.io",
    "127.0.0.1:1",
  ]);
});

test("workspaceFetcher: the demo workspace is confined to config.demoSites (nothing without a demo web); others are not", async () => {
  let t: TestServer | undefined;
  try {
    t = await startTestServer({ RIVALS_FETCH_DELAY_MS: "0" });
    const demo = await t.org("demo");
    const acme = await t.org("acme");
    const d = await workspaceFetcher(t.services, demo.id);
    const a = await workspaceFetcher(t.services, acme.id);
    expect([d.confined, a.confined]).toEqual([true, false]);
    expect(d.fetcher).not.toBe(a.fetcher);
    // No demo web in this process: the demo workspace reaches no host at all, not even its own sites' names.
    const r = failed(await d.fetcher.fetch({ url: "https://globex.example/pricing" }));
    expect(r.error).toBe("outside_sites");
    // Another workspace keeps the tenant fetcher and its address guard.
    expect(failed(await a.fetcher.fetch({ url: "http://127.0.0.1:1/" })).error).toBe("blocked_address");
  } finally {
    await t?.close();
  }
});

test("a confined workspace renders no page in a browser (whose requests would follow the tenant rules)", async () => {
  let t: TestServer | undefined;
  try {
    // A browser that does not exist: the refusal comes before any browser is started.
    t = await startTestServer({ RIVALS_BROWSER: "/nonexistent/chromium" });
    const demo = await t.org("demo");
    const r = await tenantRenderer(t.services, demo.id)!.render({
      url: "https://globex.example/app",
      text: "<div id=root></div>",
      contentType: "text/html",
    });
    expect(r).toEqual({
      ok: false,
      error: "browser",
      message: "this workspace's pages are not read in a browser",
    });
  } finally {
    await t?.close();
  }
});
