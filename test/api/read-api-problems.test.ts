import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { expectProblem, type Ids, startFixtureServer } from "../support/read-api-fixture.ts";

let t: TestServer;
let key: string;
let ids: Ids;
beforeAll(async () => ({ t, key, ids } = await startFixtureServer()));
afterAll(() => t.close());

const TITLES: Record<string, string> = {
  invalid_request: "Invalid request",
  invalid_api_key: "API key missing or not valid",
  paid_plan_required: "Paid plan required",
  not_found: "Not found",
  rate_limited: "Too many requests",
  internal_error: "Internal error",
};

async function call(path: string, headers: Record<string, string> = {}) {
  const r = await t.get(path, headers);
  const text = await r.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: r.status, headers: r.headers, body, text };
}

describe("problem details", () => {
  test("each code has a fixed title, its status, a hint, the instance and the request id", async () => {
    const cases: [string, Record<string, string>, string, number][] = [
      ["/api/v1/signals?since=nope", { "x-api-key": key }, "invalid_request", 400],
      ["/api/v1/signals?page=0", { "x-api-key": key }, "invalid_request", 400],
      ["/api/v1/competitors", {}, "invalid_api_key", 401],
      ["/api/v1/competitors", { "x-api-key": "bad" }, "invalid_api_key", 401],
      ["/api/v1/competitors/1", { "x-api-key": key }, "not_found", 404],
      ["/api/v1/digests/nope", { "x-api-key": key }, "not_found", 404],
    ];
    const hints = new Map<string, unknown>();
    for (const [path, headers, code, status] of cases) {
      const r = await call(path, headers);
      expectProblem(r as never, t.base, code, status);
      expect(r.body!.title).toBe(TITLES[code]);
      expect(r.body!.instance).toBe(path.split("?")[0]);
      expect(r.body!.request_id).toBe(r.headers.get("x-request-id")!);
      if (hints.has(code)) expect(r.body!.hint).toBe(hints.get(code));
      hints.set(code, r.body!.hint);
    }
  });

  test("request ids differ per request", async () => {
    const a = await call("/api/v1/competitors/1", { "x-api-key": key });
    const b = await call("/api/v1/competitors/1", { "x-api-key": key });
    expect(a.body!.request_id).not.toBe(b.body!.request_id);
  });

  test("successful responses are application/json with a request id", async () => {
    const r = await t.get("/api/v1/competitors", { "x-api-key": key });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("application/json");
    expect(r.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("missing pages", () => {
  test.each([
    "/nope",
    "/api/v2/x",
    "/api/v1",
    "/api/v1/",
    "/api/v1/nope",
    "/api/v1/competitors/1/signals",
    "/api/v1/signals/1/evidence",
    "/api/v1/digests/a/b",
    "/app/nothing/here",
    "/developers/nothing",
    "/%E2%98%83",
  ])("a JSON request for %s is 404 not_found problem details", async (path) => {
    const variants: Record<string, string>[] = [
      { accept: "application/json" },
      {},
      { accept: "*/*" },
      { "x-api-key": key },
    ];
    for (const headers of variants) {
      const r = await call(path, headers);
      expectProblem(r as never, t.base, "not_found", 404);
      expect(r.body!.title).toBe("Not found");
    }
  });

  test.each(["POST", "PUT", "PATCH", "DELETE"])(
    "%s on a read endpoint is 404 not_found saying the API answers GET, with Allow",
    async (method) => {
      for (const path of ["/api/v1/competitors", "/api/v1/signals/1"]) {
        const r = await fetch(t.base + path, {
          method,
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: "{}",
        });
        const body = (await r.json()) as Record<string, string>;
        expectProblem({ status: r.status, headers: r.headers, body }, t.base, "not_found", 404);
        expect(body.detail).toBe(`The read API answers GET only; nothing is served for ${method} ${path}.`);
        expect(r.headers.get("allow")).toBe("GET, HEAD");
      }
    },
  );

  test("a browser asking for HTML outside /api gets a page; under /api it still gets problem details", async () => {
    const html = await t.get("/nope", { accept: "text/html,application/xhtml+xml" });
    expect(html.status).toBe(404);
    const api = await call("/api/v2/x", { accept: "text/html" });
    expectProblem(api as never, t.base, "not_found", 404);
  });

  test("a non-numeric integer path id is 404", async () => {
    for (const base of ["/api/v1/competitors/", "/api/v1/signals/", "/api/v1/battlecards/"]) {
      for (const v of ["abc", "1.5", "1e3", "0x10", "+1", "%201", "-1", "9".repeat(30), "NaN", "Infinity"]) {
        const r = await call(base + v, { "x-api-key": key });
        expectProblem(r as never, t.base, "not_found", 404);
      }
    }
  });

  test("a hex, exponent or signed form of a real id does not find the record", async () => {
    const id = ids.competitors.alpha;
    expect((await call(`/api/v1/competitors/${id}`, { "x-api-key": key })).status).toBe(200);
    for (const v of [`0x${id.toString(16)}`, `+${id}`, `${id}.0`, id.toExponential(), `%20${id}`]) {
      const r = await call(`/api/v1/competitors/${v}`, { "x-api-key": key });
      expectProblem(r as never, t.base, "not_found", 404);
    }
  });
});

describe("long input", () => {
  test("a long id is 404 and a q over 500 characters is 400 naming q", async () => {
    const longId = await call(`/api/v1/competitors/${"9".repeat(6000)}`, { "x-api-key": key });
    expectProblem(longId as never, t.base, "not_found", 404);
    const longSlug = await call(`/api/v1/digests/${"a".repeat(6000)}`, { "x-api-key": key });
    expectProblem(longSlug as never, t.base, "not_found", 404);
    const longQ = await call(`/api/v1/signals?q=${"x".repeat(6000)}`, { "x-api-key": key });
    expectProblem(longQ as never, t.base, "invalid_request", 400);
    expect(longQ.body!.detail).toContain("q");
    const okQ = await call(`/api/v1/signals?q=${"x".repeat(500)}`, { "x-api-key": key });
    expect(okQ.status).toBe(200);
  });
});

describe("internal errors", () => {
  test("a server failure is 500 internal_error that leaks nothing", async () => {
    const broken = await startTestServer();
    const errors = spyOn(console, "error").mockImplementation(() => {});
    try {
      await broken.org("acme");
      const k = await broken.key("acme");
      await broken.services.database.client.execute("DROP TABLE battlecards");
      const r = await broken.get("/api/v1/battlecards", { "x-api-key": k });
      const text = await r.text();
      const body = JSON.parse(text);
      expectProblem({ status: r.status, headers: r.headers, body }, broken.base, "internal_error", 500);
      expect(body.title).toBe("Internal error");
      for (const leak of ["battlecards", "SQLITE", "sqlite", "table", "at ", ".ts", "stack"])
        expect(body.detail).not.toContain(leak);
      expect(text).not.toContain("SQLITE");
      expect(text).not.toContain("no such table");
      // The failure is logged with the request id the client can quote.
      expect(errors.mock.calls.some((c) => String(c[0]).includes(body.request_id))).toBe(true);
    } finally {
      errors.mockRestore();
      await broken.close();
    }
  });
});
