// The fixture web itself: every host and page the expected values name is served, with the right content
// types, conditional GETs, 404s, and the overlay rules later versions rely on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SITES } from "../../fixtures/web/expected.ts";
import { type FixtureWeb, resolveFixture, SITES_DIR, startFixtureWeb } from "../../fixtures/web/server.ts";

let web: FixtureWeb;
beforeAll(() => {
  web = startFixtureWeb();
});
afterAll(async () => {
  await web.stop();
});

async function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  const u = new URL(url);
  return fetch(web.origin + u.pathname + u.search, {
    headers: { host: u.host, ...headers },
    redirect: "manual",
  });
}

describe("fixture web", () => {
  test("serves every page, feed, board API and sitemap the expected values name", async () => {
    for (const site of SITES) {
      const urls = [
        `${site.origin}/`,
        ...Object.values(site.pages).map((v) => v!),
        ...site.feeds,
        ...(site.jobs?.board ? [site.jobs.board.apiUrl, site.jobs.board.url] : []),
        ...(site.github ? [site.github.releasesFeed] : []),
        ...(site.sitemap ? [site.sitemap.robotsSitemap, ...site.sitemap.urls] : []),
        ...(site.securityTxt ? [`${site.origin}/.well-known/security.txt`] : []),
        ...(site.pricing ? [site.pricing.page] : []),
      ];
      for (const url of urls) {
        const res = await get(url);
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
        await res.arrayBuffer();
      }
    }
  });

  test("content types follow the file", async () => {
    const type = async (url: string) => {
      const r = await get(url);
      await r.arrayBuffer();
      return r.headers.get("content-type");
    };
    expect(await type("https://globex.example/pricing")).toBe("text/html; charset=utf-8");
    expect(await type("https://globex.example/changelog/rss.xml")).toBe("application/rss+xml; charset=utf-8");
    expect(await type("https://globex.example/sitemap_index.xml")).toBe("application/xml; charset=utf-8");
    expect(await type("https://globex.example/blog/feed.atom")).toBe("application/atom+xml; charset=utf-8");
    expect(await type("https://brightloop.example/blog/feed/")).toBe("application/rss+xml; charset=utf-8");
    expect(await type("https://northwind.example/changelog/feed.json")).toBe(
      "application/json; charset=utf-8",
    );
    expect(await type("https://globex.example/robots.txt")).toBe("text/plain; charset=utf-8");
    expect(await type("https://api.lever.co/v0/postings/brightloop?mode=json")).toBe(
      "application/json; charset=utf-8",
    );
  });

  test("no internal nav or footer link of a site is broken", async () => {
    for (const site of SITES) {
      const html = await (await get(`${site.origin}/`)).text();
      const hrefs = [...html.matchAll(/href="([^"#]+)"/g)].map((m) => new URL(m[1]!, `${site.origin}/`));
      for (const u of hrefs.filter((h) => h.host === site.host && !/\.(css|js|ico|svg)$/.test(h.pathname))) {
        const res = await get(u.href);
        expect({ url: u.href, status: res.status }).toEqual({ url: u.href, status: 200 });
        await res.arrayBuffer();
      }
    }
  });

  test("404 for unknown paths and hosts; 304 for a matching ETag; site headers; request log", async () => {
    expect((await get("https://globex.example/no-such-page")).status).toBe(404);
    expect((await get("https://nowhere.example/")).status).toBe(404);
    expect((await get("https://tallyhq.example/robots.txt")).status).toBe(404);
    const first = await get("https://globex.example/");
    await first.arrayBuffer();
    expect(first.headers.get("server")).toBe("cloudflare");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const again = await get("https://globex.example/", { "if-none-match": etag });
    expect(again.status).toBe(304);
    const logged = web.requests.filter((r) => r.host === "globex.example" && r.path === "/");
    expect(logged.map((r) => r.status).slice(-2)).toEqual([200, 304]);
  });

  test("versions overlay v1; _deleted, _redirects and _headers.json apply from their version on", async () => {
    const host = "overlay-test.example";
    const root = join(SITES_DIR, host);
    try {
      mkdirSync(join(root, "v1"), { recursive: true });
      mkdirSync(join(root, "v2"), { recursive: true });
      mkdirSync(join(root, "v3"), { recursive: true });
      writeFileSync(join(root, "v1", "index.html"), "<h1>one</h1>");
      writeFileSync(join(root, "v1", "pricing.html"), "<h1>price one</h1>");
      writeFileSync(join(root, "v1", "old.html"), "<h1>old</h1>");
      writeFileSync(join(root, "v2", "pricing.html"), "<h1>price two</h1>");
      writeFileSync(join(root, "v2", "_deleted"), "/old\n");
      writeFileSync(join(root, "v2", "_redirects"), "/plans /pricing 301\n");
      writeFileSync(join(root, "v2", "_headers.json"), JSON.stringify({ "*": { "x-v": "2" } }));
      writeFileSync(join(root, "v3", "old.html"), "<h1>back</h1>");
      writeFileSync(join(root, "v3", "_redirects"), "/plans -\n");
      const text = (r: ReturnType<typeof resolveFixture>) => (r.body ? new TextDecoder().decode(r.body) : "");
      expect(text(resolveFixture(host, "/pricing", 1))).toBe("<h1>price one</h1>");
      expect(text(resolveFixture(host, "/pricing", 2))).toBe("<h1>price two</h1>");
      expect(text(resolveFixture(host, "/", 2))).toBe("<h1>one</h1>");
      expect(resolveFixture(host, "/old", 1).status).toBe(200);
      expect(resolveFixture(host, "/old", 2).status).toBe(404);
      expect(text(resolveFixture(host, "/old", 3))).toBe("<h1>back</h1>");
      const redirect = resolveFixture(host, "/plans", 2);
      expect(redirect.status).toBe(301);
      expect(redirect.headers.location).toBe("/pricing");
      expect(resolveFixture(host, "/plans", 3).status).toBe(404);
      expect(resolveFixture(host, "/", 2).headers["x-v"]).toBe("2");
      expect(resolveFixture(host, "/../../etc/passwd", 1).status).toBe(404);
      web.setVersion(2);
      const res = await get(`https://${host}/pricing`);
      expect(await res.text()).toBe("<h1>price two</h1>");
      expect(web.version).toBe(2);
    } finally {
      web.setVersion(1);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
