// Research runs as events: the deciders of src/domain/research.ts (start, end, recovery at start) and what the
// competitor projection shows over REST — research state in freshness, the dossier a finished run records,
// nothing of a failed one — plus the first-brief lock, the weekly allowance and a projection rebuild.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rebuildProjections } from "../../projections/rebuild.ts";
import {
  handleStartResearch,
  INTERRUPTED,
  type RunOutcome,
  type StartCommand,
  utcWeek,
} from "../../src/domain/research.ts";
import type { ResearchDossier } from "../../src/domain/researchTypes.ts";
import { endRun, recoverOrphanedResearch } from "../../src/engine/research/lease.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";
import { countEvents, dumpReadTables, orgId, rest } from "../support/mcp-write-helpers.ts";

let t: TestServer;
let key: string;
let admin: Client;
const ids: Record<string, number> = {};
let acme = 0;
/** Ends a run as the research runner does (its lease row dropped with it). */
const end = (run: number, outcome: RunOutcome) => endRun(t.services, run, outcome, {});
let freeOrg = 0;

const dossier: ResearchDossier = {
  profile: { description: "Product analytics.", founding_year: 2016, headquarters: { city: "Austin" } },
  urls: { pricing: "https://globex.example/pricing" },
  reads: {
    positioning: "Answers without SQL.",
    pricing: { plans: [{ name: "Team", price: 59 }], page: "https://globex.example/pricing" },
  },
  sources: [
    { url: "https://globex.example/", kind: "home" },
    { url: "https://globex.example/pricing", kind: "pricing" },
  ],
  fetched: 2,
};

async function start(org: number, cmd: StartCommand, usesAllowance = true) {
  const { result } = await t.services.store.execute((w) =>
    handleStartResearch(
      w,
      { orgId: org, actor: "test" },
      cmd,
      cmd.kind === "watchlist" ? "refresh_watchlist" : "research_competitor",
      usesAllowance,
    ),
  );
  return result;
}

async function refused(org: number, cmd: StartCommand): Promise<{ code: string; message: string }> {
  try {
    await start(org, cmd);
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error("expected a refusal");
}

beforeAll(async () => {
  t = await startTestServer();
  acme = (await t.org("acme")).id;
  freeOrg = (await t.org("freeco", "free")).id;
  key = await t.key("acme");
  admin = await mcpClient(t.base, key);
  for (const [name, site] of [
    ["globex", "globex.example"],
    ["initech", "initech.example"],
  ]) {
    const r = body(await admin.callTool({ name: "add_competitor", arguments: { website_url: site } }));
    ids[name] = r.competitor.id;
  }
  const fk = await t.key("freeco");
  const free = await mcpClient(t.base, fk);
  for (const [name, site] of [
    ["f1", "f1.example"],
    ["f2", "f2.example"],
  ])
    ids[name] = body(
      await free.callTool({ name: "add_competitor", arguments: { website_url: site } }),
    ).competitor.id;
});
afterAll(() => t.close());

describe("a research run", () => {
  test("starts: research state in freshness, the first brief locks the profile", async () => {
    const r = await start(acme, { kind: "first", competitor_id: ids.globex });
    expect(r.runs).toHaveLength(1);
    expect(r.runs[0].first_brief).toBe(true);
    expect(r.allowance).toMatchObject({
      used: 1,
      limit: 10,
      plan: "growth",
      resets_at: utcWeek(t.clock.now).end,
    });
    const c = (await rest(t, key, `/api/v1/competitors/${ids.globex}`)).json.data;
    expect(c.freshness.research_state).toBe("running");
    expect(c.freshness.research_started_at).toBe(t.clock.now.toISOString());
    expect(c.reads).toBeUndefined();
    const locked = body(
      await admin.callTool({ name: "update_company_profile", arguments: { category: "x" } }),
    );
    expect(locked.error.code).toBe("locked");
    expect(
      body(await admin.callTool({ name: "get_company_profile", arguments: {} })).profile.first_brief_running,
    ).toBe(true);
  });

  test("one run per competitor at a time", async () => {
    const e = await refused(acme, { kind: "first", competitor_id: ids.globex });
    expect(e.code).toBe("conflict");
    expect(e.message).toContain("already running");
  });

  test("finishes: the dossier is recorded and the first brief ends", async () => {
    const run = (
      await t.services.database.client.execute("SELECT id FROM research_runs WHERE state = 'running'")
    ).rows[0].id;
    t.clock.advance(30_000);
    expect(await end(Number(run), { ok: true, dossier })).toBe(true);
    // A second end of the same run records nothing.
    expect(await end(Number(run), { ok: false, code: "x", reason: "y" })).toBe(false);
    const c = (await rest(t, key, `/api/v1/competitors/${ids.globex}`)).json.data;
    expect(c.description).toBe("Product analytics.");
    expect(c.founding_year).toBe(2016);
    expect(c.headquarters).toEqual({ city: "Austin" });
    expect(c.urls).toEqual({ pricing: "https://globex.example/pricing" });
    expect(c.reads.positioning).toBe("Answers without SQL.");
    expect(c.reads.pricing.plans[0]).toEqual({ name: "Team", price: 59, amount: 59 });
    expect(c.freshness.research_state).toBe("finished");
    expect(c.freshness.state_updated_at).toBe(t.clock.now.toISOString());
    expect(c.freshness.research_finished_at).toBe(t.clock.now.toISOString());
    expect(await countEvents(t, "FirstBriefFinished")).toBe(1);
    const p = body(
      await admin.callTool({ name: "update_company_profile", arguments: { category: "Analytics" } }),
    );
    expect(p.error).toBeUndefined();
    const sources = await t.services.database.client.execute({
      sql: "SELECT url, kind FROM research_sources WHERE competitor_id = ? ORDER BY url",
      args: [ids.globex],
    });
    expect(sources.rows.map((r) => [r.url, r.kind])).toEqual([
      ["https://globex.example/", "home"],
      ["https://globex.example/pricing", "pricing"],
    ]);
  });

  test("research_competitor is for a first research only", async () => {
    const e = await refused(acme, { kind: "first", competitor_id: ids.globex });
    expect(e.code).toBe("conflict");
    expect(e.message).toContain("refresh_watchlist");
  });

  test("a failed run stores nothing of itself and keeps the earlier research", async () => {
    const r = await start(acme, { kind: "watchlist" });
    expect(r.runs.map((x) => x.competitor_id).sort()).toEqual([ids.globex, ids.initech].sort());
    expect(r.runs.every((x) => !x.first_brief)).toBe(true);
    for (const run of r.runs)
      await end(run.run_id, {
        ok: false,
        code: "unreachable",
        reason: "Could not read it.",
      });
    const c = (await rest(t, key, `/api/v1/competitors/${ids.globex}`)).json.data;
    expect(c.reads.positioning).toBe("Answers without SQL.");
    expect(c.freshness.research_state).toBe("failed");
    expect(c.freshness.research_error).toBe("Could not read it.");
    const i = (await rest(t, key, `/api/v1/competitors/${ids.initech}`)).json.data;
    expect(i.reads).toBeUndefined();
    expect(i.description).toBeUndefined();
    expect(i.freshness.research_state).toBe("failed");
  });
});

describe("the weekly allowance", () => {
  test("one update per call; a wholly failed call does not count; refusal names the reset and the upgrade", async () => {
    const first = await start(freeOrg, { kind: "first", competitor_id: ids.f1 });
    expect(first.allowance).toMatchObject({ used: 1, limit: 1, plan: "free" });
    await end(first.runs[0].run_id, {
      ok: false,
      code: "unreachable",
      reason: "down",
    });
    const again = await start(freeOrg, { kind: "first", competitor_id: ids.f1 });
    expect(again.allowance?.used).toBe(1);
    await end(again.runs[0].run_id, { ok: true, dossier });
    const e = (await refused(freeOrg, { kind: "first", competitor_id: ids.f2 })) as unknown as {
      code: string;
      message: string;
      extra: Record<string, unknown>;
    };
    expect(e.code).toBe("limit_reached");
    expect(e.extra).toMatchObject({
      limit: "weekly_research_allowance",
      allowed: 1,
      used: 1,
      plan_needed: "starter",
    });
    expect(e.extra.resets_at).toBe(utcWeek(t.clock.now).end);
    // The operator's research uses no allowance.
    const op = await start(freeOrg, { kind: "one", competitor_id: ids.f2 }, false);
    expect(op.allowance).toBeUndefined();
    await end(op.runs[0].run_id, { ok: true, dossier });
    // Next week the allowance is back.
    t.clock.advance(7 * 86_400_000);
    const next = await start(freeOrg, { kind: "watchlist" });
    expect(next.allowance?.used).toBe(1);
    for (const run of next.runs) await end(run.run_id, { ok: true, dossier });
  });
});

describe("recovery at start", () => {
  test("a run left running by a stop is marked failed, the first brief ends, nothing partial stays", async () => {
    const org = (await t.org("crashco")).id;
    const k = await t.key("crashco");
    const c = await mcpClient(t.base, k);
    const id = body(await c.callTool({ name: "add_competitor", arguments: { website_url: "crash.example" } }))
      .competitor.id;
    const r = await start(org, { kind: "first", competitor_id: id });
    expect(r.runs[0].first_brief).toBe(true);
    // The process "stops" here: nothing ends the run, and it has no lease (started without the runner). The next
    // start recovers it.
    const marked = await recoverOrphanedResearch(t.services);
    expect(marked).toEqual([r.runs[0].run_id]);
    const d = (await rest(t, k, `/api/v1/competitors/${id}`)).json.data;
    expect(d.freshness.research_state).toBe("failed");
    expect(d.freshness.research_error).toBe(INTERRUPTED);
    expect(d.reads).toBeUndefined();
    expect(
      body(await c.callTool({ name: "get_company_profile", arguments: {} })).profile.first_brief_running,
    ).toBe(false);
    expect(await recoverOrphanedResearch(t.services)).toEqual([]);
    expect(await orgId(t, "crashco")).toBe(org);
  });
});

test("a finished run re-reads the competitor's overlap with the workspace's ICP", async () => {
  const org = (await t.org("icpco")).id;
  const k = await t.key("icpco");
  const c = await mcpClient(t.base, k);
  expect(
    body(await c.callTool({ name: "update_icp", arguments: { industries: ["Software"] } })).error,
  ).toBeUndefined();
  const id = body(await c.callTool({ name: "add_competitor", arguments: { website_url: "icp.example" } }))
    .competitor.id;
  expect((await rest(t, k, `/api/v1/competitors/${id}`)).json.data.workspace).toBeUndefined();
  const r = await start(org, { kind: "first", competitor_id: id });
  const n = await countEvents(t, "CompetitorIcpOverlapComputed");
  await end(r.runs[0].run_id, {
    ok: true,
    dossier: { ...dossier, profile: { ...dossier.profile, industry: "Software" } },
  });
  expect(await countEvents(t, "CompetitorIcpOverlapComputed")).toBe(n + 1);
  const d = (await rest(t, k, `/api/v1/competitors/${id}`)).json.data;
  expect(d.industry).toBe("Software");
  expect(d.workspace.icp_overlap.industries).toBeDefined();
});

test("a projection rebuild reproduces the research tables and dossiers", async () => {
  const before = await dumpReadTables(t);
  await rebuildProjections(t.services.store);
  expect(await dumpReadTables(t)).toEqual(before);
});
