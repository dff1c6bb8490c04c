// Two organizations with look-alike data: each key reads only its own, and the other's ids are
// indistinguishable from ids that do not exist.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import {
  expectProblem,
  fixtureLines,
  getJson,
  type Ids,
  idsByKey,
  loadFixture,
} from "../support/read-api-fixture.ts";

let t: TestServer;
const A = { org: "acme", key: "", ids: {} as Ids };
const B = { org: "zulu", key: "", ids: {} as Ids };
const MARK = "Zulu";

beforeAll(async () => {
  t = await startTestServer();
  ({ key: A.key, ids: A.ids } = await loadFixture(t, A.org));
  // The second org: the same keys and slugs, every name and title marked.
  await t.org(B.org);
  B.key = await t.key(B.org);
  const lines = fixtureLines(B.org).map((l) => {
    const o = { ...l };
    if (typeof o.name === "string") o.name = `${MARK} ${o.name}`;
    if (typeof o.title === "string") o.title = `${MARK} ${o.title}`;
    return o;
  });
  expect((await t.load(lines)).errors).toEqual([]);
  B.ids = await idsByKey(t, B.org);
});
afterAll(() => t.close());

const lists = [
  "/api/v1/competitors",
  "/api/v1/signals",
  "/api/v1/signals?q=alpha",
  "/api/v1/signals?q=al",
  "/api/v1/signals?severity=high",
  "/api/v1/signals?since=2026-01-01",
  "/api/v1/digests",
  "/api/v1/digests?type=weekly_tldr",
  "/api/v1/battlecards",
];

describe("tenancy", () => {
  test("ids never collide across orgs", () => {
    const all = (ids: Ids) => Object.values(ids).flatMap((m) => Object.values(m));
    const a = new Set(all(A.ids));
    for (const id of all(B.ids)) expect(a.has(id)).toBe(false);
  });

  test("each key's lists hold only its own org's records, with the same counts", async () => {
    for (const path of lists) {
      const a = await getJson(t, path, A.key);
      const b = await getJson(t, path, B.key);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.data.length).toBe(b.body.data.length);
      expect(a.text).not.toContain(MARK);
      const own = new Set(Object.values(B.ids).flatMap((m) => Object.values(m)));
      for (const x of b.body.data) expect(own.has(x.id)).toBe(true);
      for (const x of a.body.data) expect(own.has(x.id)).toBe(false);
    }
    expect((await getJson(t, "/api/v1/signals", A.key)).body.data).toHaveLength(7);
  });

  test("q searches never reach the other org", async () => {
    for (const q of ["zulu", "ZULU", "zu", "Z", `${MARK} Alpha raises`])
      expect((await getJson(t, `/api/v1/signals?q=${encodeURIComponent(q)}`, A.key)).body.data).toEqual([]);
    expect((await getJson(t, "/api/v1/signals?q=zulu", B.key)).body.data).toHaveLength(7);
  });

  test("filtering by the other org's competitor id gives an empty list", async () => {
    const r = await getJson(t, `/api/v1/signals?competitor_id=${B.ids.competitors.alpha}`, A.key);
    expect(r.body.data).toEqual([]);
  });

  test("the other org's ids are 404, exactly like unknown ids", async () => {
    const unknown = {
      competitors: await getJson(t, "/api/v1/competitors/987654321", A.key),
      signals: await getJson(t, "/api/v1/signals/987654321", A.key),
      digests: await getJson(t, "/api/v1/digests/987654321", A.key),
      battlecards: await getJson(t, "/api/v1/battlecards/987654321", A.key),
    };
    const strip = (b: Record<string, unknown>) => {
      const { instance: _i, request_id: _r, ...rest } = b;
      return rest;
    };
    for (const table of ["competitors", "signals", "digests", "battlecards"] as const) {
      for (const id of Object.values(B.ids[table])) {
        const r = await getJson(t, `/api/v1/${table}/${id}`, A.key);
        expectProblem(r, t.base, "not_found", 404);
        expect(strip(r.body)).toEqual(strip(unknown[table].body));
      }
    }
    // Battlecards by the other org's competitor ids too.
    for (const id of Object.values(B.ids.competitors)) {
      const r = await getJson(t, `/api/v1/battlecards/${id}`, A.key);
      expect(strip(r.body)).toEqual(strip(unknown.battlecards.body));
    }
  });

  test("a slug both orgs use resolves to each org's own digest", async () => {
    const a = await getJson(t, "/api/v1/digests/week-45", A.key);
    const b = await getJson(t, "/api/v1/digests/week-45", B.key);
    expect(a.body.data.id).toBe(A.ids.digests["d-weekly-1"]);
    expect(b.body.data.id).toBe(B.ids.digests["d-weekly-1"]);
    expect(b.body.data.signal_ids).toEqual([B.ids.signals.a1, B.ids.signals.a2]);
  });

  test("a key keeps reading its own org when the other org changes plan", async () => {
    await t.load([{ kind: "org", slug: B.org, name: "ZULU", plan: "free" }]);
    expect((await getJson(t, "/api/v1/competitors", A.key)).status).toBe(200);
    expectProblem(await getJson(t, "/api/v1/competitors", B.key), t.base, "paid_plan_required", 402);
    await t.load([{ kind: "org", slug: B.org, name: "ZULU", plan: "growth" }]);
    expect((await getJson(t, "/api/v1/competitors", B.key)).status).toBe(200);
  });
});
