// `rivals import` / `rivals export` / `rivals projections rebuild`, driven through the same functions the
// CLI calls, against real servers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { READ_TABLES } from "../../projections/index.ts";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { exportNdjson } from "../../src/domain/exports.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import {
  expectProblem,
  fixtureLines,
  getJson,
  type Ids,
  idsByKey,
  loadFixture,
  ORG,
  startFixtureServer,
} from "../support/read-api-fixture.ts";

type Obj = Record<string, unknown>;

async function eventCount(t: TestServer): Promise<number> {
  const r = await t.services.database.client.execute("SELECT count(*) AS n FROM events");
  return Number(r.rows[0].n);
}

async function idCounter(t: TestServer): Promise<number> {
  const r = await t.services.database.client.execute("SELECT value FROM id_counter WHERE name = 'id'");
  return Number(r.rows[0].value);
}

/** Every read table, every row, every column (with the rowid of FTS tables, which is the record id), in a
 * canonical order, so tables without an `id` column (composite keys) compare too. */
async function dumpReadTables(t: TestServer): Promise<Record<string, unknown[]>> {
  const c = t.services.database.client;
  const out: Record<string, unknown[]> = {};
  for (const table of READ_TABLES) {
    const cols = table.endsWith("_fts") ? "rowid AS rowid, *" : "*";
    const r = await c.execute(`SELECT ${cols} FROM ${table}`);
    out[table] = r.rows
      .map((row) => ({ ...row }))
      .sort((x, y) =>
        JSON.stringify(x) < JSON.stringify(y) ? -1 : JSON.stringify(x) > JSON.stringify(y) ? 1 : 0,
      );
  }
  return out;
}

async function exportText(t: TestServer, org?: string): Promise<string> {
  let text = "";
  await exportNdjson(t.services, org, (line) => {
    text += line;
  });
  return text;
}

/** Every endpoint, with filters and by-id look-ups for every id, as normalized text. */
async function apiSnapshot(t: TestServer, key: string, ids: Ids): Promise<Record<string, string>> {
  const paths = [
    "/api/v1/competitors",
    "/api/v1/signals",
    "/api/v1/signals?severity=high",
    "/api/v1/signals?since=2026-11-01",
    "/api/v1/signals?q=alpha",
    "/api/v1/signals?q=ai",
    "/api/v1/signals?per_page=2&page=2",
    "/api/v1/digests",
    "/api/v1/digests?type=weekly_tldr",
    "/api/v1/digests/week-45",
    "/api/v1/battlecards",
  ];
  for (const id of Object.values(ids.competitors))
    paths.push(
      `/api/v1/competitors/${id}`,
      `/api/v1/signals?competitor_id=${id}`,
      `/api/v1/battlecards/${id}`,
    );
  for (const id of Object.values(ids.signals)) paths.push(`/api/v1/signals/${id}`);
  for (const id of Object.values(ids.digests)) paths.push(`/api/v1/digests/${id}`);
  for (const id of Object.values(ids.battlecards)) paths.push(`/api/v1/battlecards/${id}`);
  const out: Record<string, string> = {};
  for (const p of paths) {
    const r = await getJson(t, p, key);
    const body = r.body as Obj;
    delete body.request_id;
    out[p] = `${r.status} ${JSON.stringify(body).replaceAll(t.base, "{base}")}`;
  }
  return out;
}

/** Changes that exercise the denormalized columns: renames, tracking changes, moves, status changes. */
function churnLines(org = ORG): Obj[] {
  const line = (kind: string, key: string) =>
    fixtureLines(org).find((l) => l.kind === kind && l.key === key)!;
  return [
    { ...line("competitor", "alpha"), name: "Alpha Renamed" },
    { ...line("competitor", "gamma"), tracking: "paused" },
    { ...line("competitor", "paused"), tracking: "active", name: "Paused No More" },
    { ...line("signal", "a2"), competitor: "beta", status: "closed" },
    { ...line("signal", "b1"), title: "Beta opens a Munich office" },
    { ...line("digest", "d-draft"), status: "generated" },
    { ...line("battlecard", "bc-beta"), status: "generated", generated_at: "2026-11-19T00:00:00Z" },
    { ...line("competitor", "delta"), name: "Delta Two", priority: 0 },
  ];
}

describe("import records", () => {
  let t: TestServer;
  let ids: Ids;
  let key: string;
  beforeAll(async () => ({ t, key, ids } = await startFixtureServer()));
  afterAll(() => t.close());

  test("importing the same lines again changes nothing", async () => {
    const before = await eventCount(t);
    const counter = await idCounter(t);
    const dump = await dumpReadTables(t);
    const r = await t.load(fixtureLines());
    expect(r.errors).toEqual([]);
    expect(r.applied).toBe(0);
    expect(r.unchanged).toBe(fixtureLines().length);
    expect(await eventCount(t)).toBe(before);
    expect(await idCounter(t)).toBe(counter);
    expect(await dumpReadTables(t)).toEqual(dump);
    // The org line too.
    const org = await t.load([{ kind: "org", slug: ORG, name: "ACME", plan: "growth" }]);
    expect(org).toMatchObject({ applied: 0, unchanged: 1, errors: [] });
    expect(await eventCount(t)).toBe(before);
  });

  test("a line that differs only in key order or blank fields is unchanged", async () => {
    const before = await eventCount(t);
    const line = fixtureLines().find((l) => l.key === "a1")!;
    const reordered = Object.fromEntries(Object.entries(line).reverse());
    const r = await t.load([{ ...reordered, category: "pricing", last_seen_at: "2026-11-12T08:00:00.000Z" }]);
    expect(r).toMatchObject({ applied: 0, unchanged: 1 });
    expect(await eventCount(t)).toBe(before);
  });

  test("a changed line updates the record, with one new event", async () => {
    const before = await eventCount(t);
    const line = fixtureLines().find((l) => l.key === "a1")!;
    const r = await t.load([{ ...line, title: "Alpha raises prices again", severity: "medium" }]);
    expect(r).toMatchObject({ applied: 1, unchanged: 0, errors: [] });
    expect(await eventCount(t)).toBe(before + 1);
    const s = await getJson(t, `/api/v1/signals/${ids.signals.a1}`, key);
    expect(s.body.data.title).toBe("Alpha raises prices again");
    expect(s.body.data.severity).toBe("medium");
    expect((await getJson(t, "/api/v1/signals?q=again", key)).body.data).toHaveLength(1);
    expect(
      (await getJson(t, "/api/v1/signals?severity=high", key)).body.data.map((x: Obj) => x.id),
    ).not.toContain(ids.signals.a1);
    // The same id: an update, not a new record.
    expect((await idsByKey(t, ORG)).signals.a1).toBe(ids.signals.a1);
  });

  test("removing a field from a line removes it from the record", async () => {
    const line = { ...fixtureLines().find((l) => l.key === "a1")! };
    delete line.summary;
    delete line.evidence;
    expect((await t.load([line])).applied).toBe(1);
    const s = await getJson(t, `/api/v1/signals/${ids.signals.a1}`, key);
    expect(s.body.data.summary).toBeUndefined();
    expect(s.body.data.evidence).toEqual([]);
    expect((await getJson(t, "/api/v1/signals?q=percent", key)).body.data).toEqual([]);
  });

  test("bad lines are reported with their line numbers and store nothing; good lines still land", async () => {
    const before = await eventCount(t);
    const counter = await idCounter(t);
    const dump = await dumpReadTables(t);
    const good = { kind: "competitor", org: ORG, key: "newco", name: "NewCo" };
    const bad: (Obj | string)[] = [
      "{not json",
      "[1,2]",
      { kind: "spaceship", org: ORG, key: "x" },
      { org: ORG, key: "x", name: "no kind" },
      { kind: "competitor", org: ORG, name: "No key" },
      { kind: "competitor", org: ORG, key: "k1" },
      { kind: "competitor", org: ORG, key: "k2", name: "X", watch: "sometimes" },
      { kind: "competitor", org: ORG, key: "k3", name: "X", tracking: "maybe" },
      { kind: "competitor", org: ORG, key: "k4", name: "X", tracked_since: "last year" },
      { kind: "competitor", org: ORG, key: "k5", name: "X", website_url: "ftp://x.example" },
      { kind: "competitor", org: ORG, key: "k6", name: "X", secret_field: 1 },
      { kind: "competitor", org: ORG, key: "k7", name: "X", reads: { gossip: {} } },
      { kind: "competitor", org: ORG, key: "k8", name: "X", urls: { myspace: "https://x.example" } },
      { kind: "competitor", org: ORG, key: "k9", name: "X", priority: 1.5 },
      { kind: "competitor", org: "no-such-org", key: "k10", name: "X" },
      { kind: "signal", org: ORG, key: "s1", competitor: "no-such-competitor", title: "T" },
      { kind: "signal", org: ORG, key: "s2", competitor: "alpha" },
      { kind: "signal", org: ORG, key: "s3", competitor: "alpha", title: "T", severity: "urgent" },
      { kind: "signal", org: ORG, key: "s4", competitor: "alpha", title: "T", status: "archived" },
      { kind: "signal", org: ORG, key: "s5", competitor: "alpha", title: "T", evidence: [{ url: "x" }] },
      { kind: "signal", org: ORG, key: "s6", competitor: "alpha", title: "T", confidence: "high" },
      { kind: "signal", org: ORG, key: "s7", competitor: 42, title: "T" },
      { kind: "digest", org: ORG, key: "d1", type: "weekly_tldr", signals: ["no-such-signal"] },
      { kind: "digest", org: ORG, key: "d2", type: "weekly_tldr", slug: "12345" },
      { kind: "digest", org: ORG, key: "d3", type: "weekly_tldr", slug: "has spaces" },
      { kind: "digest", org: ORG, key: "d4", type: "weekly_tldr", slug: "week-45" },
      { kind: "digest", org: ORG, key: "d5" },
      { kind: "battlecard", org: ORG, key: "b1", competitor: "no-such-competitor" },
      { kind: "battlecard", org: ORG, key: "b2" },
      { kind: "battlecard", org: ORG, key: "b3", competitor: "alpha", status: "generated" },
      { kind: "battlecard", org: ORG, key: "b4", competitor: "delta", sections: "text" },
    ];
    // Line 1 good, then a blank line, then the bad ones, then a good one at the end.
    const text = [
      JSON.stringify(good),
      "",
      ...bad.map((b) => (typeof b === "string" ? b : JSON.stringify(b))),
      JSON.stringify({ ...good, key: "newco2", name: "NewCo 2" }),
    ].join("\n");
    const r = await importNdjson(t.services.store, text);
    expect(r.applied).toBe(2);
    expect(r.errors.map((e) => e.line)).toEqual(bad.map((_, i) => i + 3));
    for (const e of r.errors) expect(e.error.length).toBeGreaterThan(0);
    const errorOf = (key: string) =>
      r.errors[bad.findIndex((b) => typeof b !== "string" && b.key === key)].error;
    expect(errorOf("s1")).toContain("no-such-competitor");
    expect(errorOf("b1")).toContain("competitor");
    expect(errorOf("d1")).toContain("no-such-signal");
    expect(errorOf("k10")).toContain("no-such-org");
    // Two good lines: two events and two ids; the bad lines left no trace (no event, and no id taken between
    // the two: ids come in blocks, one for the import's group, handed out in order).
    expect(await eventCount(t)).toBe(before + 2);
    expect(await idCounter(t)).toBeGreaterThan(counter);
    const after = await dumpReadTables(t);
    const newIds = await idsByKey(t, ORG);
    expect(Object.keys(newIds.competitors).sort()).toEqual(
      [...Object.keys(ids.competitors), "newco", "newco2"].sort(),
    );
    expect(after.signals).toEqual(dump.signals);
    expect(after.digests).toEqual(dump.digests);
    expect(after.battlecards).toEqual(dump.battlecards);
  });

  test("references are by key within the line's org", async () => {
    await t.org("other");
    const r = await t.load([
      { kind: "competitor", org: "other", key: "solo", name: "Solo" },
      // `alpha` exists in acme, not in other.
      { kind: "signal", org: "other", key: "x", competitor: "alpha", title: "T" },
      { kind: "battlecard", org: "other", key: "x", competitor: "alpha" },
      { kind: "digest", org: "other", key: "x", type: "daily_digest", signals: ["a1"] },
      { kind: "signal", org: "other", key: "y", competitor: "solo", title: "Solo signal" },
    ]);
    expect(r.errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(r.applied).toBe(2);
  });

  test("a battlecard line pointing at another competitor moves the battlecard", async () => {
    const before = await idsByKey(t, ORG);
    const card = before.battlecards["bc-gamma"];
    const r = await t.load([{ ...fixtureLines().find((l) => l.key === "bc-gamma")!, competitor: "delta" }]);
    expect(r.errors).toEqual([]);
    expect(r.applied).toBe(1);
    const byCard = await getJson(t, `/api/v1/battlecards/${card}`, key);
    expect(byCard.body.data.competitor_id).toBe(ids.competitors.delta);
    expect(byCard.body.data.competitor_name).toBe("Delta");
    expect((await getJson(t, `/api/v1/battlecards/${ids.competitors.delta}`, key)).body.data.id).toBe(card);
    expectProblem(
      await getJson(t, `/api/v1/battlecards/${ids.competitors.gamma}`, key),
      t.base,
      "not_found",
      404,
    );
    const gamma = await getJson(t, `/api/v1/competitors/${ids.competitors.gamma}`, key);
    expect(gamma.body.data.links.battlecard_id).toBeUndefined();
    const delta = await getJson(t, `/api/v1/competitors/${ids.competitors.delta}`, key);
    expect(delta.body.data.links.battlecard_id).toBe(card);
    const listed = (await getJson(t, "/api/v1/battlecards", key)).body.data;
    expect(listed.map((b: Obj) => b.competitor_id)).toEqual(
      [ids.competitors.alpha, ids.competitors.delta].sort((a, b) => a - b),
    );
  });
});

describe("export and replay", () => {
  let a: TestServer;
  let b: TestServer;
  let key: string;
  let ids: Ids;
  beforeAll(async () => {
    ({ t: a, key, ids } = await startFixtureServer());
    expect((await a.load(churnLines())).errors).toEqual([]);
    // A second org and a revoked key travel too.
    await loadFixture(a, "zulu");
    b = await startTestServer();
    b.clock.advance(24 * 60 * 60 * 1000);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  test("export, then import into an empty database, serves identical responses on every endpoint", async () => {
    const text = await exportText(a);
    const lines = text.trim().split("\n");
    expect(lines.length).toBe(await eventCount(a));
    for (const l of lines) expect(Object.keys(JSON.parse(l))).toContain("type");
    const r = await importNdjson(b.services.store, text);
    expect(r.errors).toEqual([]);
    expect(r.applied).toBe(lines.length);
    expect(await apiSnapshot(b, key, ids)).toEqual(await apiSnapshot(a, key, ids));
    expect(await dumpReadTables(b)).toEqual(await dumpReadTables(a));
  });

  test("the restored log reads as the original: its export is the same, byte for byte", async () => {
    // b's clock is a day later than a's, so a time taken on replay would show.
    expect(b.clock.now.getTime()).toBeGreaterThan(a.clock.now.getTime());
    const original = await exportText(a);
    expect(await exportText(b)).toBe(original);
    const imported = original
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((e) => e.type === "CompetitorRecorded");
    expect(imported.recorded_at).toBe(a.clock.now.toISOString());
    expect(imported.metadata).toEqual({ source: "import" });
  });

  test("a hand-written event line may leave recorded_at and metadata out, not give bad ones", async () => {
    const c = await startTestServer();
    try {
      const line = (extra: object) =>
        JSON.stringify({
          type: "OrgCreated",
          org_id: 77,
          stream_type: "org",
          stream_id: "77",
          data: {
            id: 77,
            slug: "hand",
            name: "Hand",
            plan: "growth",
            created_at: "2026-01-01T00:00:00.000Z",
          },
          ...extra,
        });
      const bad = await importNdjson(
        c.services.store,
        [line({ recorded_at: "yesterday" }), line({ metadata: "me" })].join("\n"),
      );
      expect(bad.errors.map((e) => [e.line, e.error.split(":")[0]])).toEqual([
        [1, expect.stringContaining("recorded_at")],
        [2, expect.stringContaining("metadata")],
      ]);
      expect(await eventCount(c)).toBe(0);
      expect((await importNdjson(c.services.store, line({}))).errors).toEqual([]);
      const row = (await c.services.database.client.execute("SELECT recorded_at, metadata FROM events"))
        .rows[0];
      expect(row.recorded_at).toBe(c.clock.now.toISOString());
      expect(JSON.parse(String(row.metadata))).toEqual({ source: "import" });
    } finally {
      await c.close();
    }
  });

  test("after the replay, new records get fresh ids, never reused ones", async () => {
    // The highest id a's records use (its counter may be higher: ids are taken in blocks).
    const used = await a.services.database.client.execute(
      `SELECT MAX(id) AS m FROM (SELECT id FROM orgs UNION ALL SELECT id FROM competitors UNION ALL SELECT id FROM signals
         UNION ALL SELECT id FROM digests UNION ALL SELECT id FROM battlecards UNION ALL SELECT id FROM api_keys)`,
    );
    const maxA = Number(used.rows[0].m);
    expect(await idCounter(b)).toBeGreaterThanOrEqual(maxA);
    await b.load([{ kind: "competitor", org: ORG, key: "after-replay", name: "After" }]);
    const id = (await idsByKey(b, ORG)).competitors["after-replay"];
    expect(id).toBeGreaterThan(maxA);
  });

  test("importing the same export again changes nothing", async () => {
    const text = await exportText(a);
    const before = await eventCount(b);
    const dump = await dumpReadTables(b);
    const r = await importNdjson(b.services.store, text);
    expect(r.errors).toEqual([]);
    expect(r.applied).toBe(0);
    expect(await eventCount(b)).toBe(before);
    expect(await dumpReadTables(b)).toEqual(dump);
  });

  test("export --org holds only that org's events, and replays to that org alone", async () => {
    const text = await exportText(a, ORG);
    const zuluId = Number(
      (await a.services.database.client.execute("SELECT id FROM orgs WHERE slug = 'zulu'")).rows[0].id,
    );
    for (const l of text.trim().split("\n")) expect(JSON.parse(l).org_id).not.toBe(zuluId);
    const c = await startTestServer();
    try {
      expect((await importNdjson(c.services.store, text)).errors).toEqual([]);
      expect(await apiSnapshot(c, key, ids)).toEqual(await apiSnapshot(a, key, ids));
      const orgs = await c.services.database.client.execute("SELECT slug FROM orgs");
      expect(orgs.rows.map((r) => r.slug)).toEqual([ORG]);
    } finally {
      await c.close();
    }
  });
});

describe("projections rebuild", () => {
  let t: TestServer;
  let key: string;
  let ids: Ids;
  beforeAll(async () => {
    ({ t, key, ids } = await startFixtureServer());
    await loadFixture(t, "zulu");
  });
  afterAll(() => t.close());

  test("replaying the log reproduces every read table, row for row", async () => {
    const before = await dumpReadTables(t);
    expect(before.signals.length).toBeGreaterThan(0);
    const r = await rebuildProjections(t.services.store);
    expect(r.events).toBe(await eventCount(t));
    expect(await dumpReadTables(t)).toEqual(before);
  });

  test("also after renames, tracking changes, moves and status changes", async () => {
    expect((await t.load(churnLines())).errors).toEqual([]);
    expect((await t.load(churnLines("zulu"))).errors).toEqual([]);
    // Revert some of it, so rows carry values from several generations of their competitor.
    const gamma = fixtureLines().find((l) => l.key === "gamma")!;
    expect((await t.load([{ ...gamma, name: "Gamma Back" }])).errors).toEqual([]);
    const bcMove = { ...fixtureLines().find((l) => l.key === "bc-gamma")!, competitor: "epsilon" };
    expect((await t.load([bcMove])).errors).toEqual([]);
    const revoked = await t.key(ORG);
    const { revokeApiKey } = await import("../../src/domain/apiKeys.ts");
    const keyId = Number(
      (await t.services.database.client.execute("SELECT max(id) AS id FROM api_keys")).rows[0].id,
    );
    await revokeApiKey(t.services.store, ORG, keyId);
    expect((await t.get("/api/v1/competitors", { "x-api-key": revoked })).status).toBe(401);

    const api = await apiSnapshot(t, key, ids);
    const before = await dumpReadTables(t);
    await rebuildProjections(t.services.store);
    expect(await dumpReadTables(t)).toEqual(before);
    expect(await apiSnapshot(t, key, ids)).toEqual(api);
    // The denormalized copies say what the churn said.
    const s = await getJson(t, `/api/v1/signals/${ids.signals.a1}`, key);
    expect(s.body.data.competitor_name).toBe("Alpha Renamed");
    expect((await t.get("/api/v1/competitors", { "x-api-key": revoked })).status).toBe(401);
  });

  test("a rebuild keeps serving: requests during the rebuild see whole tables, old or new", async () => {
    const expected = (await getJson(t, "/api/v1/signals", key)).body.data.length;
    expect(expected).toBeGreaterThan(0);
    const rebuild = rebuildProjections(t.services.store);
    const seen = await Promise.all(
      Array.from({ length: 20 }, () =>
        getJson(t, "/api/v1/signals", key).then((r) => [r.status, r.body.data?.length]),
      ),
    );
    await rebuild;
    for (const s of seen) expect(s).toEqual([200, expected]);
  });
});
