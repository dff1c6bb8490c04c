import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestServer } from "../support/helpers.ts";
import {
  expectProblem,
  fixtureLines,
  getJson,
  type Ids,
  ORG,
  startFixtureServer,
} from "../support/read-api-fixture.ts";

let t: TestServer;
let key: string;
let ids: Ids;
beforeAll(async () => ({ t, key, ids } = await startFixtureServer()));
afterAll(() => t.close());

const get = (path: string) => getJson(t, path, key);
const keysOf = (body: { data: { id: number }[] }, table: keyof Ids) => {
  const byId = Object.fromEntries(Object.entries(ids[table]).map(([k, v]) => [v, k]));
  return body.data.map((x) => byId[x.id]);
};

/** Digest week-45 as the list serves it; the single-digest response is this plus items and markdown. */
const week45 = () => ({
  id: ids.digests["d-weekly-1"],
  slug: "week-45",
  type: "weekly_tldr",
  status: "generated",
  title: "Week 45",
  headline: "Alpha moves on price",
  tldr: "Prices up.",
  what_to_watch: "Beta EMEA",
  coverage_period_start: "2026-11-02T00:00:00.000Z",
  coverage_period_end: "2026-11-09T00:00:00.000Z",
  generated_at: "2026-11-09T06:00:00.000Z",
  signal_ids: [ids.signals.a1, ids.signals.a2],
  url: `${t.base}/app/digests/week-45`,
});

describe("GET /api/v1/digests", () => {
  test("generated digests only, newest coverage period first, page echoed", async () => {
    const r = await get("/api/v1/digests");
    expect(r.status).toBe(200);
    expect(r.body.page).toBe(1);
    expect(r.body.per_page).toBe(50);
    expect(keysOf(r.body, "digests")).toEqual(["d-weekly-2", "d-daily-1", "d-weekly-1"]);
    for (const d of r.body.data) expect(d.status).toBe("generated");
  });

  test("the list leaves out items and markdown and carries signal_ids and the app link", async () => {
    const r = await get("/api/v1/digests");
    const w1 = r.body.data.find((d: { slug?: string }) => d.slug === "week-45");
    expect(w1).toEqual(week45());
    for (const d of r.body.data) {
      expect(d.items).toBeUndefined();
      expect(d.markdown).toBeUndefined();
    }
    const daily = r.body.data.find((d: { id: number }) => d.id === ids.digests["d-daily-1"]);
    expect(daily.url).toBe(`${t.base}/app/digests/${ids.digests["d-daily-1"]}`);
    expect(daily.slug).toBeUndefined();
    expect(daily.signal_ids).toBeUndefined();
  });

  test("type filter", async () => {
    expect(keysOf((await get("/api/v1/digests?type=weekly_tldr")).body, "digests")).toEqual([
      "d-weekly-2",
      "d-weekly-1",
    ]);
    expect(keysOf((await get("/api/v1/digests?type=daily_digest")).body, "digests")).toEqual(["d-daily-1"]);
    expect((await get("/api/v1/digests?type=monthly")).body.data).toEqual([]);
    // An empty type filters nothing, like an empty q.
    expect(keysOf((await get("/api/v1/digests?type=")).body, "digests")).toEqual(
      keysOf((await get("/api/v1/digests")).body, "digests"),
    );
    expect(keysOf((await get("/api/v1/digests")).body, "digests")).toHaveLength(3);
  });

  test("pagination and the per_page clamp", async () => {
    const p2 = await get("/api/v1/digests?per_page=1&page=2");
    expect(p2.body.page).toBe(2);
    expect(p2.body.per_page).toBe(1);
    expect(keysOf(p2.body, "digests")).toEqual(["d-daily-1"]);
    const typed = await get("/api/v1/digests?type=weekly_tldr&per_page=1&page=2");
    expect(keysOf(typed.body, "digests")).toEqual(["d-weekly-1"]);
    const big = await get("/api/v1/digests?per_page=51");
    expect(big.body.per_page).toBe(50);
    expect(big.body.data).toHaveLength(3);
    expect((await get("/api/v1/digests?page=9")).body).toEqual({ data: [], page: 9, per_page: 50 });
  });

  test.each([
    ["page", "0"],
    ["page", "x"],
    ["per_page", "0"],
    ["per_page", "1.5"],
    ["type", "x".repeat(101)],
  ])("%s=%p is 400 naming the parameter", async (name, value) => {
    const r = await get(`/api/v1/digests?${name}=${value}`);
    expectProblem(r, t.base, "invalid_request", 400);
    expect(r.body.detail).toContain(name);
  });
});

describe("GET /api/v1/digests/{id}", () => {
  test("by slug: the full digest with items, markdown and signal_ids", async () => {
    const r = await get("/api/v1/digests/week-45");
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      ...week45(),
      items: [{ heading: "Pricing", body: "Alpha up 20%" }],
      markdown: "# Week 45\n\nAlpha moves on price.",
    });
  });

  test("by numeric id: the same object", async () => {
    const bySlug = await get("/api/v1/digests/week-45");
    const byId = await get(`/api/v1/digests/${ids.digests["d-weekly-1"]}`);
    expect(byId.body).toEqual(bySlug.body);
  });

  test("a digest without slug, with blank items and markdown omitted", async () => {
    const id = ids.digests["d-daily-1"];
    const r = await get(`/api/v1/digests/${id}`);
    expect(r.body.data).toEqual({
      id,
      type: "daily_digest",
      status: "generated",
      headline: "Daily: Beta Berlin",
      coverage_period_start: "2026-11-12T00:00:00.000Z",
      coverage_period_end: "2026-11-13T00:00:00.000Z",
      generated_at: "2026-11-13T06:00:00.000Z",
      url: `${t.base}/app/digests/${id}`,
    });
  });

  test("draft and failed digests are 404 by slug and by id; unknown too", async () => {
    for (const p of [
      "draft-one",
      String(ids.digests["d-draft"]),
      String(ids.digests["d-failed"]),
      "WEEK-45",
      "week-4",
      "999999",
      "-1",
      String(ids.signals.a1),
      "%00",
      "a%2Fb",
    ]) {
      const r = await get(`/api/v1/digests/${p}`);
      expectProblem(r, t.base, "not_found", 404);
      expect(r.body.detail).toContain("digest");
    }
  });
});

describe("GET /api/v1/battlecards", () => {
  test("generated battlecards of tracked competitors, ordered by competitor id", async () => {
    const r = await get("/api/v1/battlecards");
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["data"]);
    expect(keysOf(r.body, "battlecards")).toEqual(["bc-alpha", "bc-gamma"]);
    // Ordered by competitor id, although gamma's card was written first.
    expect(ids.battlecards["bc-gamma"]).toBeLessThan(ids.battlecards["bc-alpha"]);
    expect(ids.competitors.alpha).toBeLessThan(ids.competitors.gamma);
  });

  test("items carry every stored field, blank ones omitted", async () => {
    const r = await get("/api/v1/battlecards");
    expect(r.body.data).toEqual([
      {
        id: ids.battlecards["bc-alpha"],
        competitor_id: ids.competitors.alpha,
        competitor_name: "Alpha Corp",
        status: "generated",
        generated_at: "2026-11-12T00:00:00.000Z",
        sections: {
          overview: "Alpha is the leader.",
          strengths: ["brand"],
          weaknesses: ["price"],
          talk_tracks: ["Lead with TCO"],
        },
        evidence: { sources: [{ url: "https://alpha.example/pricing" }] },
        url: `${t.base}/app/battlecards/${ids.battlecards["bc-alpha"]}`,
      },
      {
        id: ids.battlecards["bc-gamma"],
        competitor_id: ids.competitors.gamma,
        competitor_name: "Gamma",
        status: "generated",
        generated_at: "2026-11-11T00:00:00.000Z",
        sections: { overview: "Gamma is small.", strengths: ["cheap"], talk_tracks: ["Ask about SSO"] },
        url: `${t.base}/app/battlecards/${ids.battlecards["bc-gamma"]}`,
      },
    ]);
  });

  test("is not paginated", async () => {
    const r = await get("/api/v1/battlecards?per_page=1");
    expect(r.body.data).toHaveLength(2);
    expect(r.body.per_page).toBeUndefined();
  });
});

describe("GET /api/v1/battlecards/{id}", () => {
  test("by battlecard id, then by competitor id: the same object", async () => {
    const list = await get("/api/v1/battlecards");
    const byCard = await get(`/api/v1/battlecards/${ids.battlecards["bc-alpha"]}`);
    const byCompetitor = await get(`/api/v1/battlecards/${ids.competitors.alpha}`);
    expect(byCard.status).toBe(200);
    expect(byCard.body.data).toEqual(list.body.data[0]);
    expect(byCompetitor.body).toEqual(byCard.body);
  });

  test("not generated, untracked competitor, and unknown ids are 404", async () => {
    for (const id of [
      ids.battlecards["bc-beta"],
      ids.competitors.beta,
      ids.battlecards["bc-paused"],
      ids.competitors.paused,
      ids.competitors.delta,
      ids.signals.a1,
      424242,
    ]) {
      const r = await get(`/api/v1/battlecards/${id}`);
      expectProblem(r, t.base, "not_found", 404);
      expect(r.body.detail).toContain("battlecard");
    }
    for (const p of ["abc", "1.0", "0x10", "-5"])
      expectProblem(await get(`/api/v1/battlecards/${p}`), t.base, "not_found", 404);
  });
});

describe("tracking changes hide and show a competitor's signals and battlecard", () => {
  const line = (tracking: string) => ({
    ...fixtureLines().find((l) => l.kind === "competitor" && l.key === "gamma")!,
    tracking,
  });

  test("pausing gamma hides its dossier, signals and battlecard; resuming shows them again", async () => {
    const gid = ids.competitors.gamma;
    const bc = ids.battlecards["bc-gamma"];
    const g1 = ids.signals.g1;
    expect((await t.load([line("paused")])).applied).toBe(1);
    expectProblem(await get(`/api/v1/competitors/${gid}`), t.base, "not_found", 404);
    expectProblem(await get(`/api/v1/battlecards/${bc}`), t.base, "not_found", 404);
    expectProblem(await get(`/api/v1/battlecards/${gid}`), t.base, "not_found", 404);
    expectProblem(await get(`/api/v1/signals/${g1}`), t.base, "not_found", 404);
    expect(keysOf((await get("/api/v1/battlecards")).body, "battlecards")).toEqual(["bc-alpha"]);
    const sig = await get("/api/v1/signals");
    expect(sig.body.data.some((s: { competitor_id?: number }) => s.competitor_id === gid)).toBe(false);
    expect((await get("/api/v1/signals?q=gamma")).body.data).toEqual([]);
    expect((await get("/api/v1/signals?q=ga")).body.data).toEqual([]);

    expect((await t.load([line("active")])).applied).toBe(1);
    expect((await get(`/api/v1/battlecards/${bc}`)).status).toBe(200);
    expect((await get(`/api/v1/signals/${g1}`)).status).toBe(200);
    expect((await get(`/api/v1/competitors/${gid}`)).body.data.links.battlecard_id).toBe(bc);
    expect((await get("/api/v1/signals?q=gamma")).body.data).toHaveLength(2);
  });

  test("a rename reaches the copies on signals and battlecards", async () => {
    const renamed = { ...line("active"), name: "Gamma Renamed" };
    expect((await t.load([renamed])).applied).toBe(1);
    const s = await get(`/api/v1/signals/${ids.signals.g1}`);
    expect(s.body.data.competitor_name).toBe("Gamma Renamed");
    const b = await get(`/api/v1/battlecards/${ids.battlecards["bc-gamma"]}`);
    expect(b.body.data.competitor_name).toBe("Gamma Renamed");
    expect((await get("/api/v1/competitors")).body.data.map((c: { name: string }) => c.name)).toContain(
      "Gamma Renamed",
    );
  });

  test("a battlecard going back to generating drops links.battlecard_id", async () => {
    const org = ORG;
    const r = await t.load([
      { kind: "battlecard", org, key: "bc-alpha", competitor: "alpha", status: "generating" },
    ]);
    expect(r.applied).toBe(1);
    const d = await get(`/api/v1/competitors/${ids.competitors.alpha}`);
    expect(d.body.data.links.battlecard_id).toBeUndefined();
    expectProblem(await get(`/api/v1/battlecards/${ids.competitors.alpha}`), t.base, "not_found", 404);
  });
});
