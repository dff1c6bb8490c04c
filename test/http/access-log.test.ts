// RIVALS_ACCESS_LOG=1: one JSON line per request on stdout with the real status (errors included), the
// request id the client got, and the path without its query string; never a credential or a query secret.
import { afterAll, beforeAll, expect, spyOn, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let key: string;
const lines: string[] = [];
const log = spyOn(console, "log").mockImplementation((...a: unknown[]) => {
  lines.push(a.map(String).join(" "));
});
beforeAll(async () => {
  t = await startTestServer({ RIVALS_ACCESS_LOG: "1" });
  await t.org("acme");
  key = await t.key("acme");
});
afterAll(async () => {
  log.mockRestore();
  await t.close();
});

/** The access-log line of the response with this request id (written just after the response is sent). */
async function lineFor(r: Response): Promise<Record<string, unknown>> {
  await r.arrayBuffer();
  const id = r.headers.get("x-request-id");
  expect(id).toBeTruthy();
  for (let i = 0; i < 50; i++) {
    const hit = lines.map((l) => JSON.parse(l)).find((o) => o.request_id === id);
    if (hit) return hit;
    await Bun.sleep(5);
  }
  throw new Error(`no access-log line for ${id}`);
}

test("successes and every kind of failure are logged with their real status", async () => {
  const cases: [string, RequestInit, number][] = [
    ["/api/v1/competitors", { headers: { "x-api-key": key } }, 200],
    ["/api/v1/signals?since=nope", { headers: { "x-api-key": key } }, 400],
    ["/api/v1/competitors", { headers: { "x-api-key": "rvl_wrong" } }, 401],
    ["/api/v1/signals/999999", { headers: { "x-api-key": key } }, 404],
    ["/no/such/page", {}, 404],
    ["/api/v1/competitors", { method: "POST" }, 404],
    ["/healthz", {}, 200],
  ];
  for (const [path, init, status] of cases) {
    const r = await fetch(t.base + path, init);
    expect(r.status).toBe(status);
    const line = await lineFor(r);
    expect(line).toMatchObject({
      level: "info",
      method: init.method ?? "GET",
      path: path.split("?")[0],
      status,
      time: t.clock.now.toISOString(),
    });
    expect(typeof line.ms).toBe("number");
  }
});

test("no key, token or query string ever appears in the log", async () => {
  await lineFor(await t.get("/api/v1/signals?q=secret-words", { authorization: `Bearer ${key}` }));
  await lineFor(await t.get("/signin/sso/callback?code=oidc-code-123&state=s"));
  const all = lines.join("\n");
  for (const secret of [key, "secret-words", "oidc-code-123"]) expect(all).not.toContain(secret);
});
