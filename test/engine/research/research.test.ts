// Research end to end on the fixture web (fixtures/web, served on loopback through RIVALS_FETCH_REWRITE):
// research_competitor over the official SDK client, `rivals research` as a real process, and the REST dossier
// must hold every value fixtures/web/expected.ts lists, and nothing on the near-empty site; an unreachable
// site fails with its reason and stores nothing; refresh_watchlist, draft_positioning, the "running" answer,
// the first-brief lock, and the refusals (admin, scope, allowance, idempotency).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  brightloop,
  type ExpectedSite,
  globex,
  northwind,
  quantive,
  tallyhq,
} from "../../../fixtures/web/expected.ts";
import { type FixtureWeb, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { researchIdle } from "../../../src/engine/research/runner.ts";
import { toolList } from "../../../src/mcp/registry.ts";
import { runProcess } from "../../e2e/harness.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient, rawPost, toolsCall } from "../../support/mcp-helpers.ts";
import { callAs, countEvents, principalFor, rest } from "../../support/mcp-write-helpers.ts";

setDefaultTimeout(60_000);

let web: FixtureWeb;
let t: TestServer;
let key: string;
let acme: Client;
const ids: Record<string, number> = {};

const call = async (c: Client, name: string, args: Record<string, unknown> = {}) =>
  body(await c.callTool({ name, arguments: args }));

/** Every value expected.ts lists for the site, in the dossier as REST serves it. */
function expectDossier(d: any, site: ExpectedSite) {
  for (const [k, v] of Object.entries(site.profile)) expect({ [k]: d[k] }).toEqual({ [k]: v });
  for (const k of site.absentProfile) expect({ [k]: d[k] }).toEqual({ [k]: undefined });
  const reads = d.reads ?? {};
  if (site.positioning) expect(reads.positioning).toBe(site.positioning);
  for (const f of site.features) expect(reads.product.features).toContain(f);
  if (site.pricing) {
    expect(reads.pricing.page).toBe(site.pricing.page);
    expect(reads.pricing.free_tier).toBe(site.pricing.free_tier);
    expect(reads.pricing.has_enterprise).toBe(site.pricing.has_enterprise);
    expect(reads.pricing.plans.map((p: { name: string }) => p.name)).toEqual(
      site.pricing.plans.map((p) => p.name),
    );
    for (const [i, p] of site.pricing.plans.entries()) {
      const got = reads.pricing.plans[i];
      // expected.ts states a month; the read states the amount as billed, a yearly one's month beside it.
      expect((got.period === "year" ? got.monthly_equivalent : got.price) ?? null).toBe(p.price);
      if (got.price !== undefined) expect(got.amount).toBe(got.price);
      for (const k of ["currency", "period", "unit"] as const) if (p[k]) expect(got[k]).toBe(p[k]);
      if (p.custom) expect(got.custom).toBe(true);
      for (const f of p.featuresInclude) expect(got.features).toContain(f);
    }
    expect(d.urls.pricing).toBe(site.pricing.page);
  }
  if (site.integrations) {
    expect(reads.integrations.page).toBe(site.integrations.page);
    for (const n of site.integrations.names) expect(reads.integrations.names).toContain(n);
    expect(reads.integrations.count).toBe(reads.integrations.names.length);
  }
  if (site.jobs) {
    expect(reads.hiring.open_roles).toBe(site.jobs.open_roles);
    expect(reads.hiring.by_department).toEqual(site.jobs.by_department);
    expect([...reads.hiring.locations].sort()).toEqual([...site.jobs.locations].sort());
    if (site.jobs.board) {
      expect(reads.hiring.board).toBe(site.jobs.board.provider);
      expect(reads.hiring.source).toBe(site.jobs.board.apiUrl);
    } else expect(reads.hiring.source).toBe(site.jobs.careersPage);
    expect(d.urls.careers).toBe(site.jobs.careersPage);
  }
  if (site.profile.company_size) expect(reads.hiring.estimated_headcount).toBe(site.profile.company_size);
  if (site.changelog) {
    const c = reads.release_cadence;
    expect(c.source).toBe(site.changelog.page);
    expect(c.last_release_at.slice(0, 10)).toBe(site.changelog.entries[0].date);
    expect(d.urls.changelog).toBe(site.changelog.page);
  }
  const tech = (reads.tech_stack?.technologies ?? []).map((x: { name: string }) => x.name);
  for (const n of site.tech) expect(tech).toContain(n);
  for (const [k, u] of Object.entries(site.social)) expect({ [k]: d.urls[k] }).toEqual({ [k]: u });
  if (site.pages.docs) expect(d.urls.docs).toBe(site.pages.docs);
  expect(d.freshness.research_state).toBe("finished");
  // Where each profile field was read is kept internally, never served.
  expect(d.internal).toBeUndefined();
  expect(d.evidence).toBeUndefined();
}

beforeAll(async () => {
  web = startFixtureWeb();
  t = await startTestServer({
    RIVALS_FETCH_REWRITE: `https://down.example=http://127.0.0.1:1,${web.rewrite}`,
    RIVALS_FETCH_DELAY_MS: "0",
  });
  await t.org("acme");
  key = await t.key("acme");
  acme = await mcpClient(t.base, key);
  for (const s of [globex, brightloop, quantive, northwind, tallyhq])
    ids[s.key] = (await call(acme, "add_competitor", { website_url: s.origin })).competitor.id;
  ids.down = (await call(acme, "add_competitor", { website_url: "https://down.example" })).competitor.id;
});
afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

describe("research_competitor", () => {
  test("finds every value the fixture site states (Globex), over MCP and REST alike", async () => {
    const r = await call(acme, "research_competitor", { competitor_id: ids.globex, idempotency_key: "g1" });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe("finished");
    expect(r.allowance).toMatchObject({ used: 1, limit: 10, plan: "growth" });
    expect(r.summary.pages_read).toBeGreaterThanOrEqual(8);
    expect(r.summary.job_board).toBe("greenhouse");
    const d = (await rest(t, key, `/api/v1/competitors/${ids.globex}`)).json.data;
    expect(r.competitor).toEqual(d);
    expect((await call(acme, "get_competitor", { competitor_id: ids.globex })).competitor).toEqual(d);
    expectDossier(d, globex);
    // The first research was the workspace's first brief, and it has ended.
    expect(await countEvents(t, "FirstBriefStarted")).toBe(1);
    expect(await countEvents(t, "FirstBriefFinished")).toBe(1);
    // Sources to watch, with kinds.
    const src = await t.services.database.client.execute({
      sql: "SELECT url, kind FROM research_sources WHERE competitor_id = ?",
      args: [ids.globex],
    });
    const kinds = Object.fromEntries(src.rows.map((x) => [String(x.url), String(x.kind)]));
    for (const [kind, url] of Object.entries(globex.pages))
      expect({ url, kind: kinds[url] }).toEqual({ url, kind });
    for (const f of globex.feeds) expect(kinds[f]).toBe("feed");
  });

  test("a retry with the same idempotency key returns the first result and does no new work", async () => {
    const n = await countEvents(t, "ResearchStarted");
    const again = await call(acme, "research_competitor", {
      competitor_id: ids.globex,
      idempotency_key: "g1",
    });
    expect(again.status).toBe("finished");
    expect(await countEvents(t, "ResearchStarted")).toBe(n);
    const other = await call(acme, "research_competitor", {
      competitor_id: ids.quantive,
      idempotency_key: "g1",
    });
    expect(other.error.code).toBe("idempotency_conflict");
  });

  test("a researched competitor is refused (use refresh_watchlist)", async () => {
    const e = await call(acme, "research_competitor", { competitor_id: ids.globex });
    expect(e.error.code).toBe("conflict");
  });

  for (const site of [quantive, northwind])
    test(`finds every value ${site.name} states`, async () => {
      const r = await call(acme, "research_competitor", { competitor_id: ids[site.key] });
      expect(r.error).toBeUndefined();
      expectDossier((await rest(t, key, `/api/v1/competitors/${ids[site.key]}`)).json.data, site);
    });

  test("invents nothing on a site that states almost nothing", async () => {
    const r = await call(acme, "research_competitor", { competitor_id: ids.tallyhq });
    expect(r.status).toBe("finished");
    const d = (await rest(t, key, `/api/v1/competitors/${ids.tallyhq}`)).json.data;
    for (const k of tallyhq.absentProfile) expect({ [k]: d[k] }).toEqual({ [k]: undefined });
    expect(d.reads).toBeUndefined();
    expect(d.urls).toBeUndefined();
    expect(d.freshness.research_state).toBe("finished");
  });

  test("an unreachable site fails with the reason and stores nothing", async () => {
    const before = (await rest(t, key, `/api/v1/competitors/${ids.down}`)).json.data;
    const e = await call(acme, "research_competitor", { competitor_id: ids.down });
    expect(e.error.code).toBe("research_failed");
    expect(e.error.message).toContain("Could not read https://down.example/");
    expect(e.error.reason_code).toBe("unreachable");
    const d = (await rest(t, key, `/api/v1/competitors/${ids.down}`)).json.data;
    expect(d.reads).toBeUndefined();
    expect(d.urls).toBeUndefined();
    expect(d.description).toBeUndefined();
    expect(d.freshness.research_state).toBe("failed");
    expect(d.freshness.research_error).toBe(e.error.message);
    expect(d.freshness.state_updated_at).toBeUndefined();
    expect({ ...d, freshness: undefined }).toEqual({ ...before, freshness: undefined });
  });

  test("members, a missing spend scope, horizon and unknown competitors are refused", async () => {
    const member = await principalFor(t, "acme", "member");
    expect(
      (await callAs(t, member, "research_competitor", { competitor_id: ids.brightloop })).error.code,
    ).toBe("forbidden");
    const readWrite = await t.key("acme", "read,write");
    const res = await rawPost(t.base, toolsCall("research_competitor", { competitor_id: ids.brightloop }), {
      authorization: `Bearer ${readWrite}`,
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain("spend");
    expect((await call(acme, "research_competitor", { competitor_id: 999_999 })).error.code).toBe(
      "not_found",
    );
  });
});

describe("rivals research", () => {
  test("researches one competitor as a real process and prints one JSON summary (no allowance used)", async () => {
    const env = {
      ...process.env,
      RIVALS_DB: `file:${t.dir}/rivals.db`,
      RIVALS_FETCH_REWRITE: `https://down.example=http://127.0.0.1:1,${web.rewrite}`,
      RIVALS_FETCH_DELAY_MS: "0",
    };
    const r = await runProcess(
      [process.execPath, "src/main.ts", "research", "--org", "acme", "--competitor", String(ids.brightloop)],
      { env },
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const j = JSON.parse(lines[0]);
    expect(j.status).toBe("finished");
    expect(j.competitor_id).toBe(ids.brightloop);
    expect(j.reads).toEqual(expect.arrayContaining(["pricing", "hiring", "integrations", "release_cadence"]));
    expectDossier((await rest(t, key, `/api/v1/competitors/${ids.brightloop}`)).json.data, brightloop);
    const plan = await call(acme, "get_plan_and_limits");
    expect(plan.plan.weekly_research_allowance).toBe(10);
    // globex, quantive, northwind, tallyhq by the tool; the failed run and the operator's count nothing.
    expect(plan.usage.research_updates_this_week).toBe(4);
    expect(plan.usage.research_allowance_resets_at).toBe("2026-11-23T00:00:00.000Z");

    const down = await runProcess(
      [process.execPath, "src/main.ts", "research", "--org", "acme", "--competitor", String(ids.down)],
      { env },
    );
    expect(down.code).toBe(1);
    const f = JSON.parse(down.stdout.trim());
    expect(f.status).toBe("failed");
    expect(f.error).toContain("Could not read https://down.example/");
  });
});

describe("refresh_watchlist", () => {
  test("refreshes every core competitor for one update of the allowance", async () => {
    const before = await call(acme, "research_competitor", { competitor_id: ids.globex });
    expect(before.error.code).toBe("conflict");
    const r = await call(acme, "refresh_watchlist", { idempotency_key: "refresh-1" });
    expect(r.status).toBe("finished");
    expect(r.runs.map((x: { competitor_id: number }) => x.competitor_id).sort()).toEqual(
      Object.values(ids).sort(),
    );
    const down = r.runs.find((x: { competitor_id: number }) => x.competitor_id === ids.down);
    expect(down.status).toBe("failed");
    expect(down.error.reason).toContain("down.example");
    expect(r.runs.filter((x: { status: string }) => x.status === "finished")).toHaveLength(5);
    const used = r.allowance.used;
    expect((await call(acme, "refresh_watchlist", { idempotency_key: "refresh-1" })).allowance.used).toBe(
      used,
    );
    expectDossier((await rest(t, key, `/api/v1/competitors/${ids.globex}`)).json.data, globex);
  });
});

describe("a long run", () => {
  test("answers running after the wait, goes on, and locks profile and ICP as the first brief", async () => {
    const t2 = await startTestServer({
      RIVALS_FETCH_REWRITE: web.rewrite,
      RIVALS_FETCH_DELAY_MS: "0",
      RIVALS_RESEARCH_WAIT_MS: "0",
    });
    try {
      await t2.org("slow", "free");
      const k = await t2.key("slow");
      const c = await mcpClient(t2.base, k);
      const id = (await call(c, "add_competitor", { website_url: globex.origin })).competitor.id;
      const r = await call(c, "research_competitor", { competitor_id: id });
      expect(r.status).toBe("running");
      expect(r.competitor.freshness.research_state).toBe("running");
      expect((await call(c, "update_icp", { industries: ["Software"] })).error.code).toBe("locked");
      expect((await call(c, "update_company_profile", { category: "x" })).error.code).toBe("locked");
      expect((await call(c, "draft_positioning")).error.code).toBe("locked");
      await researchIdle(t2.services);
      const d = (await call(c, "get_competitor", { competitor_id: id })).competitor;
      expect(d.freshness.research_state).toBe("finished");
      expect(d.reads.pricing.plans.length).toBe(3);
      expect((await call(c, "update_company_profile", { category: "Analytics" })).error).toBeUndefined();
      // The free plan's one weekly update is used.
      const again = await call(c, "refresh_watchlist");
      expect(again.error.code).toBe("limit_reached");
      expect(again.error.limit).toBe("weekly_research_allowance");
    } finally {
      await researchIdle(t2.services);
      await t2.close();
    }
  });
});

describe("draft_positioning", () => {
  test("fills the empty positioning fields from the workspace's own website; filled ones stay", async () => {
    const t3 = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
    try {
      const { createOrg } = await import("../../../src/domain/orgs.ts");
      await createOrg(t3.services.store, {
        slug: "nw",
        name: "Northwind",
        plan: "free",
        website_url: northwind.origin,
      });
      const k = await t3.key("nw");
      const c = await mcpClient(t3.base, k);
      await call(c, "update_company_profile", { differentiators: ["Our own words"] });
      const r = await call(c, "draft_positioning", { idempotency_key: "d1" });
      expect(r.error).toBeUndefined();
      expect(r.filled).toContain("value_propositions");
      expect(r.kept).toEqual(["differentiators"]);
      expect(r.positioning.value_propositions[0]).toBe(northwind.hero!.headline);
      expect(r.positioning.differentiators).toEqual(["Our own words"]);
      expect(r.source_url).toBe(`${northwind.origin}/`);
      expect(r.drafts_today).toEqual({ used: 1, limit: 1 });
      const profile = (await call(c, "get_company_profile")).profile;
      expect(profile.positioning.value_propositions).toEqual(r.positioning.value_propositions);
      expect((await call(c, "draft_positioning", { idempotency_key: "d1" })).filled).toEqual(r.filled);
      // Clearing a field and drafting again meets the free plan's daily cap of one.
      await call(c, "update_company_profile", { value_propositions: [] });
      expect((await call(c, "draft_positioning")).error.code).toBe("limit_reached");
    } finally {
      await t3.close();
    }
  });
});

test("tools/list has every tool, the research tools with schemas and truthful annotations", async () => {
  const { tools } = await acme.listTools();
  expect(tools.map((x) => x.name).sort()).toEqual(toolList.map((x) => x.name).sort());
  for (const name of ["research_competitor", "refresh_watchlist", "draft_positioning"]) {
    const tool = tools.find((x) => x.name === name)!;
    expect(tool.outputSchema?.type).toBe("object");
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(tool.description).toContain("Needs scope spend. Admins only.");
    expect(JSON.stringify(tool.inputSchema)).toContain("idempotency_key");
  }
});
