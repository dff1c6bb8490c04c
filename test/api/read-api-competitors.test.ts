import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestServer } from "../support/helpers.ts";
import {
  expectProblem,
  getJson,
  type Ids,
  INTERNAL_MARKERS,
  startFixtureServer,
} from "../support/read-api-fixture.ts";

let t: TestServer;
let key: string;
let ids: Ids;
beforeAll(async () => ({ t, key, ids } = await startFixtureServer()));
afterAll(() => t.close());

const SUMMARY_KEYS = ["id", "name", "website_url", "category", "watch", "tracked_since", "url"];

describe("GET /api/v1/competitors", () => {
  test("lists only actively tracked competitors, by priority (nulls last) then tracked_since", async () => {
    const r = await getJson(t, "/api/v1/competitors", key);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("application/json");
    expect(Object.keys(r.body)).toEqual(["data"]);
    expect(r.body.data.map((c: { name: string }) => c.name)).toEqual([
      "Beta Inc",
      "Epsilon",
      "Alpha Corp",
      "Gamma",
      "Delta",
    ]);
  });

  test("items carry summary fields only, blank ones omitted, with the app link", async () => {
    const r = await getJson(t, "/api/v1/competitors", key);
    for (const c of r.body.data) {
      for (const k of Object.keys(c)) expect(SUMMARY_KEYS).toContain(k);
      expect(c.url).toBe(`${t.base}/app/competitors/${c.id}`);
    }
    const alpha = r.body.data.find((c: { name: string }) => c.name === "Alpha Corp");
    expect(alpha).toEqual({
      id: ids.competitors.alpha,
      name: "Alpha Corp",
      website_url: "https://alpha.example/",
      category: "Analytics",
      watch: "core",
      tracked_since: "2026-01-01T00:00:00.000Z",
      url: `${t.base}/app/competitors/${ids.competitors.alpha}`,
    });
    const delta = r.body.data.find((c: { name: string }) => c.name === "Delta");
    expect(delta).toEqual({
      id: ids.competitors.delta,
      name: "Delta",
      watch: "core",
      url: `${t.base}/app/competitors/${ids.competitors.delta}`,
    });
    // An empty website_url is blank, so omitted.
    const gamma = r.body.data.find((c: { name: string }) => c.name === "Gamma");
    expect("website_url" in gamma).toBe(false);
  });

  test("is not paginated: page parameters are ignored", async () => {
    const r = await getJson(t, "/api/v1/competitors?page=2&per_page=1", key);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(5);
    expect(r.body.page).toBeUndefined();
  });
});

describe("GET /api/v1/competitors/{id}", () => {
  test("returns every stored field, blank fields omitted, reads pruned, links", async () => {
    const r = await getJson(t, `/api/v1/competitors/${ids.competitors.alpha}`, key);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: {
        id: ids.competitors.alpha,
        name: "Alpha Corp",
        description: "Alpha makes analytics.",
        website_url: "https://alpha.example/",
        category: "Analytics",
        industry: "Software",
        company_type: "startup",
        business_model: "SaaS",
        company_size: 120,
        founding_year: 2015,
        headquarters: { city: "Lisbon", country: "PT" },
        target_customer: "Mid-market product teams",
        ownership: { type: "private", public: false },
        urls: { pricing: "https://alpha.example/pricing", docs: "https://docs.alpha.example/" },
        watch: "core",
        priority: 2,
        tracked_since: "2026-01-01T00:00:00.000Z",
        workspace: { relative_risk: "high", icp_overlap: { industries: ["saas"] } },
        reads: {
          positioning: "The analytics tool for everyone.",
          pricing: { model: "per seat" },
          hiring: { estimated_headcount: 120 },
          funding: { estimated_revenue_text: "$10M ARR", ownership_summary: "VC-backed" },
          fortnight: {
            written_at: "2026-11-15T10:00:00.000Z",
            sentences: [{ text: "Alpha shipped AI.", kind: "product" }],
          },
        },
        freshness: {
          state_updated_at: "2026-11-19T00:00:00.000Z",
          last_signal_at: "2026-11-18T00:00:00.000Z",
        },
        links: {
          signals: `/api/v1/signals?competitor_id=${ids.competitors.alpha}`,
          battlecard_id: ids.battlecards["bc-alpha"],
          url: `${t.base}/app/competitors/${ids.competitors.alpha}`,
        },
      },
    });
  });

  test("a minimal dossier has no reads, no blank fields and no battlecard link", async () => {
    const r = await getJson(t, `/api/v1/competitors/${ids.competitors.delta}`, key);
    expect(r.body.data).toEqual({
      id: ids.competitors.delta,
      name: "Delta",
      watch: "core",
      links: {
        signals: `/api/v1/signals?competitor_id=${ids.competitors.delta}`,
        url: `${t.base}/app/competitors/${ids.competitors.delta}`,
      },
    });
  });

  test("links.battlecard_id only for a generated battlecard (beta's is still generating)", async () => {
    const beta = await getJson(t, `/api/v1/competitors/${ids.competitors.beta}`, key);
    expect(beta.body.data.links.battlecard_id).toBeUndefined();
    const gamma = await getJson(t, `/api/v1/competitors/${ids.competitors.gamma}`, key);
    expect(gamma.body.data.links.battlecard_id).toBe(ids.battlecards["bc-gamma"]);
  });

  test("the links.signals path lists that competitor's signals", async () => {
    const d = await getJson(t, `/api/v1/competitors/${ids.competitors.alpha}`, key);
    const s = await getJson(t, d.body.data.links.signals, key);
    expect(s.status).toBe(200);
    expect(s.body.data.length).toBe(3);
    for (const x of s.body.data) expect(x.competitor_id).toBe(ids.competitors.alpha);
  });

  test.each(["paused", "removed", "pending"])("a %s competitor is 404 by id", async (k) => {
    const r = await getJson(t, `/api/v1/competitors/${ids.competitors[k]}`, key);
    expectProblem(r, t.base, "not_found", 404);
  });

  test("unknown, negative, fractional and non-numeric ids are 404", async () => {
    for (const p of ["999999", "-1", "0", "1.5", "abc", "%20", "1%2F2"]) {
      const r = await getJson(t, `/api/v1/competitors/${p}`, key);
      expectProblem(r, t.base, "not_found", 404);
    }
  });

  test("internal fields never appear in any response", async () => {
    const paths = [
      "/api/v1/competitors",
      `/api/v1/competitors/${ids.competitors.alpha}`,
      "/api/v1/signals",
      `/api/v1/signals/${ids.signals.a1}`,
      "/api/v1/battlecards",
      `/api/v1/battlecards/${ids.battlecards["bc-alpha"]}`,
      "/api/v1/digests",
    ];
    for (const p of paths) {
      const r = await getJson(t, p, key);
      expect(r.status).toBe(200);
      expect(r.text).not.toContain("internal");
      for (const m of INTERNAL_MARKERS) expect(r.text).not.toContain(m);
      for (const f of [
        "brand_asset",
        "discovery_source",
        "feature_aliases",
        "comparison_scores",
        "team_notes",
      ])
        expect(r.text).not.toContain(f);
    }
  });
});
