// The read cache over a remote libSQL server (sqld): cached like a local file, this process's writes visible
// to the very next request, another instance's within FRESHNESS_MS of their commit (src/db/queries/cache.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { FRESHNESS_MS } from "../../src/db/queries/cache.ts";
import { listSignals } from "../../src/db/queries/signals.ts";
import { createApiKey, parseScopes, revokeApiKey } from "../../src/domain/apiKeys.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { createOrg } from "../../src/domain/orgs.ts";
import { openServices, type Services } from "../../src/services.ts";
import { freePort } from "../e2e/harness.ts";
import { type Sqld, startSqld } from "../support/sqld.ts";

let dir: string;
let sqld: Sqld;
let url: string;
let a: Services; // serves HTTP
let b: Services; // another instance on the same server
let app: { stop(close?: boolean): Promise<unknown> };
let base: string;
let key: string;
let orgId: number;
const auth = () => ({ authorization: `Bearer ${key}` });
const get = (path: string, headers: Record<string, string> = auth()) => fetch(base + path, { headers });
const titles = async () =>
  ((await (await get("/api/v1/signals")).json()).data as { title: string }[]).map((s) => s.title);
const signal = (k: string, title: string) =>
  JSON.stringify({ kind: "signal", org: "acme", key: k, competitor: "c1", title });
/** Waits until the bound has passed since `committed` (a performance.now() taken after the commit). */
const afterBound = (committed: number) =>
  Bun.sleep(Math.max(0, committed + FRESHNESS_MS + 1 - performance.now()));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-sqld-"));
  sqld = await startSqld(dir);
  url = sqld.url;
  const httpPort = await freePort();
  base = `http://127.0.0.1:${httpPort}`;
  a = await openServices(loadConfig({ RIVALS_DB: url, PORT: String(httpPort), RIVALS_BASE_URL: base }));
  b = await openServices(loadConfig({ RIVALS_DB: url, RIVALS_BASE_URL: base }));
  const created = createApp(a);
  created.app.listen({ port: httpPort, hostname: "127.0.0.1" });
  app = created.app;
  orgId = (await createOrg(a.store, { slug: "acme", name: "ACME", plan: "growth" })).id;
  key = (await createApiKey(a.store, "acme", "test", parseScopes(undefined))).token;
  await importNdjson(
    a.store,
    [
      JSON.stringify({ kind: "competitor", org: "acme", key: "c1", name: "Globex" }),
      signal("s1", "First"),
    ].join("\n"),
  );
}, 30_000);

afterAll(async () => {
  await app?.stop(true);
  a?.close();
  b?.close();
  await sqld?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("reads from a remote server are cached: the same object twice", async () => {
  const first = await listSignals(a.database.db, orgId, { limit: 50, offset: 0 }, base);
  expect(first.map((s) => s.title)).toEqual(["First"]);
  expect(await listSignals(a.database.db, orgId, { limit: 50, offset: 0 }, base)).toBe(first);
});

test("this instance's write is visible to the very next request", async () => {
  expect(await titles()).toEqual(["First"]);
  for (let i = 0; i < 3; i++) {
    await importNdjson(a.store, signal(`own${i}`, `Own ${i}`));
    expect(await titles()).toContain(`Own ${i}`);
  }
});

test(`another instance's writes are visible within ${FRESHNESS_MS} ms of their commit`, async () => {
  for (let i = 0; i < 3; i++) {
    const before = await (await get("/api/v1/signals")).text();
    expect(await (await get("/api/v1/signals")).text()).toBe(before);
    await importNdjson(b.store, signal(`other${i}`, `Other ${i}`));
    await afterBound(performance.now());
    expect(await titles()).toContain(`Other ${i}`);
  }
});

test(`a key revoked by another instance is refused within ${FRESHNESS_MS} ms`, async () => {
  const extra = await createApiKey(a.store, "acme", "extra", parseScopes(undefined));
  const extraAuth = { authorization: `Bearer ${extra.token}` };
  expect((await get("/api/v1/competitors", extraAuth)).status).toBe(200);
  await revokeApiKey(b.store, "acme", extra.id);
  await afterBound(performance.now());
  expect((await get("/api/v1/competitors", extraAuth)).status).toBe(401);
});
