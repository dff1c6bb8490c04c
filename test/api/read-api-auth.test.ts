import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newApiKey } from "../../src/auth/tokens.ts";
import { createApiKey, parseScopes, revokeApiKey } from "../../src/domain/apiKeys.ts";
import { setPlan } from "../../src/domain/orgs.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { expectProblem, type Ids, ORG, startFixtureServer } from "../support/read-api-fixture.ts";

let t: TestServer;
let key: string;
let ids: Ids;
beforeAll(async () => ({ t, key, ids } = await startFixtureServer()));
afterAll(() => t.close());

const call = async (headers: Record<string, string>, path = "/api/v1/competitors") => {
  const r = await t.get(path, headers);
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
};

function expect401(r: Awaited<ReturnType<typeof call>>) {
  expectProblem(r, t.base, "invalid_api_key", 401);
  expect(r.body.title).toBe("API key missing or not valid");
  expect(r.headers.get("www-authenticate")).toMatch(/^Bearer( |$)/);
}

/** Flips one character of the checksum: well-shaped, but refused without a lookup. */
function badChecksum(token: string): string {
  const last = token.at(-1)!;
  return token.slice(0, -1) + (last === "a" ? "b" : "a");
}

function allPaths(): string[] {
  return [
    "/api/v1/competitors",
    `/api/v1/competitors/${ids.competitors.alpha}`,
    "/api/v1/signals",
    `/api/v1/signals/${ids.signals.a1}`,
    "/api/v1/digests",
    "/api/v1/digests/week-45",
    "/api/v1/battlecards",
    `/api/v1/battlecards/${ids.battlecards["bc-alpha"]}`,
  ];
}

describe("credentials", () => {
  test("Bearer and X-API-Key are equivalent on every endpoint", async () => {
    for (const p of allPaths()) {
      const a = await call({ authorization: `Bearer ${key}` }, p);
      const b = await call({ "x-api-key": key }, p);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.body).toEqual(a.body);
    }
  });

  test("the Bearer scheme name is case-insensitive", async () => {
    expect((await call({ authorization: `bearer ${key}` })).status).toBe(200);
    expect((await call({ authorization: `BEARER ${key}` })).status).toBe(200);
  });

  test("when both headers are sent, Authorization wins", async () => {
    expect((await call({ authorization: `Bearer ${key}`, "x-api-key": "junk" })).status).toBe(200);
    expect401(await call({ authorization: "Bearer junk", "x-api-key": key }));
    expect401(await call({ authorization: `Basic ${btoa("user:pw")}`, "x-api-key": key }));
  });

  test("a missing key is 401 with a Bearer challenge on every endpoint (before any 404)", async () => {
    for (const p of [
      ...allPaths(),
      "/api/v1/competitors/0x10",
      "/api/v1/competitors/abc",
      "/api/v1/digests/nope",
    ])
      expect401(await call({}, p));
  });

  test.each([
    ["malformed", "not-a-key"],
    ["empty bearer", ""],
    ["prefix only", "rvl_"],
    ["wrong prefix", `xyz_${"A".repeat(49)}`],
    ["too long", `${"k"}${"A".repeat(300)}`],
  ])("%s key is 401", async (_, token) => {
    expect401(await call({ authorization: `Bearer ${token}` }));
    expect401(await call({ "x-api-key": token }));
  });

  test("a key with a wrong checksum is 401", async () => {
    expect401(await call({ authorization: `Bearer ${badChecksum(key)}` }));
    expect401(await call({ "x-api-key": badChecksum(key) }));
  });

  test("a well-formed key nobody issued is 401", async () => {
    expect401(await call({ authorization: `Bearer ${newApiKey()}` }));
  });

  test("a non-Bearer Authorization scheme is 401", async () => {
    expect401(await call({ authorization: key }));
    expect401(await call({ authorization: `Token ${key}` }));
  });

  test("revocation takes effect on the next request", async () => {
    const k = await createApiKey(t.services.store, ORG, "to revoke", parseScopes(undefined));
    expect((await call({ authorization: `Bearer ${k.token}` })).status).toBe(200);
    await revokeApiKey(t.services.store, ORG, k.id);
    expect401(await call({ authorization: `Bearer ${k.token}` }));
    expect401(await call({ "x-api-key": k.token }, `/api/v1/signals/${ids.signals.a1}`));
    // Other keys of the org keep working.
    expect((await call({ authorization: `Bearer ${key}` })).status).toBe(200);
  });
});

describe("plans", () => {
  test("trial and free organizations get 402 paid_plan_required; a plan change takes effect at once", async () => {
    for (const plan of ["trial", "free"]) {
      await setPlan(t.services.store, ORG, plan);
      for (const p of allPaths()) {
        const r = await call({ authorization: `Bearer ${key}` }, p);
        expectProblem(r, t.base, "paid_plan_required", 402);
        expect(r.body.title).toBe("Paid plan required");
        expect(r.body.detail).not.toContain(key);
      }
    }
    for (const plan of ["starter", "growth", "enterprise"]) {
      await setPlan(t.services.store, ORG, plan);
      expect((await call({ authorization: `Bearer ${key}` })).status).toBe(200);
    }
  });

  test("an invalid key on a free organization is still 401, not 402", async () => {
    await setPlan(t.services.store, ORG, "free");
    try {
      expect401(await call({ authorization: `Bearer ${badChecksum(key)}` }));
    } finally {
      await setPlan(t.services.store, ORG, "growth");
    }
  });

  test("a new trial organization's key is 402", async () => {
    await t.org("trialco", "trial");
    const k = await t.key("trialco");
    expectProblem(await call({ "x-api-key": k }), t.base, "paid_plan_required", 402);
  });
});

describe("rate limit", () => {
  let r5: TestServer;
  let k5: string;
  beforeAll(async () => {
    r5 = await startTestServer({ RIVALS_RATE_LIMIT: "5" });
    await r5.org("acme");
    k5 = await r5.key("acme");
  });
  afterAll(() => r5.close());

  test("the 6th request in a minute is 429 with Retry-After; the window slides with the clock", async () => {
    const h = { authorization: `Bearer ${k5}` };
    for (let i = 0; i < 5; i++) {
      const r = await r5.get("/api/v1/competitors", h);
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit-limit")).toBe("5");
      expect(r.headers.get("ratelimit-remaining")).toBe(String(4 - i));
      expect(r.headers.get("ratelimit-reset")).toMatch(/^\d+$/);
    }
    const r = await r5.get("/api/v1/competitors", h);
    const body = await r.json();
    expectProblem({ status: r.status, headers: r.headers, body }, r5.base, "rate_limited", 429);
    expect(body.title).toBe("Too many requests");
    const retry = r.headers.get("retry-after")!;
    expect(retry).toMatch(/^\d+$/);
    expect(Number(retry)).toBeGreaterThanOrEqual(1);
    expect(Number(retry)).toBeLessThanOrEqual(60);

    r5.clock.advance(60_000);
    const again = await r5.get("/api/v1/competitors", h);
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit-remaining")).toBe("4");
  });

  test("sliding window: Retry-After counts down to when the oldest request leaves the window", async () => {
    r5.clock.advance(120_000);
    const h = { "x-api-key": k5 };
    for (let i = 0; i < 3; i++) expect((await r5.get("/api/v1/signals", h)).status).toBe(200);
    r5.clock.advance(30_000);
    for (let i = 0; i < 2; i++) expect((await r5.get("/api/v1/signals", h)).status).toBe(200);
    r5.clock.advance(1_000);
    const blocked = await r5.get("/api/v1/signals", h);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toBe("29");
    r5.clock.advance(29_000);
    for (let i = 0; i < 3; i++) expect((await r5.get("/api/v1/signals", h)).status).toBe(200);
    expect((await r5.get("/api/v1/signals", h)).status).toBe(429);
  });

  test("unauthenticated requests count too, and a 429 comes before the key check", async () => {
    r5.clock.advance(120_000);
    for (let i = 0; i < 5; i++) expect((await r5.get("/api/v1/competitors")).status).toBe(401);
    const r = await r5.get("/api/v1/competitors", { authorization: `Bearer ${k5}` });
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("60");
  });
});
