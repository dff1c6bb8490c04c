// Conditional GET on the read API: every success carries an ETag of its exact body and `private, no-cache`;
// If-None-Match with the current tag answers 304 with no body, and any change to what the request reads
// gives a new tag. Authentication and the rate limit apply to 304s as to any request.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestServer } from "../support/helpers.ts";
import {
  expectProblem,
  fixtureLines,
  type Ids,
  ORG,
  startFixtureServer,
} from "../support/read-api-fixture.ts";

let t: TestServer;
let key: string;
let ids: Ids;
beforeAll(async () => ({ t, key, ids } = await startFixtureServer()));
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  t.get(path, { authorization: `Bearer ${key}`, ...headers });

async function etagOf(path: string): Promise<string> {
  const r = await get(path);
  expect(r.status).toBe(200);
  await r.arrayBuffer();
  return r.headers.get("etag")!;
}

test("a success carries a quoted ETag and private, no-cache; the same body gives the same tag", async () => {
  const a = await get("/api/v1/signals");
  const b = await get("/api/v1/signals");
  expect(a.headers.get("etag")).toMatch(/^"[0-9a-z-]+"$/);
  expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
  expect(a.headers.get("cache-control")).toBe("private, no-cache");
  expect(await a.text()).toBe(await b.text());
});

test("If-None-Match with the current tag is 304 with no body, the tag and the usual headers", async () => {
  for (const path of [
    "/api/v1/competitors",
    `/api/v1/competitors/${ids.competitors.alpha}`,
    "/api/v1/signals?severity=high",
    `/api/v1/signals/${ids.signals.a1}`,
    "/api/v1/digests",
    "/api/v1/battlecards",
  ]) {
    const etag = await etagOf(path);
    const r = await get(path, { "if-none-match": etag });
    expect({ path, status: r.status }).toEqual({ path, status: 304 });
    expect(await r.text()).toBe("");
    expect(r.headers.get("etag")).toBe(etag);
    expect(r.headers.get("cache-control")).toBe("private, no-cache");
    expect(r.headers.get("x-request-id")).toBeTruthy();
    expect(r.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
  }
});

test("weak, listed and * forms match; another tag does not", async () => {
  const etag = await etagOf("/api/v1/competitors");
  for (const inm of [`W/${etag}`, `"nope", ${etag}`, "*"])
    expect((await get("/api/v1/competitors", { "if-none-match": inm })).status).toBe(304);
  const other = await get("/api/v1/competitors", { "if-none-match": '"nope"' });
  expect(other.status).toBe(200);
  expect(((await other.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
});

test("each page has its own tag", async () => {
  const tags = new Set([
    await etagOf("/api/v1/signals?per_page=1&page=1"),
    await etagOf("/api/v1/signals?per_page=1&page=2"),
    await etagOf("/api/v1/signals?per_page=2&page=1"),
  ]);
  expect(tags.size).toBe(3);
});

test("a change to what the request reads gives a new tag, and the old one a full 200", async () => {
  const path = `/api/v1/signals/${ids.signals.a1}`;
  const before = await etagOf(path);
  const line = fixtureLines(ORG).find((l) => l.kind === "signal" && l.key === "a1")!;
  const report = await t.load([{ ...line, title: "Alpha raises prices again" }]);
  expect(report.errors).toEqual([]);
  const r = await get(path, { "if-none-match": before });
  expect(r.status).toBe(200);
  expect(((await r.json()) as { data: { title: string } }).data.title).toBe("Alpha raises prices again");
  expect(r.headers.get("etag")).not.toBe(before);
});

test("no key is 401 whatever If-None-Match says", async () => {
  const etag = await etagOf("/api/v1/competitors");
  const r = await t.get("/api/v1/competitors", { "if-none-match": etag });
  const body = (await r.json()) as Record<string, unknown>;
  expectProblem({ status: r.status, headers: r.headers, body }, t.base, "invalid_api_key", 401);
});
