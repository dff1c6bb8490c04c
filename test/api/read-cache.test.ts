// The read cache (src/db/queries/cache.ts): a write in this process is visible to the very next request; a
// write from another process (a CLI command, another instance) within FRESHNESS_MS (50 ms) of its commit; and
// unchanged data is served from memory. test/api/read-cache-remote.test.ts holds the same for a libSQL server.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { createClient } from "@libsql/client";
import { loadConfig } from "../../src/config.ts";
import { cacheOf, dataVersion, FRESHNESS_MS, Freshness, jsonOf } from "../../src/db/queries/cache.ts";
import { listCompetitors } from "../../src/db/queries/competitors.ts";
import { listSignals } from "../../src/db/queries/signals.ts";
import { createApiKey, parseScopes, revokeApiKey } from "../../src/domain/apiKeys.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { openServices } from "../../src/services.ts";
import { runProcess } from "../e2e/harness.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

const root = resolve(import.meta.dir, "..", "..");
let t: TestServer;
let key: string;
let orgId: number;
const auth = () => ({ authorization: `Bearer ${key}` });

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.org("acme")).id;
  key = await t.key("acme");
  await t.load([
    { kind: "competitor", org: "acme", key: "c1", name: "Globex", priority: 1 },
    { kind: "signal", org: "acme", key: "s1", competitor: "c1", title: "First move" },
  ]);
});
afterAll(() => t.close());

/** Runs one write against the test server's database from another process (what a CLI command does). */
async function otherProcess(op: string, arg: unknown) {
  const script = `
    import { loadConfig } from "${root}/src/config.ts";
    import { openServices } from "${root}/src/services.ts";
    import { importNdjson } from "${root}/src/domain/imports.ts";
    import { revokeApiKey } from "${root}/src/domain/apiKeys.ts";
    import { setPlan } from "${root}/src/domain/orgs.ts";
    import { rebuildProjections } from "${root}/projections/rebuild.ts";
    const s = await openServices(loadConfig());
    const arg = ${JSON.stringify(arg ?? null)};
    const ops = {
      import: () => importNdjson(s.store, arg),
      revoke: () => revokeApiKey(s.store, "acme", arg),
      plan: () => setPlan(s.store, "acme", arg),
      rebuild: () => rebuildProjections(s.store),
    };
    console.log(JSON.stringify(await ops[${JSON.stringify(op)}]()));
    s.close();
  `;
  const { code, stdout, stderr } = await runProcess([process.execPath, "-e", script], {
    cwd: root, // Bun takes the JSX settings from ./tsconfig.json
    env: { ...process.env, RIVALS_DB: t.services.config.dbUrl },
  });
  if (code !== 0) throw new Error(`${op} exited ${code}: ${stderr}`);
  // Its commit came before it exited; the bound runs from the commit.
  await Bun.sleep(FRESHNESS_MS + 1);
  return JSON.parse(stdout);
}

const titles = async () =>
  ((await (await t.get("/api/v1/signals", auth())).json()).data as { title: string }[]).map((s) => s.title);

test("unchanged data is served from the cache: the same object twice", async () => {
  const db = t.services.database.db;
  const a = await listSignals(db, orgId, { limit: 50, offset: 0 }, t.base);
  const b = await listSignals(db, orgId, { limit: 50, offset: 0 }, t.base);
  expect(b).toBe(a);
  // Different arguments are different entries.
  const other = await listSignals(db, orgId, { limit: 1, offset: 0 }, t.base);
  expect(other).not.toBe(a);
  expect(await listCompetitors(db, orgId, "http://elsewhere")).not.toBe(
    await listCompetitors(db, orgId, t.base),
  );
});

test("a write in this process is visible to the next request", async () => {
  expect(await titles()).toEqual(["First move"]);
  await t.load([{ kind: "signal", org: "acme", key: "s2", competitor: "c1", title: "Second move" }]);
  expect((await titles()).sort()).toEqual(["First move", "Second move"]);
  await t.load([{ kind: "signal", org: "acme", key: "s2", competitor: "c1", title: "Second move, renamed" }]);
  expect((await titles()).sort()).toEqual(["First move", "Second move, renamed"]);
});

test("an import from another process is visible within the bound", async () => {
  expect(await titles()).not.toContain("From the CLI");
  const report = await otherProcess(
    "import",
    JSON.stringify({ kind: "signal", org: "acme", key: "s3", competitor: "c1", title: "From the CLI" }),
  );
  expect(report.applied).toBe(1);
  expect(await titles()).toContain("From the CLI");
});

test("a key revoked and a plan changed from another process apply within the bound", async () => {
  const other = await createApiKey(t.services.store, "acme", "other", parseScopes(undefined));
  const otherAuth = { authorization: `Bearer ${other.token}` };
  expect((await t.get("/api/v1/competitors", otherAuth)).status).toBe(200);
  await otherProcess("revoke", other.id);
  expect((await t.get("/api/v1/competitors", otherAuth)).status).toBe(401);

  await otherProcess("plan", "free");
  expect((await t.get("/api/v1/competitors", auth())).status).toBe(402);
  await otherProcess("plan", "growth");
  expect((await t.get("/api/v1/competitors", auth())).status).toBe(200);
});

test("projections rebuild from another process: reads within the bound see the rebuilt tables", async () => {
  const before = await (await t.get("/api/v1/signals", auth())).text();
  const v = await dataVersion(t.services.database.client);
  await otherProcess("rebuild", null);
  expect(await dataVersion(t.services.database.client)).not.toBe(v);
  expect(await (await t.get("/api/v1/signals", auth())).text()).toBe(before);
});

test("this process's commit moves the data version at once; another connection's within the bound", async () => {
  const client = t.services.database.client;
  const v1 = await dataVersion(client);
  expect(typeof v1).toBe("number");
  expect(await dataVersion(client)).toBe(v1);
  await t.load([{ kind: "competitor", org: "acme", key: "c2", name: "Initech" }]);
  const v2 = await dataVersion(client);
  expect(v2).not.toBe(v1);
  // Nothing committed, nothing moves, however long one waits.
  await Bun.sleep(FRESHNESS_MS + 5);
  expect(await dataVersion(client)).toBe(v2);
  // Another connection to the same file (what another process has): seen once the bound has passed.
  const other = createClient({ url: t.services.config.dbUrl });
  await other.execute("UPDATE data_changes SET n = n + 1");
  const committed = performance.now();
  other.close();
  await Bun.sleep(Math.max(0, committed + FRESHNESS_MS + 1 - performance.now()));
  expect(await dataVersion(client)).not.toBe(v2);
});

test(`another process's writes are read within ${FRESHNESS_MS} ms of their commit, and cached in between`, async () => {
  // A second set of services on the same file is another writer with its own connection and cache, as a
  // CLI command or a second instance is.
  const other = await openServices(loadConfig({ RIVALS_DB: t.services.config.dbUrl }));
  try {
    const extra = await createApiKey(t.services.store, "acme", "bound", parseScopes(undefined));
    const extraAuth = { authorization: `Bearer ${extra.token}` };
    for (let i = 0; i < 5; i++) {
      const before = await (await t.get("/api/v1/signals", auth())).text();
      // Served from the cache: the same bytes, the same ETag, while nothing changes.
      expect(await (await t.get("/api/v1/signals", auth())).text()).toBe(before);
      await importNdjson(
        other.store,
        JSON.stringify({
          kind: "signal",
          org: "acme",
          key: `bound${i}`,
          competitor: "c1",
          title: `Bound ${i}`,
        }),
      );
      const committed = performance.now();
      await Bun.sleep(Math.max(0, committed + FRESHNESS_MS + 1 - performance.now()));
      expect(await titles()).toContain(`Bound ${i}`);
    }
    expect((await t.get("/api/v1/competitors", extraAuth)).status).toBe(200);
    await revokeApiKey(other.store, "acme", extra.id);
    const revoked = performance.now();
    await Bun.sleep(Math.max(0, revoked + FRESHNESS_MS + 1 - performance.now()));
    expect((await t.get("/api/v1/competitors", extraAuth)).status).toBe(401);
  } finally {
    other.close();
  }
});

test("an in-memory database is not cached", async () => {
  const mem = createClient({ url: "file::memory:" });
  expect(await dataVersion(mem)).toBeUndefined();
  let loads = 0;
  const db = { $client: mem };
  await cacheOf(db).get("k", async () => ++loads);
  await cacheOf(db).get("k", async () => ++loads);
  expect(loads).toBe(2);
  mem.close();
});

test("a remote server that cannot be reached is not cached: every read goes to it", async () => {
  const remote = createClient({ url: "http://127.0.0.1:9" });
  expect(await dataVersion(remote)).toBeUndefined();
  let loads = 0;
  const db = { $client: remote };
  await cacheOf(db).get("k", async () => ++loads);
  await cacheOf(db).get("k", async () => ++loads);
  expect(loads).toBe(2);
  remote.close();
});

test("a failed load is not cached", async () => {
  const c = cacheOf({ $client: t.services.database.client });
  await expect(c.get("boom", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  expect(await c.get("boom", async () => "fine")).toBe("fine");
});

test("jsonOf serializes once per object", () => {
  const v = { a: [1, 2] };
  expect(jsonOf(v)).toBe('{"a":[1,2]}');
  expect(jsonOf(v)).toBe(jsonOf(v));
  expect(jsonOf({ a: [3] })).toBe('{"a":[3]}');
});

test("the database is asked at most once per interval, and a probe older than the interval answers no read", async () => {
  // A local file's probe: synchronous.
  let marker = 1;
  let asked = 0;
  const local = new Freshness(() => {
    asked++;
    return marker;
  }, "data_version");
  const v = local.current();
  for (let i = 0; i < 100; i++) expect(local.current()).toBe(v);
  expect(asked).toBe(1);
  marker = 2; // another connection commits: unseen until the interval has passed
  expect(local.current()).toBe(v);
  await Bun.sleep(FRESHNESS_MS + 1);
  expect(local.current()).not.toBe(v);
  expect(asked).toBe(2);
  // This process's commit: seen at once, and not counted again by the next probe.
  const before = local.current() as number;
  marker = 3;
  local.noteCommit();
  const after = local.current() as number;
  expect(after).not.toBe(before);
  await Bun.sleep(FRESHNESS_MS + 1);
  expect(local.current()).toBe(after);

  // A remote server's probe: a network round trip. Reads in the interval share one probe; one that answers
  // slower than the interval does not answer reads that start after the interval has passed.
  let counter = 10;
  const answers: ((n: number) => void)[] = [];
  const remote = new Freshness(
    () =>
      new Promise<number>((resolve) => {
        const seen = counter;
        answers.push(() => resolve(seen));
      }),
    "counter",
  );
  const first = remote.current();
  const shared = remote.current();
  expect(first).toBeInstanceOf(Promise);
  expect(shared).toBe(first);
  expect(answers.length).toBe(1);
  await Bun.sleep(FRESHNESS_MS + 1);
  counter = 11; // committed after the first probe was asked
  const late = remote.current();
  expect(late).not.toBe(first);
  expect(answers.length).toBe(2);
  for (const answer of answers) answer(0);
  const a = await first;
  const b = await late;
  expect(b).not.toBe(a);
  // Within the interval of the second probe: answered from memory.
  expect(remote.current()).toBe(b);
});
