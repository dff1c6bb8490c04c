// The OAuth endpoints' budgets per address (src/oauth/routes.ts, through the HTTP kit's rate limit): 30
// registrations and 300 token or revocation requests a minute; over a budget, 429 temporarily_unavailable as an
// OAuth error, with Retry-After and the CORS headers every answer of these endpoints carries. Real server,
// injected clock.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const register = () =>
  fetch(`${t.base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/callback"], client_name: "Budget" }),
  });

const revoke = () =>
  fetch(`${t.base}/oauth/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "token=rvo_nothing&client_id=nobody",
  });

test("the 31st registration in a minute is refused as an OAuth error; the token endpoints keep their own budget", async () => {
  t.clock.advance(61_000);
  for (let i = 0; i < 30; i++) {
    const r = await register();
    expect(r.status).toBe(201);
    if (i === 29) expect(r.headers.get("ratelimit-remaining")).toBe("0");
    await r.arrayBuffer();
  }
  const refused = await register();
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(refused.headers.get("access-control-allow-origin")).toBe("*");
  expect(refused.headers.get("cache-control")).toBe("no-store");
  expect(await refused.json()).toEqual({
    error: "temporarily_unavailable",
    error_description: "Too many requests from this address; retry later.",
  });
  // revocation shares the token endpoint's budget, not registration's: an unknown client, not a refusal
  const other = await revoke();
  expect(other.status).toBe(401);
  expect(((await other.json()) as { error: string }).error).toBe("invalid_client");
  // a minute later registration is open again
  t.clock.advance(61_000);
  expect((await register()).status).toBe(201);
});
