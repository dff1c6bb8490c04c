// Log flooding: requests a client breaks — a malformed chunked body, an upload cut off — are
// logged at most once per client address per minute, at warn, with the request id; nothing a client
// sends makes the log grow faster. Raw TCP sockets against the real server; the server's log lines are
// read from the console it writes to; the clock is the injected one.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { Elysia } from "elysia";
import { ClientLog, clientLog, clientLogOf } from "../../src/http/clientLog.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let port: number;
beforeAll(async () => {
  t = await startTestServer({ RIVALS_RATE_LIMIT: "1000000", RIVALS_MCP_RATE_LIMIT: "1000000" });
  port = Number(new URL(t.base).port);
});
afterAll(() => t.close());

/** Every line the server writes through console while a test runs, by level. */
let lines: { method: string; text: string }[] = [];
const saved = { log: console.log, warn: console.warn, error: console.error, info: console.info };
beforeEach(() => {
  lines = [];
  for (const m of ["log", "warn", "error", "info"] as const)
    console[m] = (...args: unknown[]) => {
      lines.push({ method: m, text: args.map(String).join(" ") });
    };
});
afterEach(() => Object.assign(console, saved));

/** Sends raw bytes and returns what came back before the server closed (or a short wait ended). */
function raw(data: string, waitMs = 1500): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    const s = connect(port, "127.0.0.1", () => s.write(data));
    const done = () => {
      clearTimeout(timer);
      resolve(out);
    };
    const timer = setTimeout(() => {
      s.destroy();
      done();
    }, waitMs);
    s.on("data", (d) => {
      out += d.toString();
    });
    s.on("close", done);
    s.on("error", done);
  });
}

const chunked = (path: string, type: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n0\r\n\r\n`;

const TARGETS: [string, string][] = [
  ["/mcp", "application/json"],
  ["/oauth/token", "application/x-www-form-urlencoded"],
  ["/oauth/register", "application/json"],
  ["/oauth/revoke", "application/x-www-form-urlencoded"],
  ["/oauth/authorize", "application/x-www-form-urlencoded"],
  ["/signin", "application/x-www-form-urlencoded"],
  ["/signup", "application/x-www-form-urlencoded"],
];

/** Lets the server finish the handlers of requests whose connections are already closed. */
const settle = () => Bun.sleep(100);

const parsed = () => lines.map((l) => ({ ...l, json: JSON.parse(l.text) as Record<string, unknown> }));

describe("malformed chunked bodies", () => {
  test("twenty from one address, to every endpoint that reads a body: one warn line, no error", async () => {
    t.clock.advance(120_000);
    for (let i = 0; i < 20; i++) {
      const [path, type] = TARGETS[i % TARGETS.length];
      const answer = await raw(chunked(path, type));
      expect(answer).toStartWith("HTTP/1.1 400 Bad Request\r\n");
    }
    await settle();
    const out = parsed();
    expect(out.filter((l) => l.method === "error")).toEqual([]);
    expect(out).toHaveLength(1);
    const [line] = out;
    expect(line.method).toBe("warn");
    expect(line.json).toMatchObject({
      level: "warn",
      event: "malformed_request",
      address: "127.0.0.1",
      method: "POST",
      time: t.clock.now.toISOString(),
    });
    expect(line.json.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(String(line.json.reason)).toContain("could not be read");
    expect(line.json.suppressed).toBeUndefined();
  });

  test("the next minute gets one more line, saying how many were held back", async () => {
    t.clock.advance(120_000);
    for (let i = 0; i < 5; i++) await raw(chunked("/mcp", "application/json"));
    t.clock.advance(30_000);
    for (let i = 0; i < 5; i++) await raw(chunked("/oauth/token", "application/x-www-form-urlencoded"));
    await settle();
    expect(lines).toHaveLength(1);
    t.clock.advance(31_000);
    await raw(chunked("/signin", "application/x-www-form-urlencoded"));
    await settle();
    const out = parsed();
    expect(out).toHaveLength(2);
    expect(out[1].method).toBe("warn");
    expect(out[1].json.suppressed).toBe(9);
  });

  test("an upload cut off mid-body counts the same", async () => {
    t.clock.advance(120_000);
    for (let i = 0; i < 10; i++)
      await raw(
        'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
        150,
      );
    await settle();
    const out = parsed();
    expect(out.filter((l) => l.method === "error")).toEqual([]);
    expect(out.length).toBeLessThanOrEqual(1);
  });

  test("a well-formed bad body is still answered, not logged as an error", async () => {
    t.clock.advance(120_000);
    for (let i = 0; i < 10; i++) {
      const r = await fetch(`${t.base}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: "{not json",
      });
      expect(r.status).toBe(400);
      await r.arrayBuffer();
    }
    await settle();
    expect(lines.filter((l) => l.method === "error")).toEqual([]);
  });
});

describe("malformed request lines (Bun's parser, docs/operations.md: 505 from Bun)", () => {
  test.each([
    ["a NUL in the path", "GET /a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["a bare LF", "GET / HTTP/1.1\nHost: x\n\n"],
    ["HTTP/9.9", "GET / HTTP/9.9\r\nHost: x\r\n\r\n"],
  ])("%s: 505 from Bun, no body, no request id, nothing logged", async (_what, request) => {
    const answer = await raw(request);
    expect(answer).toBe("HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\n\r\n");
    await settle();
    expect(lines).toEqual([]);
  });
});

describe("ClientLog", () => {
  test("failures and malformed requests are held to one line a minute each, per address", () => {
    let now = Date.parse("2026-11-20T12:00:00Z");
    const log = new ClientLog(() => new Date(now));
    for (let i = 0; i < 50; i++) {
      log.failure("198.51.100.1", { request_id: `r${i}`, path: "/x", error: "Error: boom" });
      log.malformed("198.51.100.1", { request_id: `m${i}`, reason: "bad" });
      log.malformed("198.51.100.2", { request_id: `o${i}`, reason: "bad" });
    }
    const out = parsed();
    expect(out.map((l) => [l.method, l.json.event, l.json.address, l.json.request_id])).toEqual([
      ["error", "request_failed", "198.51.100.1", "r0"],
      ["warn", "malformed_request", "198.51.100.1", "m0"],
      ["warn", "malformed_request", "198.51.100.2", "o0"],
    ]);
    now += 60_001;
    log.failure("198.51.100.1", { request_id: "late", path: "/x", error: "Error: boom" });
    expect(parsed()[3].json).toMatchObject({ request_id: "late", suppressed: 49, level: "error" });
  });
});

describe("the client-log plugin", () => {
  test("routes after it get the service's one log on their context; what a surface catches is logged by the error hook's rules", async () => {
    let now = Date.parse("2026-11-21T12:00:00Z");
    const s = { clock: () => new Date(now) };
    const app = new Elysia()
      .use(clientLog(s))
      .post(
        "/caught",
        async ({ request, clientLog }) => {
          const error = request.headers.get("x-cut")
            ? new DOMException("The connection was closed.", "AbortError")
            : new Error("boom");
          return clientLog.caught(request, "198.51.100.7", "req-1", error);
        },
        { parse: "none" },
      )
      .get("/same", ({ clientLog }) => String(clientLog === clientLogOf(s)));
    app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const url = `http://127.0.0.1:${app.server!.port}`;
      expect(await (await fetch(`${url}/same`)).text()).toBe("true");
      const post = (cut: boolean) =>
        fetch(`${url}/caught`, { method: "POST", headers: cut ? { "x-cut": "1" } : {}, body: "x" });
      expect(await (await post(true)).text()).toBe("malformed");
      expect(await (await post(false)).text()).toBe("failure");
      expect(await (await post(false)).text()).toBe("failure"); // answered, but held back from the log
      const out = parsed();
      expect(out.map((l) => [l.method, l.json.event, l.json.request_id, l.json.path])).toEqual([
        ["warn", "malformed_request", "req-1", "/caught"],
        ["error", "request_failed", "req-1", "/caught"],
      ]);
      expect(String(out[1].json.error)).toContain("Error: boom");
      now += 60_001;
      await post(false);
      expect(parsed()[2].json).toMatchObject({ event: "request_failed", suppressed: 1 });
    } finally {
      await app.stop();
    }
  });
});
