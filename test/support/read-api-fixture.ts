// A rich workspace for the read-API tests: every visibility state, ordering tie and omission case.
// Shared by several test files; each test file starts its own server and loads this into it.
import { expect } from "bun:test";
import { startTestServer, type TestServer } from "./helpers.ts";

type Obj = Record<string, unknown>;

/** Values that live only under `internal`: no response may ever contain them. */
export const INTERNAL_MARKERS = [
  "brand-asset-7f3e9c",
  "discovery-via-zzq-crawler",
  "alias-hidden-qwx",
  "pricing-snapshot-88812",
  "team-note-do-not-leak",
];

export const ORG = "acme";

export function fixtureLines(org = ORG): Obj[] {
  const c = (key: string, rec: Obj): Obj => ({ kind: "competitor", org, key, ...rec });
  const s = (key: string, competitor: string | null, rec: Obj): Obj => ({
    kind: "signal",
    org,
    key,
    ...(competitor ? { competitor } : {}),
    ...rec,
  });
  return [
    c("alpha", {
      name: "Alpha Corp",
      description: "Alpha makes analytics.",
      website_url: "https://alpha.example",
      category: "Analytics",
      industry: "Software",
      company_type: "startup",
      business_model: "SaaS",
      company_size: 120,
      founding_year: 2015,
      headquarters: { city: "Lisbon", country: "PT" },
      target_customer: "Mid-market product teams",
      ownership: { type: "private", public: false, parent_company_name: "" },
      urls: { pricing: "https://alpha.example/pricing", docs: "https://docs.alpha.example/" },
      watch: "core",
      tracking: "active",
      priority: 2,
      tracked_since: "2026-01-01T00:00:00Z",
      workspace: { relative_risk: "high", relative_opportunity: "", icp_overlap: { industries: ["saas"] } },
      reads: {
        positioning: "The analytics tool for everyone.",
        pricing: { model: "per seat", plans: [], notes: { empty: "" } },
        hiring: { estimated_headcount: 120, open_roles: [] },
        funding: { estimated_revenue_text: "$10M ARR", ownership_summary: "VC-backed", rounds: {} },
        traffic: {},
        ai: { features: [{}], label: "" },
        fortnight: {
          written_at: "2026-11-15T10:00:00Z",
          sentences: [{ text: "Alpha shipped AI.", kind: "product" }, { text: "" }],
        },
      },
      freshness: { state_updated_at: "2026-11-19T00:00:00Z", last_signal_at: "2026-11-18T00:00:00Z" },
      internal: {
        brand_asset_ids: [INTERNAL_MARKERS[0]],
        discovery_source: INTERNAL_MARKERS[1],
        feature_aliases: { x: INTERNAL_MARKERS[2] },
        pricing_snapshot_ids: [INTERNAL_MARKERS[3]],
        funding_source_counts: { crunch: 3 },
        comparison_scores: { overall: 0.77 },
        team_notes: INTERNAL_MARKERS[4],
      },
    }),
    // Same priority as alpha, tracked earlier: listed before it.
    c("epsilon", { name: "Epsilon", priority: 2, tracked_since: "2025-12-01T00:00:00Z", watch: "horizon" }),
    c("beta", { name: "Beta Inc", priority: 1, tracked_since: "2026-05-01T00:00:00Z", watch: "horizon" }),
    // No priority: after every prioritised one, then by tracked date, no date last.
    c("delta", { name: "Delta", description: "  " }),
    c("gamma", { name: "Gamma", tracked_since: "2026-02-01T00:00:00Z", website_url: "" }),
    c("paused", { name: "Paused Co", tracking: "paused", priority: 0 }),
    c("removed", { name: "Removed Co", tracking: "removed", priority: 0 }),
    c("pending", { name: "Pending Co", tracking: "pending_approval", priority: 0 }),

    s("a1", "alpha", {
      title: "Alpha raises prices",
      summary: "Team plan up 20 percent.",
      category: "pricing",
      type: "price_change",
      severity: "high",
      first_seen_at: "2026-11-10T08:00:00Z",
      last_seen_at: "2026-11-12T08:00:00Z",
      confidence: 0.92,
      topics: ["pricing", "plans"],
      evidence: [
        {
          text: "Team — $59",
          source_title: "Alpha pricing",
          source_url: "https://alpha.example/pricing",
          observed_at: "2026-11-10T08:00:00Z",
        },
      ],
    }),
    s("a2", "alpha", {
      title: "Alpha launches AI assistant",
      summary: "An assistant that writes SQL for you.",
      severity: "medium",
      first_seen_at: "2026-11-05T00:00:00Z",
      evidence: [{ text: "Launch post" }],
    }),
    // Same first_seen_at as a2: the higher id comes first.
    s("a3", "alpha", {
      title: "Alpha hires a CRO",
      severity: "low",
      first_seen_at: "2026-11-05T00:00:00Z",
      topics: [],
      summary: "",
    }),
    s("a-closed", "alpha", {
      title: "Alpha old rumour",
      status: "closed",
      severity: "high",
      first_seen_at: "2026-11-15T00:00:00Z",
    }),
    s("b1", "beta", {
      title: "Beta opens a Berlin office",
      summary: "Hiring 40 in EMEA; 100% remote-friendly_ish.",
      severity: "medium",
      first_seen_at: "2026-10-20T12:30:00Z",
    }),
    s("b2", "beta", {
      title: 'Beta: "quoted" AND NOT launch*',
      summary: "Operators in text: OR NEAR( ) ^ - +",
      severity: "high",
      first_seen_at: "2026-10-01T00:00:00Z",
    }),
    s("g1", "gamma", { title: "Gamma AI pivot", first_seen_at: "2026-09-01T00:00:00Z" }),
    s("g-nodate", "gamma", { title: "Gamma undated note" }),
    s("p1", "paused", {
      title: "Paused Co secret move",
      severity: "high",
      first_seen_at: "2026-11-19T00:00:00Z",
    }),
    s("r1", "removed", { title: "Removed Co move", first_seen_at: "2026-11-19T00:00:00Z" }),
    s("pe1", "pending", { title: "Pending Co move", first_seen_at: "2026-11-19T00:00:00Z" }),

    {
      kind: "digest",
      org,
      key: "d-weekly-1",
      slug: "week-45",
      type: "weekly_tldr",
      status: "generated",
      title: "Week 45",
      headline: "Alpha moves on price",
      tldr: "Prices up.",
      what_to_watch: "Beta EMEA",
      coverage_period_start: "2026-11-02T00:00:00Z",
      coverage_period_end: "2026-11-09T00:00:00Z",
      generated_at: "2026-11-09T06:00:00Z",
      items: [{ heading: "Pricing", body: "Alpha up 20%" }],
      signals: ["a1", "a2"],
      markdown: "# Week 45\n\nAlpha moves on price.",
    },
    {
      kind: "digest",
      org,
      key: "d-weekly-2",
      slug: "week-46",
      type: "weekly_tldr",
      status: "generated",
      title: "Week 46",
      coverage_period_start: "2026-11-09T00:00:00Z",
      coverage_period_end: "2026-11-16T00:00:00Z",
      generated_at: "2026-11-16T06:00:00Z",
      signals: ["a1"],
    },
    {
      kind: "digest",
      org,
      key: "d-daily-1",
      type: "daily_digest",
      status: "generated",
      headline: "Daily: Beta Berlin",
      coverage_period_start: "2026-11-12T00:00:00Z",
      coverage_period_end: "2026-11-13T00:00:00Z",
      generated_at: "2026-11-13T06:00:00Z",
      items: [],
      markdown: "",
    },
    {
      kind: "digest",
      org,
      key: "d-draft",
      slug: "draft-one",
      type: "weekly_tldr",
      status: "draft",
      coverage_period_end: "2026-11-20T00:00:00Z",
    },
    {
      kind: "digest",
      org,
      key: "d-failed",
      type: "daily_digest",
      status: "failed",
      coverage_period_end: "2026-11-20T00:00:00Z",
    },

    {
      kind: "battlecard",
      org,
      key: "bc-gamma",
      competitor: "gamma",
      status: "generated",
      generated_at: "2026-11-11T00:00:00Z",
      sections: {
        overview: "Gamma is small.",
        strengths: ["cheap"],
        weaknesses: [],
        talk_tracks: ["Ask about SSO"],
      },
    },
    {
      kind: "battlecard",
      org,
      key: "bc-alpha",
      competitor: "alpha",
      status: "generated",
      generated_at: "2026-11-12T00:00:00Z",
      sections: {
        overview: "Alpha is the leader.",
        strengths: ["brand"],
        weaknesses: ["price"],
        talk_tracks: ["Lead with TCO"],
      },
      evidence: { sources: [{ url: "https://alpha.example/pricing" }] },
    },
    { kind: "battlecard", org, key: "bc-beta", competitor: "beta", status: "generating" },
    { kind: "battlecard", org, key: "bc-paused", competitor: "paused", status: "generated" },
  ];
}

/** Loads the fixture into an org (created here) and returns a key for it and an id-by-key lookup. */
export async function loadFixture(t: TestServer, org = ORG) {
  await t.org(org);
  const key = await t.key(org);
  const report = await t.load(fixtureLines(org));
  expect(report.errors).toEqual([]);
  const ids = await idsByKey(t, org);
  return { key, ids };
}

/** A fresh test server with the fixture loaded into ORG: what most read-API test files start from. */
export async function startFixtureServer() {
  const t = await startTestServer();
  return { t, ...(await loadFixture(t)) };
}

export type Ids = Record<"competitors" | "signals" | "digests" | "battlecards", Record<string, number>>;

export async function idsByKey(t: TestServer, org: string): Promise<Ids> {
  const c = t.services.database.client;
  const out = {} as Ids;
  for (const table of ["competitors", "signals", "digests", "battlecards"] as const) {
    const r = await c.execute({
      sql: `SELECT x.key, x.id FROM ${table} x JOIN orgs o ON o.id = x.org_id WHERE o.slug = ?`,
      args: [org],
    });
    out[table] = Object.fromEntries(r.rows.map((row) => [String(row.key), Number(row.id)]));
  }
  return out;
}

/** GET with a key, returns status and parsed body. */
export async function getJson(t: TestServer, path: string, key: string) {
  const r = await t.get(path, { authorization: `Bearer ${key}` });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined, text, headers: r.headers };
}

const PROBLEM_KEYS = ["type", "title", "status", "detail", "code", "hint", "instance", "request_id", "error"];

/** Checks the full RFC 9457 body the spec asks for (section 7). */
export function expectProblem(
  r: { status: number; headers: Headers; body?: Obj },
  base: string,
  code: string,
  status: number,
) {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toStartWith("application/problem+json");
  const b = r.body as Obj;
  expect(b.type).toBe(`${base}/developers#errors-${code}`);
  expect(b.code).toBe(code);
  expect(b.status).toBe(status);
  for (const k of ["title", "detail", "hint", "instance", "request_id"]) expect(typeof b[k]).toBe("string");
  expect((b.detail as string).length).toBeGreaterThan(0);
  expect(b.error).toBe(b.detail);
  for (const k of Object.keys(b)) expect(PROBLEM_KEYS).toContain(k);
}
