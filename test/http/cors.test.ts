// The read API's CORS policy: only the origins in RIVALS_CORS_ORIGINS may call it from a browser (checked
// in a real Chromium with pages on two loopback origins), preflights are answered as the Fetch standard
// expects, and with no origin configured no response says anything about CORS.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { launchChromium } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let plain: TestServer;
let key: string;
let allowed: ReturnType<typeof Bun.serve>;
let other: ReturnType<typeof Bun.serve>;
let context: BrowserContext;
let profile: string;

/** A page server: its origin is what the browser sends as Origin. */
const pageServer = () =>
  Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response("<!doctype html><title>client</title>", { headers: { "content-type": "text/html" } }),
  });

beforeAll(async () => {
  allowed = pageServer();
  other = pageServer();
  t = await startTestServer({ RIVALS_CORS_ORIGINS: `http://127.0.0.1:${allowed.port}` });
  await t.org("acme", "growth");
  key = await t.key("acme");
  plain = await startTestServer();
  profile = mkdtempSync(join(tmpdir(), "rivals-chromium-"));
  context = await launchChromium(profile, { width: 800, height: 600 });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await Promise.all([t?.close(), plain?.close()]);
  allowed?.stop(true);
  other?.stop(true);
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** What a script on `origin` gets from the API with the key in a header (a preflighted request). */
async function callFrom(origin: string, api: string, apiKey: string) {
  const page = await context.newPage();
  try {
    await page.goto(origin);
    return await page.evaluate(
      async ([url, k]) => {
        try {
          const r = await fetch(url, { headers: { authorization: `Bearer ${k}` } });
          const body = await r.json();
          return { ok: true, status: r.status, limit: r.headers.get("ratelimit-limit"), n: body.data.length };
        } catch (e) {
          return { ok: false, error: String(e) };
        }
      },
      [`${api}/api/v1/competitors`, apiKey] as const,
    );
  } finally {
    await page.close();
  }
}

describe("in a browser", () => {
  test("a page on an allowed origin reads the API and its exposed headers", async () => {
    const r = await callFrom(`http://127.0.0.1:${allowed.port}/`, t.base, key);
    expect(r).toEqual({ ok: true, status: 200, limit: "600", n: 0 });
  }, 30_000);

  test("a page on any other origin cannot read it", async () => {
    const r = await callFrom(`http://127.0.0.1:${other.port}/`, t.base, key);
    expect(r.ok).toBe(false);
    expect(r.error).toContain("Failed to fetch");
  }, 30_000);
});

describe("over HTTP", () => {
  const preflight = (base: string, origin: string, method = "GET") =>
    fetch(`${base}/api/v1/signals`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": method,
        "access-control-request-headers": "authorization",
      },
    });

  test("a preflight from an allowed origin: 204 with the methods, headers and max age", async () => {
    const origin = `http://127.0.0.1:${allowed.port}`;
    const r = await preflight(t.base, origin);
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-origin")).toBe(origin);
    expect(r.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
    expect(r.headers.get("access-control-allow-headers")).toBe("Authorization, X-API-Key, If-None-Match");
    expect(r.headers.get("access-control-max-age")).toBe("600");
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
    expect(r.headers.get("vary")).toBe("Origin");
    // Preflights are not counted: they carry no key.
    expect(r.headers.get("ratelimit-remaining")).toBeNull();
  });

  test("a preflight from another origin, or for a method the API does not serve, allows nothing", async () => {
    for (const r of [
      await preflight(t.base, `http://127.0.0.1:${other.port}`),
      await preflight(t.base, `http://127.0.0.1:${allowed.port}`, "DELETE"),
      await preflight(plain.base, `http://127.0.0.1:${allowed.port}`),
    ]) {
      expect(r.status).toBe(204);
      expect(r.headers.get("access-control-allow-origin")).toBeNull();
      expect(r.headers.get("access-control-allow-methods")).toBeNull();
    }
  });

  test("actual responses, errors included, name the allowed origin only", async () => {
    const origin = `http://127.0.0.1:${allowed.port}`;
    const ok = await t.get("/api/v1/competitors", { origin, authorization: `Bearer ${key}` });
    expect(ok.headers.get("access-control-allow-origin")).toBe(origin);
    expect(ok.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
    const unauthorized = await t.get("/api/v1/competitors", { origin });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe(origin);
    const stranger = await t.get("/api/v1/competitors", {
      origin: `http://127.0.0.1:${other.port}`,
      authorization: `Bearer ${key}`,
    });
    expect(stranger.status).toBe(200);
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull();
    expect(stranger.headers.get("vary")).toBe("Origin");
  });

  test("with no allowed origin (the default) no response carries a CORS header", async () => {
    const pk = await (async () => {
      await plain.org("acme", "growth");
      return plain.key("acme");
    })();
    const r = await plain.get("/api/v1/competitors", {
      origin: "https://evil.example",
      authorization: `Bearer ${pk}`,
    });
    expect(r.status).toBe(200);
    for (const h of ["access-control-allow-origin", "access-control-expose-headers", "vary"])
      expect(r.headers.get(h)).toBeNull();
  });

  test("an OPTIONS request that is not a preflight gets the GET-only answer", async () => {
    const r = await fetch(`${t.base}/api/v1/signals`, { method: "OPTIONS" });
    expect(r.status).toBe(404);
    expect(r.headers.get("allow")).toBe("GET, HEAD");
    expect((await r.json()).code).toBe("not_found");
  });
});
