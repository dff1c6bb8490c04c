// Strict-Transport-Security: on every answer of an installation served over https, never over plain http.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";

const PATHS: [string, RequestInit?][] = [
  ["/"],
  ["/signin"],
  ["/app"], // a redirect to sign-in
  ["/no-such-page", { headers: { accept: "text/html" } }],
  ["/api/v1/competitors"], // 401 problem details
  ["/.well-known/oauth-authorization-server"],
  ["/mcp", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }],
];

describe("behind https", () => {
  let t: TestServer;
  let local: string;
  beforeAll(async () => {
    t = await startTestServer({ RIVALS_BASE_URL: "https://rivals.example" });
    local = `http://127.0.0.1:${t.services.config.port}`;
  });
  afterAll(() => t.close());

  test("every answer carries HSTS for a year, subdomains left out", async () => {
    for (const [path, init] of PATHS) {
      const res = await fetch(local + path, { redirect: "manual", ...init });
      await res.arrayBuffer();
      expect([path, res.headers.get("strict-transport-security")]).toEqual([path, "max-age=31536000"]);
    }
  });
});

describe("over plain http", () => {
  test("no HSTS: a browser would keep refusing the site once it is served without TLS", async () => {
    const t = await startTestServer();
    try {
      for (const [path, init] of PATHS) {
        const res = await fetch(t.base + path, { redirect: "manual", ...init });
        await res.arrayBuffer();
        expect([path, res.headers.get("strict-transport-security")]).toEqual([path, null]);
      }
    } finally {
      await t.close();
    }
  });
});
