// POST /mcp is rate limited with the read API's sliding window (src/http/rateLimit.ts): per credential, and
// per client address for requests without a valid credential (public tools, the handshake, bad tokens).
// Over the budget: HTTP 429, Retry-After and a JSON-RPC error body. Real server, injected clock.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RateLimiter } from "../../src/http/rateLimit.ts";
import { RATE_LIMITED_CODE } from "../../src/mcp/endpoint.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { rawPost, toolsCall } from "../support/mcp-helpers.ts";

const LIMIT = 5;
let t: TestServer;
let keyA: string;
let keyB: string;
beforeAll(async () => {
  t = await startTestServer({ RIVALS_MCP_RATE_LIMIT: String(LIMIT), RIVALS_RATE_LIMIT: "3" });
  await t.org("acme");
  keyA = await t.key("acme");
  keyB = await t.key("acme");
});
afterAll(() => t.close());

const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
/** Moves past every window, so each test starts with full budgets. */
const nextMinute = () => t.clock.advance(61_000);

async function expectLimited(r: Response, who: "credential" | "address") {
  expect(r.status).toBe(429);
  expect(r.headers.get("content-type")).toStartWith("application/json");
  const retry = Number(r.headers.get("retry-after"));
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
  expect(r.headers.get("ratelimit-limit")).toBe(String(LIMIT));
  expect(r.headers.get("ratelimit-remaining")).toBe("0");
  const body = (await r.json()) as any;
  expect(body.jsonrpc).toBe("2.0");
  expect(body.id).toBeNull();
  expect(body.error.code).toBe(RATE_LIMITED_CODE);
  expect(body.error.message).toContain(`more than ${LIMIT} tool endpoint requests in one minute`);
  expect(body.error.message).toContain(`from this ${who}`);
}

describe("per credential", () => {
  test("the budget is spent per call, then 429 until the window frees a slot", async () => {
    nextMinute();
    for (let i = 0; i < LIMIT; i++) {
      const r = await rawPost(t.base, toolsCall("list_competitors"), bearer(keyA));
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit-limit")).toBe(String(LIMIT));
      expect(r.headers.get("ratelimit-remaining")).toBe(String(LIMIT - i - 1));
      const body = (await r.json()) as any;
      expect(body.result.structuredContent.competitors).toEqual([]);
      t.clock.advance(1000);
    }
    await expectLimited(await rawPost(t.base, toolsCall("list_competitors"), bearer(keyA)), "credential");
    // Retry-After is when the oldest call leaves the window: 60 s after it, 5 s have passed.
    const again = await rawPost(t.base, toolsCall("list_competitors"), bearer(keyA));
    expect(again.headers.get("retry-after")).toBe("55");
    await again.arrayBuffer();
    t.clock.advance(55_000);
    expect((await rawPost(t.base, toolsCall("list_competitors"), bearer(keyA))).status).toBe(200);
  });

  test("another credential from the same address has its own budget", async () => {
    nextMinute();
    for (let i = 0; i < LIMIT; i++)
      expect((await rawPost(t.base, toolsCall("list_competitors"), bearer(keyA))).status).toBe(200);
    await expectLimited(await rawPost(t.base, toolsCall("list_competitors"), bearer(keyA)), "credential");
    expect((await rawPost(t.base, toolsCall("list_competitors"), bearer(keyB))).status).toBe(200);
    // …and so do public calls without a credential from that address.
    expect((await rawPost(t.base, toolsCall("search_guides"))).status).toBe(200);
  });

  test("every request counts, the handshake and refused calls too; a batch counts each message", async () => {
    nextMinute();
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    expect((await rawPost(t.base, init, bearer(keyA))).status).toBe(200);
    const unknown = await rawPost(t.base, toolsCall("no_such_tool"), bearer(keyA));
    expect(unknown.headers.get("ratelimit-remaining")).toBe(String(LIMIT - 2));
    await unknown.arrayBuffer();
    const batch = [toolsCall("list_competitors", {}, 1), toolsCall("list_competitors", {}, 2)];
    const r = await rawPost(t.base, batch, bearer(keyA));
    expect(r.headers.get("ratelimit-remaining")).toBe(String(LIMIT - 4));
    await r.arrayBuffer();
    // One unit left: a batch of three spends it as a request, then its other two messages do not fit.
    const big = [1, 2, 3].map((id) => toolsCall("list_competitors", {}, id));
    await expectLimited(await rawPost(t.base, big, bearer(keyA)), "credential");
    await expectLimited(await rawPost(t.base, toolsCall("list_competitors"), bearer(keyA)), "credential");
  });

  test("the read API's budget is separate", async () => {
    nextMinute();
    for (let i = 0; i < 3; i++) expect((await t.get("/api/v1/competitors", bearer(keyA))).status).toBe(200);
    expect((await t.get("/api/v1/competitors", bearer(keyA))).status).toBe(429);
    expect((await rawPost(t.base, toolsCall("list_competitors"), bearer(keyA))).status).toBe(200);
  });
});

describe("per address without a credential", () => {
  test("public tools are limited per address; a credential from that address is not", async () => {
    nextMinute();
    for (let i = 0; i < LIMIT; i++) {
      const r = await rawPost(t.base, toolsCall("search_public_briefs"));
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit-remaining")).toBe(String(LIMIT - i - 1));
    }
    await expectLimited(await rawPost(t.base, toolsCall("search_public_briefs")), "address");
    expect((await rawPost(t.base, toolsCall("search_public_briefs"), bearer(keyA))).status).toBe(200);
  });

  test("a refused token spends the address's budget, so guessing tokens is limited too", async () => {
    nextMinute();
    for (let i = 0; i < LIMIT; i++) {
      const r = await rawPost(t.base, toolsCall("list_competitors"), bearer(`rvl_wrong${i}`));
      expect(r.status).toBe(401);
    }
    await expectLimited(
      await rawPost(t.base, toolsCall("list_competitors"), bearer("rvl_wrong_again")),
      "address",
    );
    // Malformed bodies count too.
    await expectLimited(await rawPost(t.base, "{not json"), "address");
  });

  test("behind a proxy (RIVALS_TRUST_PROXY) the address is the forwarded one", async () => {
    const p = await startTestServer({ RIVALS_MCP_RATE_LIMIT: "2", RIVALS_TRUST_PROXY: "1" });
    try {
      const from = (ip: string) => ({ "x-forwarded-for": ip });
      for (let i = 0; i < 2; i++)
        expect((await rawPost(p.base, toolsCall("search_guides"), from("203.0.113.7"))).status).toBe(200);
      expect((await rawPost(p.base, toolsCall("search_guides"), from("203.0.113.7"))).status).toBe(429);
      expect((await rawPost(p.base, toolsCall("search_guides"), from("203.0.113.8"))).status).toBe(200);
    } finally {
      await p.close();
    }
  });
});

describe("documented where agents look", () => {
  test("get_plan_and_limits reports the budgets", async () => {
    nextMinute();
    const r = await rawPost(t.base, toolsCall("get_plan_and_limits"), bearer(keyA));
    const body = (await r.json()) as any;
    expect(body.result.structuredContent.rate_limits).toEqual({
      tool_calls_per_minute: LIMIT,
      read_api_requests_per_minute: 3,
    });
  });

  test("the server card names the budget", async () => {
    const card = (await (await t.get("/.well-known/mcp/server-card.json")).json()) as any;
    expect(card._meta["rivals/rate-limits"]).toMatchObject({
      window_seconds: 60,
      requests_per_credential: LIMIT,
      requests_per_address_without_credential: LIMIT,
    });
  });
});

describe("RateLimiter with a cost", () => {
  test("a cost passes only when all of it fits, and says when it will", () => {
    let now = 0;
    const l = new RateLimiter(3, () => new Date(now));
    expect(l.take("k").allowed).toBe(true); // t=0
    now = 10_000;
    const two = l.take("k", 2); // t=10: full
    expect(two).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 50 });
    now = 20_000;
    // Two units free when the calls at 0 and 10 have left: at 70 s, 50 s from now.
    expect(l.take("k", 2)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 50 });
    expect(l.take("k", 1)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 40 });
    expect(l.take("k", 4).allowed).toBe(false);
    now = 60_001;
    expect(l.take("k", 1).allowed).toBe(true);
  });
});
