// The one fetcher (docs/engine/fetch.md) against real servers on 127.0.0.1, reached through the
// rewrite table as the fictional origins http://site.test and http://other.test: redirects, the address
// guard, time limits, byte caps, charsets, robots.txt, conditional GET and per-host pacing.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createServer, type Server as NetServer, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import {
  brotliCompressSync,
  deflateRawSync,
  deflateSync,
  gzipSync,
  constants as zlibConstants,
  zstdCompressSync,
} from "node:zlib";
import { loadConfig } from "../../../src/config.ts";
import {
  createFetcher,
  type FetcherOptions,
  type FetchResult,
  fetcherFor,
  isPublicAddress,
  parseRewrite,
  pinnedTarget,
} from "../../../src/engine/fetch/index.ts";

const UA = "RivalsBot/1.0 (+http://rivals.test/bot)";

interface Seen {
  host: string;
  path: string;
  ua: string;
  headers: Headers;
}

let site: ReturnType<typeof Bun.serve>;
let outsider: ReturnType<typeof Bun.serve>;
let raw: NetServer;
let rawPort = 0;
const seen: Seen[] = [];
const outsiderSeen: string[] = [];
let active = 0;
let maxActive = 0;
const sockets = new Set<Socket>();
// A hostile site must cost one failed fetch: nothing may escape as an unhandled rejection.
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);
process.on("unhandledRejection", onUnhandled);

// 64 MiB of zeros in every content coding we accept, each a few kilobytes on the wire.
const ZEROS = new Uint8Array(64 * 1024 * 1024);
const BOMBS: Record<string, Uint8Array<ArrayBuffer>> = {
  gzip: new Uint8Array(gzipSync(ZEROS, { level: 1 })),
  deflate: new Uint8Array(deflateSync(ZEROS)),
  br: new Uint8Array(brotliCompressSync(ZEROS, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } })),
  zstd: new Uint8Array(zstdCompressSync(ZEROS)),
};
const HELLO = new TextEncoder().encode("<p>h\u00e9llo, encoded</p>");
const ENCODED: Record<string, Uint8Array<ArrayBuffer>> = {
  gzip: new Uint8Array(gzipSync(HELLO)),
  deflate: new Uint8Array(deflateSync(HELLO)),
  "deflate-raw": new Uint8Array(deflateRawSync(HELLO)),
  br: new Uint8Array(brotliCompressSync(HELLO)),
  zstd: new Uint8Array(zstdCompressSync(HELLO)),
};

function robotsFor(host: string): Response {
  if (host.startsWith("slowrobots.test")) return new Response("User-agent: *\nCrawl-delay: 3\n");
  if (host.startsWith("brokenrobots.test")) return new Response("down", { status: 503 });
  if (host.startsWith("norobots.test")) return new Response("nothing here", { status: 404 });
  if (host.startsWith("robotsredirect.test"))
    return new Response(null, {
      status: 302,
      headers: { location: `http://127.0.0.1:${outsider.port}/robots.txt` },
    });
  if (host.startsWith("hugerobots.test"))
    return new Response(`User-agent: *\nDisallow: /early\n${"# padding\n".repeat(60_000)}Disallow: /late\n`);
  return new Response(
    "User-agent: *\nDisallow: /nobody\n\nUser-agent: RivalsBot\nDisallow: /private\nDisallow: /~admin\nDisallow: /caf%C3%A9\n",
    { headers: { "content-type": "text/plain" } },
  );
}

beforeAll(() => {
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 30,
    async fetch(req) {
      const u = new URL(req.url);
      const host = req.headers.get("host") ?? "";
      seen.push({
        host,
        path: u.pathname + u.search,
        ua: req.headers.get("user-agent") ?? "",
        headers: req.headers,
      });
      if (u.pathname === "/robots.txt") return robotsFor(host);
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        await Bun.sleep(5);
        switch (u.pathname) {
          case "/":
          case "/page":
          case "/nobody":
            return new Response(`<html><body>hello from ${host}${u.pathname}</body></html>`, {
              headers: { "content-type": "text/html; charset=utf-8" },
            });
          case "/loop":
            return Response.redirect("/loop2", 302);
          case "/loop2":
            return Response.redirect("/loop", 301);
          case "/chain":
            return new Response(null, {
              status: 302,
              headers: { location: `http://127.0.0.1:${site.port}/chain2` },
            });
          case "/chain2":
            return new Response(null, { status: 307, headers: { location: "http://other.test/page?x=1" } });
          case "/to-loopback":
            return new Response(null, {
              status: 302,
              headers: { location: `http://127.0.0.1:${outsider.port}/secret` },
            });
          case "/to-localhost":
            return new Response(null, {
              status: 302,
              headers: { location: `http://localhost:${outsider.port}/secret` },
            });
          case "/to-private":
            return new Response(null, { status: 301, headers: { location: "http://10.1.2.3/admin" } });
          case "/to-metadata":
            return new Response(null, {
              status: 301,
              headers: { location: "http://[::ffff:169.254.169.254]/latest" },
            });
          case "/hang-headers":
            return new Promise<Response>(() => {});
          case "/hang-body":
            return new Response(
              new ReadableStream({
                start(c) {
                  c.enqueue(new TextEncoder().encode("<html><body>partial"));
                },
              }),
              { headers: { "content-type": "text/html" } },
            );
          case "/error":
            return new Response("boom", { status: 500 });
          case "/gone":
            return new Response("gone", { status: 410 });
          case "/bomb": {
            const enc = u.searchParams.get("enc") ?? "gzip";
            return new Response(BOMBS[enc], {
              headers: { "content-type": "text/html", "content-encoding": enc },
            });
          }
          case "/encoded": {
            const enc = u.searchParams.get("enc") ?? "gzip";
            const body = u.searchParams.has("corrupt") ? new Uint8Array(64).fill(7) : (ENCODED[enc] ?? HELLO);
            return new Response(body, {
              headers: {
                "content-type": "text/html; charset=utf-8",
                "content-encoding": enc.replace("-raw", ""),
              },
            });
          }
          case "/big":
            return new Response("x".repeat(300_000), { headers: { "content-type": "text/plain" } });
          case "/big-chunked":
            return new Response(
              new ReadableStream({
                async pull(c) {
                  c.enqueue(new Uint8Array(64 * 1024).fill(65));
                  await Bun.sleep(1);
                },
              }),
              { headers: { "content-type": "text/plain" } },
            );
          case "/cp1252":
            // "Café – “quoted” €5" in windows-1252
            return new Response(
              new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80, 0x35]),
              { headers: { "content-type": "text/plain; charset=windows-1252" } },
            );
          case "/cp1252-meta": {
            const head = new TextEncoder().encode(
              '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body>',
            );
            const tail = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80]);
            return new Response(new Uint8Array([...head, ...tail]), {
              headers: { "content-type": "text/html" },
            });
          }
          case "/etag":
            if (req.headers.get("if-none-match") === '"v1"')
              return new Response(null, { status: 304, headers: { etag: '"v1"' } });
            return new Response("versioned", {
              headers: {
                "content-type": "text/plain",
                etag: '"v1"',
                "last-modified": "Sun, 01 Nov 2026 10:00:00 GMT",
              },
            });
          case "/to-disallowed":
            return new Response(null, { status: 302, headers: { location: "http://other.test/private/x" } });
          case "/bogus-charset":
            return new Response("h\u00e9llo", {
              headers: { "content-type": "text/plain; charset=x-no-such-charset" },
            });
          case "/image":
            return new Response(new Uint8Array(100), { headers: { "content-type": "image/png" } });
          case "/echo":
            return new Response(`${req.method} ${await req.text()}`, {
              headers: { "content-type": "text/plain" },
            });
          case "/post-image":
            return new Response(new Uint8Array(10), { headers: { "content-type": "image/gif" } });
          case "/post-redirect":
            return new Response(null, { status: 303, headers: { location: "/echo" } });
          default:
            return new Response("not found", { status: 404 });
        }
      } finally {
        active--;
      }
    },
  });
  outsider = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      outsiderSeen.push(new URL(req.url).pathname);
      return new Response("secret");
    },
  });
  // A raw server for misbehaviour Bun.serve cannot produce: a lying Content-Length, garbage, a reset.
  raw = createServer((sock) => {
    sockets.add(sock);
    sock.on("close", () => sockets.delete(sock));
    sock.on("error", () => {});
    sock.once("data", (d) => {
      const line = d.toString("latin1").split("\r\n")[0];
      if (line.includes("/short")) {
        sock.end("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 1000\r\n\r\nonly a little");
      } else if (line.includes("/garbage")) {
        sock.end("THIS IS NOT HTTP\r\n\r\n");
      } else if (line.includes("/reset")) {
        sock.resetAndDestroy();
      } else if (line.includes("/trickle")) {
        sock.write("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n");
        const t = setInterval(() => {
          if (sock.destroyed) clearInterval(t);
          else sock.write("1\r\nx\r\n");
        }, 50);
        sock.on("close", () => clearInterval(t));
      } else {
        sock.end("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok");
      }
    });
  });
  return new Promise<void>((resolve) =>
    raw.listen(0, "127.0.0.1", () => {
      rawPort = (raw.address() as { port: number }).port;
      resolve();
    }),
  );
});

afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
  site.stop(true);
  outsider.stop(true);
  for (const s of sockets) s.destroy();
  raw.close();
});

const siteOrigin = () => `http://127.0.0.1:${site.port}`;

function fetcher(extra: Partial<FetcherOptions> = {}) {
  const names = [
    "robotsredirect.test",
    "hugerobots.test",
    "site.test",
    "other.test",
    "slowrobots.test",
    "brokenrobots.test",
    "norobots.test",
    "a.test",
    "b.test",
  ];
  return createFetcher({
    userAgent: UA,
    delayMs: 0,
    rewrite: [
      ...names.map((n) => ({ from: `http://${n}`, to: siteOrigin() })),
      { from: "http://raw.test", to: `http://127.0.0.1:${rawPort}` },
    ],
    ...extra,
  });
}

const pathsFor = (host: string) => seen.filter((s) => s.host === host).map((s) => s.path);

function failed(r: FetchResult) {
  if (r.ok) throw new Error(`expected a failure, got ${r.status} for ${r.url}`);
  return r;
}
function succeeded(r: FetchResult) {
  if (!r.ok) throw new Error(`expected success, got ${r.error}: ${r.message}`);
  return r;
}

describe("fetching through the rewrite table", () => {
  test("a page: original URLs, Host header, User-Agent, robots.txt read first", async () => {
    const f = fetcher();
    const before = seen.length;
    const r = succeeded(await f.fetch({ url: "http://site.test/page" }));
    expect(r.url).toBe("http://site.test/page");
    expect(r.finalUrl).toBe("http://site.test/page");
    expect(r.status).toBe(200);
    expect(r.contentType).toBe("text/html");
    expect(r.text).toContain("hello from site.test/page");
    expect(r.redirects).toEqual([]);
    const mine = seen.slice(before);
    expect(mine.map((s) => s.path)).toEqual(["/robots.txt", "/page"]);
    expect(mine.every((s) => s.host === "site.test" && s.ua === UA)).toBe(true);
  });

  test("redirects keep original URLs, including a target that names its own address", async () => {
    const r = succeeded(await fetcher().fetch({ url: "http://site.test/chain" }));
    expect(r.finalUrl).toBe("http://other.test/page?x=1");
    expect(r.redirects).toEqual(["http://site.test/chain", "http://site.test/chain2"]);
    expect(r.text).toContain("hello from other.test/page");
    expect(JSON.stringify(r)).not.toContain("127.0.0.1");
  });

  test("a redirect loop ends after 5 redirects", async () => {
    const before = pathsFor("site.test").filter((p) => p.startsWith("/loop")).length;
    const r = failed(await fetcher().fetch({ url: "http://site.test/loop" }));
    expect(r.error).toBe("too_many_redirects");
    expect(pathsFor("site.test").filter((p) => p.startsWith("/loop")).length - before).toBe(6);
  });

  test("maxRedirects 0 follows none", async () => {
    const r = failed(await fetcher().fetch({ url: "http://site.test/loop", maxRedirects: 0 }));
    expect(r.error).toBe("too_many_redirects");
    expect(r.status).toBe(302);
    expect(r.message).toContain("HTTP 302");
  });

  test("HTTP errors are results with their status", async () => {
    const f = fetcher();
    const e = failed(await f.fetch({ url: "http://site.test/error" }));
    expect([e.error, e.status]).toEqual(["http_error", 500]);
    const g = failed(await f.fetch({ url: "http://site.test/gone" }));
    expect([g.error, g.status]).toEqual(["http_error", 410]);
    const n = failed(await f.fetch({ url: "http://site.test/nope" }));
    expect(n.status).toBe(404);
  });

  test("content that is not text is not read", async () => {
    const r = failed(await fetcher().fetch({ url: "http://site.test/image" }));
    expect(r.error).toBe("unsupported_content");
  });

  test("POST: no robots.txt, body sent; a 303 turns it into a GET", async () => {
    const before = seen.length;
    const r = succeeded(
      await fetcher().fetch({
        url: "http://a.test/echo",
        method: "POST",
        body: "hi",
        headers: { "content-type": "text/plain" },
      }),
    );
    expect(r.text).toBe("POST hi");
    expect(seen.slice(before).map((s) => s.path)).toEqual(["/echo"]);
    const s = succeeded(
      await fetcher().fetch({ url: "http://a.test/post-redirect", method: "POST", body: "hi" }),
    );
    expect(s.text).toBe("GET ");
  });

  test("invalid and non-http URLs", async () => {
    const f = fetcher();
    expect(failed(await f.fetch({ url: "not a url" })).error).toBe("invalid_url");
    expect(failed(await f.fetch({ url: "file:///etc/passwd" })).error).toBe("invalid_url");
    expect(failed(await f.fetch({ url: "http://user:pw@site.test/" })).error).toBe("invalid_url");
  });
});

describe("the address guard", () => {
  test("a redirect to a loopback literal is never requested", async () => {
    const r = failed(await fetcher().fetch({ url: "http://site.test/to-loopback" }));
    expect(r.error).toBe("blocked_address");
    expect(r.message).toBe("127.0.0.1 is not allowed: only public internet addresses are fetched");
    expect(outsiderSeen).toEqual([]);
  });

  test("a redirect to a name that resolves to loopback is never requested", async () => {
    const r = failed(await fetcher().fetch({ url: "http://site.test/to-localhost" }));
    expect(r.error).toBe("blocked_address");
    expect(outsiderSeen).toEqual([]);
  });

  test("private literals and v4-mapped metadata addresses are refused without a connection", async () => {
    const f = fetcher();
    expect(failed(await f.fetch({ url: "http://site.test/to-private" })).error).toBe("blocked_address");
    expect(failed(await f.fetch({ url: "http://site.test/to-metadata" })).error).toBe("blocked_address");
    expect(failed(await f.fetch({ url: `http://127.0.0.1:${outsider.port}/direct` })).error).toBe(
      "blocked_address",
    );
    expect(failed(await f.fetch({ url: `http://[::1]:${outsider.port}/direct` })).error).toBe(
      "blocked_address",
    );
    expect(outsiderSeen).toEqual([]);
  });

  test("one private answer among public ones refuses the host (no DNS rebinding by mixing)", async () => {
    const asked: string[] = [];
    const f = fetcher({
      resolve: async (host) => {
        asked.push(host);
        return ["93.184.216.34", "127.0.0.1"];
      },
    });
    const r = failed(await f.fetch({ url: `http://mixed.example:${outsider.port}/x`, robots: false }));
    expect(r.error).toBe("blocked_address");
    expect(asked).toEqual(["mixed.example"]);
    expect(outsiderSeen).toEqual([]);
  });

  test("a name look-up that never answers counts against the time limit", async () => {
    const f = fetcher({ timeoutMs: 200, resolve: () => new Promise<string[]>(() => {}) });
    const r = failed(await f.fetch({ url: "http://stuck.example/", robots: false }));
    expect(r.error).toBe("timeout");
  });

  test("a name that does not resolve is refused exactly like one that resolves to a private address", async () => {
    const logged: Record<string, unknown>[] = [];
    const answers: Record<string, string[]> = { "inside.example": ["10.1.2.3"], "nowhere.example": [] };
    const f = fetcher({ resolve: async (h) => answers[h] ?? [], log: (l) => logged.push(l) });
    const inside = failed(await f.fetch({ url: "http://inside.example/", robots: false }));
    const nowhere = failed(await f.fetch({ url: "http://nowhere.example/", robots: false }));
    expect([inside.error, nowhere.error]).toEqual(["blocked_address", "blocked_address"]);
    expect(inside.message).toBe("inside.example is not allowed: only public internet addresses are fetched");
    expect(nowhere.message).toBe(inside.message.replace("inside", "nowhere"));
    expect(JSON.stringify([inside, nowhere])).not.toContain("10.1.2.3");
    // The server log keeps what the caller is not told.
    expect(logged.map((l) => l.detail)).toEqual([
      "inside.example resolves to 10.1.2.3, not a public address",
      "nowhere.example does not resolve",
    ]);
  });

  test("one hostname rule: trailing dots, single labels and private suffixes are refused before any look-up", async () => {
    const asked: string[] = [];
    const f = fetcher({
      resolve: async (h) => {
        asked.push(h);
        return ["93.184.216.34"];
      },
      log: () => {},
    });
    for (const url of [
      `http://localhost.:${outsider.port}/`,
      "https://printer.local./",
      "http://metadata.google.internal./",
      "http://intranet/",
      "http://nas.home.arpa/",
      "http://0x7f.1/",
      "http://2130706433/",
      "http://[::ffff:127.0.0.1]/",
      `http://[::7f00:1]:${outsider.port}/`,
      `http://[::127.0.0.1]:${outsider.port}/`,
      `http://[64:ff9b::7f00:1]:${outsider.port}/`,
      "http://[::a9fe:a9fe]/latest/meta-data/",
    ]) {
      const r = failed(await f.fetch({ url, robots: false }));
      expect(`${url} ${r.error}`).toBe(`${url} blocked_address`);
      expect(r.message).toContain("is not allowed");
    }
    expect(asked).toEqual([]);
    expect(outsiderSeen).toEqual([]);
  });

  test("a connection that fails tells the caller only that the site could not be reached; the detail is logged", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const port = (probe.address() as { port: number }).port;
        probe.close(() => resolve(port));
      });
    });
    const logs: Record<string, unknown>[] = [];
    const f = fetcher({
      rewrite: [
        { from: "http://closed.test", to: `http://127.0.0.1:${closed}` },
        { from: "http://raw.test", to: `http://127.0.0.1:${rawPort}` },
      ],
      log: (l) => logs.push(l),
    });
    for (const [url, text] of [
      ["http://closed.test/", "closed.test could not be reached"],
      ["http://raw.test/reset", "raw.test could not be reached"],
      ["http://raw.test/garbage", "raw.test could not be reached"],
      ["http://raw.test/short", "the answer from raw.test could not be read to its end"],
    ]) {
      const r = failed(await f.fetch({ url, robots: false }));
      expect({ url, error: r.error, message: r.message }).toEqual({ url, error: "network", message: text });
      expect(r.message).not.toMatch(/127\.0\.0\.1|ECONN|refused|socket|\d{4,5}/i);
    }
    expect(JSON.stringify(logs)).toContain("ECONNREFUSED");
  });

  test("address classification: public unicast only", () => {
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "192.0.2.1",
      "198.18.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "2001:db8::1",
      "2002:a00:1::1",
      // IPv4 inside IPv6 is judged by the IPv4 address: IPv4-compatible (::/96), mapped, translated, NAT64.
      "::7f00:1",
      "::127.0.0.1",
      "::a9fe:a9fe",
      "::10.0.0.1",
      "::0.0.0.2",
      "::ffff:0:7f00:1",
      "64:ff9b::7f00:1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::808:808",
      "2002:7f00:1::1",
      "2002:808:808::1",
      "fe80::1%eth0",
      "127.1",
      "not an address",
    ])
      expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: false });
    for (const a of [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.216.34",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "172.32.0.1",
    ])
      expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: true });
  });
});

describe("time and size limits", () => {
  test("a response whose headers never come times out", async () => {
    const started = Date.now();
    const r = failed(await fetcher({ timeoutMs: 300 }).fetch({ url: "http://site.test/hang-headers" }));
    expect(r.error).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test("a body that never ends times out", async () => {
    const r = failed(await fetcher({ timeoutMs: 300 }).fetch({ url: "http://site.test/hang-body" }));
    expect(r.error).toBe("timeout");
  });

  test("a body that trickles forever times out", async () => {
    const r = failed(
      await fetcher({ timeoutMs: 400 }).fetch({ url: "http://raw.test/trickle", robots: false }),
    );
    expect(r.error).toBe("timeout");
  });

  test("a compression bomb (gzip, deflate, br, zstd) stops at the cap of decoded bytes", async () => {
    const f = fetcher({ maxBytes: 1024 * 1024 });
    for (const enc of Object.keys(BOMBS)) {
      Bun.gc(true);
      const rss = process.memoryUsage().rss;
      const r = failed(await f.fetch({ url: `http://site.test/bomb?enc=${enc}` }));
      expect({ enc, error: r.error }).toEqual({ enc, error: "too_large" });
      expect({ enc, grew: process.memoryUsage().rss - rss < 40 * 1024 * 1024 }).toEqual({ enc, grew: true });
    }
  });

  test("every accepted content coding is decoded; corrupt or unknown ones fail cleanly", async () => {
    const f = fetcher();
    for (const enc of ["gzip", "deflate", "deflate-raw", "br", "zstd"]) {
      const r = succeeded(await f.fetch({ url: `http://site.test/encoded?enc=${enc}` }));
      expect({ enc, text: r.text }).toEqual({ enc, text: "<p>h\u00e9llo, encoded</p>" });
    }
    const sent = seen.filter((x) => x.path.startsWith("/encoded")).at(-1)!;
    expect(sent.headers.get("accept-encoding")).toBe("gzip, deflate, br, zstd");
    for (const enc of ["gzip", "deflate", "br", "zstd"]) {
      const corrupt = failed(await f.fetch({ url: `http://site.test/encoded?enc=${enc}&corrupt=1` }));
      expect({ enc, error: corrupt.error }).toEqual({ enc, error: "network" });
    }
    const unknown = failed(await f.fetch({ url: "http://site.test/encoded?enc=compress" }));
    expect(unknown.error).toBe("unsupported_content");
  });

  test("a page over the cap, declared or streamed", async () => {
    const f = fetcher({ maxBytes: 100_000 });
    expect(failed(await f.fetch({ url: "http://site.test/big" })).error).toBe("too_large");
    expect(failed(await f.fetch({ url: "http://site.test/big-chunked" })).error).toBe("too_large");
    expect(succeeded(await f.fetch({ url: "http://site.test/big", maxBytes: 400_000 })).bytes).toBe(300_000);
  });

  test("broken servers are network failures, never exceptions", async () => {
    const f = fetcher({ timeoutMs: 2000 });
    for (const path of ["/short", "/garbage", "/reset"]) {
      const r = failed(await f.fetch({ url: `http://raw.test${path}`, robots: false }));
      expect({ path, error: r.error }).toEqual({ path, error: "network" });
    }
    const closed = failed(
      await fetcher({ rewrite: [{ from: "http://dead.test", to: "http://127.0.0.1:1" }] }).fetch({
        url: "http://dead.test/",
        robots: false,
      }),
    );
    expect(closed.error).toBe("network");
  });
});

describe("charsets", () => {
  test("windows-1252 from the Content-Type header", async () => {
    const r = succeeded(await fetcher().fetch({ url: "http://site.test/cp1252" }));
    expect(r.text).toBe("Café – “q” €5");
  });

  test("from <meta http-equiv> when the header has none (iso-8859-1 reads as windows-1252)", async () => {
    const r = succeeded(await fetcher().fetch({ url: "http://site.test/cp1252-meta" }));
    expect(r.text).toEndWith("Café €");
  });
});

describe("charsets, unknown labels", () => {
  test("an unknown charset label falls back to UTF-8", async () => {
    expect(succeeded(await fetcher().fetch({ url: "http://site.test/bogus-charset" })).text).toBe(
      "h\u00e9llo",
    );
  });
});

describe("conditional GET", () => {
  test("etag and last-modified come back; sent again, the answer is 304 Not Modified", async () => {
    const f = fetcher();
    const first = succeeded(await f.fetch({ url: "http://site.test/etag" }));
    expect(first.etag).toBe('"v1"');
    expect(first.lastModified).toBe("Sun, 01 Nov 2026 10:00:00 GMT");
    const again = succeeded(
      await f.fetch({ url: "http://site.test/etag", etag: first.etag, lastModified: first.lastModified }),
    );
    expect(again.notModified).toBe(true);
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.etag).toBe('"v1"');
    const last = seen.filter((s) => s.path === "/etag").at(-1)!;
    expect(last.headers.get("if-none-match")).toBe('"v1"');
    expect(last.headers.get("if-modified-since")).toBe("Sun, 01 Nov 2026 10:00:00 GMT");
  });
});

describe("robots.txt", () => {
  test("a disallowed URL is never requested; %xx paths are decoded before asking", async () => {
    const f = fetcher();
    const before = seen.length;
    for (const path of ["/private", "/private/x?y=1", "/%7Eadmin", "/~admin/a", "/caf%C3%A9", "/café"]) {
      const r = failed(await f.fetch({ url: `http://other.test${path}` }));
      expect({ path, error: r.error }).toEqual({ path, error: "robots_disallowed" });
    }
    expect(succeeded(await f.fetch({ url: "http://other.test/nobody" })).status).toBe(200);
    expect(seen.slice(before).map((s) => s.path)).toEqual(["/robots.txt", "/nobody"]);
  });

  test("a redirect into a disallowed path of another origin is not followed", async () => {
    const r = failed(await fetcher().fetch({ url: "http://site.test/to-disallowed" }));
    expect(r.error).toBe("robots_disallowed");
    expect(r.finalUrl).toBe("http://other.test/private/x");
    expect(seen.some((x) => x.path.startsWith("/private"))).toBe(false);
  });

  test("robots.txt redirected to a loopback address is not followed there and counts as absent", async () => {
    const r = succeeded(await fetcher().fetch({ url: "http://robotsredirect.test/page" }));
    expect(r.status).toBe(200);
    expect(outsiderSeen).toEqual([]);
  });

  test("a robots.txt over 500 KB is read up to 500 KB", async () => {
    const f = fetcher();
    expect(failed(await f.fetch({ url: "http://hugerobots.test/early" })).error).toBe("robots_disallowed");
    expect(succeeded(await f.fetch({ url: "http://hugerobots.test/page" })).status).toBe(200);
    const late = await f.fetch({ url: "http://hugerobots.test/late" });
    expect(late.ok ? "ok" : late.error).toBe("http_error"); // asked for (404), not refused by the cut-off rule
  });

  test("robots.txt is cached for a day, then read again", async () => {
    let now = Date.parse("2026-11-22T10:00:00Z");
    const f = fetcher({ clock: () => new Date(now) });
    const count = () => pathsFor("a.test").filter((p) => p === "/robots.txt").length;
    const before = count();
    await f.fetch({ url: "http://a.test/page" });
    await f.fetch({ url: "http://a.test/" });
    expect(count()).toBe(before + 1);
    now += 25 * 60 * 60 * 1000;
    await f.fetch({ url: "http://a.test/page" });
    expect(count()).toBe(before + 2);
  });

  test("an unreadable robots.txt (5xx) means nothing is fetched; a missing one allows all", async () => {
    const f = fetcher();
    const r = failed(await f.fetch({ url: "http://brokenrobots.test/page" }));
    expect(r.error).toBe("robots_disallowed");
    expect(r.message).toContain("503");
    expect(pathsFor("brokenrobots.test")).toEqual(["/robots.txt"]);
    expect(succeeded(await f.fetch({ url: "http://norobots.test/page" })).status).toBe(200);
  });

  test("Crawl-delay is honoured (up to 10 s) between requests to the host", async () => {
    let now = 0;
    const sleeps: number[] = [];
    const f = fetcher({
      clock: () => new Date(now),
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    await f.fetch({ url: "http://slowrobots.test/" });
    await f.fetch({ url: "http://slowrobots.test/page" });
    expect(sleeps).toEqual([3000, 3000]);
  });
});

describe("pacing", () => {
  test("one request at a time per host, with the delay between them; other hosts are not held up", async () => {
    let now = 0;
    const sleeps: number[] = [];
    const f = fetcher({
      delayMs: 1000,
      clock: () => new Date(now),
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    await f.fetch({ url: "http://b.test/" }); // robots.txt and the page, 1000 ms apart
    expect(sleeps).toEqual([1000]);
    maxActive = 0;
    const starts: number[] = [];
    const results = await Promise.all(
      ["/page", "/", "/page?2"].map(async (p) => {
        const r = await f.fetch({ url: `http://b.test${p}` });
        starts.push(now);
        return r;
      }),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(maxActive).toBe(1);
    expect(sleeps).toEqual([1000, 1000, 1000, 1000]);
    const order = pathsFor("b.test").slice(-3);
    expect(order).toEqual(["/page", "/", "/page?2"]);
  });

  test("a host with a longer least pause (the web archive's) waits it; other hosts keep the delay", async () => {
    let now = 0;
    const sleeps: number[] = [];
    const f = fetcher({
      delayMs: 0,
      hostDelays: { "a.test": 1000 },
      clock: () => new Date(now),
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    await f.fetch({ url: "http://a.test/" }); // robots.txt, then the page a second later
    await f.fetch({ url: "http://a.test/page" });
    expect(sleeps).toEqual([1000, 1000]);
    await f.fetch({ url: "http://b.test/" });
    await f.fetch({ url: "http://b.test/page" });
    expect(sleeps).toEqual([1000, 1000]);
  });

  test("different hosts run side by side", async () => {
    const f = fetcher({ delayMs: 0 });
    maxActive = 0;
    await Promise.all([
      f.fetch({ url: "http://a.test/page" }),
      f.fetch({ url: "http://other.test/page" }),
      f.fetch({ url: "http://site.test/page" }),
    ]);
    expect(maxActive).toBeGreaterThan(1);
  });
});

describe("configuration", () => {
  test("fetcherFor: one fetcher per configuration, with its rewrite table, pace and User-Agent", async () => {
    const config = loadConfig({
      RIVALS_BASE_URL: "https://rivals.example",
      RIVALS_FETCH_REWRITE: `http://configured.test=${siteOrigin()}`,
      RIVALS_FETCH_DELAY_MS: "0",
    });
    const f = fetcherFor(config);
    expect(fetcherFor(config)).toBe(f);
    const r = succeeded(await f.fetch({ url: "http://configured.test/page" }));
    expect(r.url).toBe("http://configured.test/page");
    const mine = seen.filter((x) => x.host === "configured.test");
    expect(mine.map((x) => x.path)).toEqual(["/robots.txt", "/page"]);
    expect(mine.every((x) => x.ua === "RivalsBot/1.0 (+https://rivals.example/bot)")).toBe(true);
  });

  test("RIVALS_FETCH_* variables", () => {
    const c = loadConfig({
      RIVALS_FETCH_REWRITE: "https://acme.example=http://127.0.0.1:8081, *=http://mirror.internal:9000",
      RIVALS_FETCH_DELAY_MS: "0",
      RIVALS_FETCH_TIMEOUT_MS: "2000",
      RIVALS_FETCH_MAX_BYTES: "1000",
    });
    expect(c.fetchRewrite).toEqual([
      { from: "https://acme.example", to: "http://127.0.0.1:8081" },
      { from: "*", to: "http://mirror.internal:9000" },
    ]);
    expect([c.fetchDelayMs, c.fetchTimeoutMs, c.fetchMaxBytes]).toEqual([0, 2000, 1000]);
    const d = loadConfig({});
    expect([d.fetchRewrite, d.fetchDelayMs, d.fetchTimeoutMs, d.fetchMaxBytes]).toEqual([
      [],
      1000,
      15000,
      5 * 1024 * 1024,
    ]);
    expect(() => loadConfig({ RIVALS_FETCH_DELAY_MS: "-1" })).toThrow("RIVALS_FETCH_DELAY_MS");
    expect(() => parseRewrite("https://a.example")).toThrow("FROM=TO");
    expect(() => parseRewrite("https://a.example/path=http://b")).toThrow("without a path");
    expect(() => parseRewrite("ftp://a=http://b")).toThrow("http or https");
  });
});

describe("DNS pinning", () => {
  // The guard resolves once and the request goes to the checked address. For https the original name must
  // still be the TLS server name (SNI) and the name the certificate is checked against: this runs the
  // target pinnedTarget builds against a TLS server on 127.0.0.1 whose certificate is for site.test only.
  const cert = readFileSync(`${import.meta.dir}/../../../fixtures/tls/site-test.cert.pem`, "utf8");
  const key = readFileSync(`${import.meta.dir}/../../../fixtures/tls/site-test.key.pem`, "utf8");

  test("http: the checked address in the URL, the name only in Host", () => {
    expect(pinnedTarget(new URL("http://acme.example:8080/a?b=1#c"), "93.184.216.34")).toEqual({
      href: "http://93.184.216.34:8080/a?b=1",
      tls: undefined,
    });
    expect(pinnedTarget(new URL("http://acme.example/"), "2606:4700::1").href).toBe("http://[2606:4700::1]/");
  });

  test("https: SNI and certificate check use the original name, not the address", async () => {
    const tlsServer = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      tls: { key, cert },
      fetch: (req) => new Response(`host=${req.headers.get("host")}`),
    });
    try {
      const target = pinnedTarget(new URL(`https://site.test:${tlsServer.port}/x`), "127.0.0.1");
      expect(target.href).toBe(`https://127.0.0.1:${tlsServer.port}/x`);
      expect(target.tls).toEqual({ serverName: "site.test" });
      const ok = await fetch(target.href, {
        headers: { host: `site.test:${tlsServer.port}` },
        tls: { ...target.tls, ca: cert },
      });
      expect(await ok.text()).toBe(`host=site.test:${tlsServer.port}`);
      // The same certificate presented for another name, or with no server name, is refused.
      const wrong = pinnedTarget(new URL(`https://evil.test:${tlsServer.port}/x`), "127.0.0.1");
      for (const tls of [{ ...wrong.tls, ca: cert }, { ca: cert }]) {
        const err = await fetch(wrong.href, { tls }).then(
          () => null,
          (e: { code?: string }) => e.code,
        );
        expect(err).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
      }
    } finally {
      tlsServer.stop(true);
    }
  });

  test("https: the server receives the original name as SNI", async () => {
    const names: string[] = [];
    const server = createTlsServer({
      key,
      cert,
      SNICallback: (name, cb) => {
        names.push(name);
        cb(null, undefined);
      },
    });
    server.on("secureConnection", (sock) =>
      sock.once("data", () =>
        sock.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok"),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const port = (server.address() as { port: number }).port;
    try {
      const target = pinnedTarget(new URL(`https://site.test:${port}/`), "127.0.0.1");
      const res = await fetch(target.href, {
        headers: { host: `site.test:${port}` },
        tls: { ...target.tls, ca: cert },
      });
      expect(await res.text()).toBe("ok");
      expect(names).toEqual(["site.test"]);
    } finally {
      server.close();
    }
  });
});
