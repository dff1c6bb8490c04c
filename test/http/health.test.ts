// GET /healthz: 200 while the database answers, without a key and outside the read API's rate limit; a
// database that does not answer is 500 internal_error that shows nothing internal.
import { afterAll, beforeAll, expect, spyOn, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { expectProblem } from "../support/read-api-fixture.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ RIVALS_RATE_LIMIT: "2" });
});
afterAll(() => t.close());

test("answers ok with the version, uncached, needing no key and never rate limited", async () => {
  for (let i = 0; i < 5; i++) {
    const r = await t.get("/healthz");
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(await r.json()).toEqual({ status: "ok", version: "1.0.0" });
  }
});

test("a database that does not answer is 500 internal_error, nothing internal shown", async () => {
  const down = await startTestServer();
  const errors = spyOn(console, "error").mockImplementation(() => {});
  try {
    down.services.database.client.close();
    const r = await down.get("/healthz");
    const text = await r.text();
    expectProblem(
      { status: r.status, headers: r.headers, body: JSON.parse(text) },
      down.base,
      "internal_error",
      500,
    );
    expect(text).not.toMatch(/closed|libsql|sqlite|at \//i);
    expect(errors).toHaveBeenCalled();
  } finally {
    errors.mockRestore();
    await down.close().catch(() => {});
  }
});
