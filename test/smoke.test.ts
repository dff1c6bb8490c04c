import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/helpers.ts";

let t: TestServer;
let key: string;
beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme");
  key = await t.key("acme");
  await t.load([
    {
      kind: "competitor",
      org: "acme",
      key: "c1",
      name: "Globex",
      website_url: "https://globex.example",
      priority: 1,
    },
    {
      kind: "signal",
      org: "acme",
      key: "s1",
      competitor: "c1",
      title: "Globex raises prices",
      first_seen_at: "2026-11-01T00:00:00Z",
    },
  ]);
});
afterAll(() => t.close());

test("lists the tracked competitor with its app link", async () => {
  const r = await t.get("/api/v1/competitors", { authorization: `Bearer ${key}` });
  expect(r.status).toBe(200);
  const body = await r.json();
  expect(body.data).toHaveLength(1);
  expect(body.data[0].name).toBe("Globex");
  expect(body.data[0].url).toBe(`${t.base}/app/competitors/${body.data[0].id}`);
});

test("q matches case-insensitively through the trigram index", async () => {
  const r = await t.get("/api/v1/signals?q=RAISES", { "x-api-key": key });
  expect((await r.json()).data.map((s: { title: string }) => s.title)).toEqual(["Globex raises prices"]);
});
