// The one sliding-window limiter (src/http/rateLimit.ts): exact counts, runs of same-millisecond requests,
// batch costs, and when a refused request may retry; and as a plugin, over a real loopback server.
import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import { clientAddresses } from "../../src/http/address.ts";
import { problemDetails } from "../../src/http/errors.ts";
import { RateLimiter, rateLimit, rateLimitHeaders } from "../../src/http/rateLimit.ts";

function clockAt(start: number) {
  const c = { now: start, clock: () => new Date(c.now) };
  return c;
}

test("counts exactly within a sliding minute, same-millisecond requests included", () => {
  const c = clockAt(1_000_000);
  const l = new RateLimiter(3, c.clock);
  expect(l.take("a").remaining).toBe(2);
  expect(l.take("a").remaining).toBe(1); // same millisecond: one run of two
  c.now += 10_000;
  expect(l.take("a").remaining).toBe(0);
  c.now += 5_000;
  const refused = l.take("a");
  expect(refused.allowed).toBe(false);
  // The two oldest (t = 0) leave the window at t = 60 s: 45 s from now.
  expect(refused.resetSeconds).toBe(45);
  expect(l.take("b").allowed).toBe(true); // keys are separate
  c.now = 1_000_000 + 60_000; // the first run is exactly a window old: out
  const after = l.take("a");
  expect(after.allowed).toBe(true);
  expect(after.remaining).toBe(1); // the t = 10 s request and this one
  expect(l.take("a").remaining).toBe(0);
  expect(l.take("a").allowed).toBe(false);
});

test("a batch passes only when all its units fit; a cost above the limit waits a whole window", () => {
  const c = clockAt(5_000_000);
  const l = new RateLimiter(5, c.clock);
  expect(l.take("k", 3).allowed).toBe(true);
  c.now += 20_000;
  expect(l.take("k").allowed).toBe(true);
  const big = l.take("k", 3); // 4 + 3 > 5: two units must free, both from the first run
  expect(big.allowed).toBe(false);
  expect(big.resetSeconds).toBe(40);
  c.now += 1;
  const frees = l.take("k", 2); // 4 + 2 > 5: one unit must free, from the first run (t = 0)
  expect(frees.resetSeconds).toBe(40);
  expect(l.take("k", 6).resetSeconds).toBe(60);
  c.now = 5_000_000 + 60_000;
  expect(l.take("k", 4).allowed).toBe(true); // the batch of 3 left; 1 + 4 = 5
  expect(l.take("k").allowed).toBe(false);
});

test("a key's memory stays bounded by the window's milliseconds under a flood", () => {
  const c = clockAt(9_000_000);
  const l = new RateLimiter(1_000_000_000, c.clock);
  for (let ms = 0; ms < 120_000; ms += 1) {
    for (let i = 0; i < 5; i++) l.take("flood");
    c.now += 1;
  }
  const w = (
    l as unknown as { windows: Map<string, { times: number[]; head: number; total: number }> }
  ).windows.get("flood");
  expect(w?.total).toBe(300_000); // the last minute's requests, counted exactly
  expect((w?.times.length ?? 0) - (w?.head ?? 0)).toBe(60_000); // one run per millisecond
  expect(w?.times.length).toBeLessThan(130_000);
});

test("the plugin: the routes after it count per address and are refused 429 over the budget; others are not", async () => {
  const c = clockAt(1_000_000);
  const limited = new Elysia().use(rateLimit(new RateLimiter(2, c.clock), false)).get("/counted", () => "ok");
  const app = new Elysia()
    .use(clientAddresses(false))
    .use(
      problemDetails(
        { config: { baseUrl: "http://localhost", trustProxy: false }, clock: c.clock },
        async () => new Response(""),
      ),
    )
    .get("/free", () => "ok")
    .use(limited);
  app.listen({ port: 0, hostname: "127.0.0.1" });
  try {
    const url = `http://127.0.0.1:${app.server!.port}`;
    const first = await fetch(`${url}/counted`);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-limit")).toBe("2");
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    expect((await fetch(`${url}/counted`)).status).toBe(200);
    const refused = await fetch(`${url}/counted`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(((await refused.json()) as { code: string }).code).toBe("rate_limited");
    const free = await fetch(`${url}/free`);
    expect(free.status).toBe(200);
    expect(free.headers.has("ratelimit-limit")).toBe(false);
  } finally {
    await app.stop();
  }
});

test("the plugin with a surface's own key and refusal: budgets by what the key says, refused in the surface's format", async () => {
  const c = clockAt(2_000_000);
  const limited = new Elysia()
    .use(
      rateLimit(new RateLimiter(1, c.clock), false, {
        key: async (request, address) => request.headers.get("x-client") ?? `address:${address}`,
        refuse: (d, request) =>
          Response.json(
            { error: "slow_down", who: request.headers.get("x-client"), retry: d.resetSeconds },
            { status: 429, headers: rateLimitHeaders(d) },
          ),
      }),
    )
    .post("/counted", () => "ok", { parse: "none" });
  const app = new Elysia()
    .use(clientAddresses(false))
    .use(
      problemDetails(
        { config: { baseUrl: "http://localhost", trustProxy: false }, clock: c.clock },
        async () => new Response(""),
      ),
    )
    .use(limited);
  app.listen({ port: 0, hostname: "127.0.0.1" });
  try {
    const url = `http://127.0.0.1:${app.server!.port}/counted`;
    const post = (client?: string) =>
      fetch(url, { method: "POST", headers: client ? { "x-client": client } : {}, body: "x" });
    expect((await post("a")).status).toBe(200);
    // another key from the same address has its own budget
    const b = await post("b");
    expect(b.status).toBe(200);
    expect(b.headers.get("ratelimit-remaining")).toBe("0");
    const refused = await post("a");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    // the refusal as the surface wrote it, with the request id every answer carries
    expect(await refused.json()).toEqual({ error: "slow_down", who: "a", retry: 60 });
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(429);
  } finally {
    await app.stop();
  }
});
