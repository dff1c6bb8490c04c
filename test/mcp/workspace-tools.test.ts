// Workspace tools over HTTP with the official SDK client: get_workspace, get_plan_and_limits,
// get_company_profile, update_company_profile, update_icp, get_delivery_settings, set_monitoring_cadence,
// set_delivery_channels. Member-role refusals go through callTool with a real member principal (API keys act as
// admin; member OAuth tokens plug in later).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rebuildProjections } from "../../projections/rebuild.ts";
import type { Principal } from "../../src/auth/principal.ts";
import { loadMemberUser, memberPrincipal } from "../../src/auth/session.ts";
import { run } from "../../src/cli/commands.ts";
import { connectChat } from "../../src/domain/chat.ts";
import { addMember } from "../../src/domain/members.ts";
import { setPlan } from "../../src/domain/orgs.ts";
import { PLAN_NAMES, PLANS } from "../../src/domain/plans.ts";
import { callTool } from "../../src/mcp/call.ts";
import { toolsByName } from "../../src/mcp/registry.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient, rawPost, toolsCall } from "../support/mcp-helpers.ts";
import { markFirstBrief } from "../support/mcp-write-helpers.ts";

let t: TestServer;
let admin: Client;
let adminKey: string;
let freeClient: Client;
let trialClient: Client;
let starterClient: Client;
let member: Principal;
const orgs: Record<string, number> = {};
const ids: Record<string, number> = {};

const call = async (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args });
const ok = async (c: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = await call(c, name, args);
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(body(r))}`);
  return body(r);
};
const err = async (c: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = await call(c, name, args);
  expect(r.isError).toBe(true);
  return body(r).error as { code: string; message: string; [k: string]: unknown };
};

async function countEvents(type: string, orgId: number): Promise<number> {
  const r = await t.services.database.client.execute({
    sql: "SELECT count(*) AS n FROM events WHERE type = ? AND org_id = ?",
    args: [type, orgId],
  });
  return Number(r.rows[0].n);
}

async function restCompetitor(id: number) {
  const res = await t.get(`/api/v1/competitors/${id}`, { authorization: `Bearer ${adminKey}` });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}

function callAs(p: Principal, name: string, args: Record<string, unknown> = {}) {
  return callTool(
    toolsByName.get(name)!,
    { s: t.services, principal: p, requestId: "test", base: t.base, now: t.clock.now },
    args,
  );
}

beforeAll(async () => {
  t = await startTestServer();
  orgs.acme = (await t.org("acme", "growth")).id;
  orgs.freeco = (await t.org("freeco", "free")).id;
  orgs.trialco = (await t.org("trialco", "trial")).id;
  orgs.starterco = (await t.org("starterco", "starter")).id;
  orgs.umbrella = (await t.org("umbrella", "growth")).id;
  const report = await t.load([
    {
      kind: "competitor",
      org: "acme",
      key: "ledgerly",
      name: "Ledgerly",
      website_url: "https://ledgerly.example",
      category: "Spend management",
      industry: "Financial services",
      target_customer: "Finance teams and CFOs at mid-market companies",
      description: "Corporate cards and expense software.",
      priority: 1,
      reads: {
        positioning: "The finance stack for controllers who close the books in a day.",
        market: { segments: ["Fintech", "Mid-market"], summary: "Sells to banks and fintech firms" },
      },
    },
    {
      kind: "competitor",
      org: "acme",
      key: "carebase",
      name: "Carebase",
      website_url: "https://carebase.example",
      industry: "Healthcare",
      target_customer: "Hospital operations leaders",
      priority: 2,
    },
    { kind: "competitor", org: "acme", key: "blank", name: "Blankco", priority: 3 },
    { kind: "competitor", org: "acme", key: "paused", name: "Pausedco", tracking: "paused" },
    { kind: "competitor", org: "acme", key: "horizon", name: "Horizonco", watch: "horizon" },
    { kind: "competitor", org: "umbrella", key: "hidden", name: "Hidden Corp", industry: "Healthcare" },
    { kind: "competitor", org: "freeco", key: "f1", name: "Free Rival", industry: "Retail" },
  ]);
  expect(report.errors).toEqual([]);
  adminKey = await t.key("acme");
  admin = await mcpClient(t.base, adminKey);
  freeClient = await mcpClient(t.base, await t.key("freeco"));
  trialClient = await mcpClient(t.base, await t.key("trialco"));
  starterClient = await mcpClient(t.base, await t.key("starterco"));
  const list = await ok(admin, "list_competitors");
  for (const c of list.competitors as { id: number; name: string }[]) ids[c.name] = c.id;
  const added = await addMember(t.services.store, {
    org: "acme",
    email: "mia@acme.example",
    role: "member",
    name: "Mia Member",
  });
  const user = await loadMemberUser(t.services, added.user_id);
  member = memberPrincipal(user!, orgs.acme, ["read", "write", "spend"])!;
  expect(member.role).toBe("member");
});
afterAll(() => t.close());

describe("tools/list", () => {
  test("every workspace tool has schemas and truthful annotations", async () => {
    const { tools } = await admin.listTools();
    const byName = new Map(tools.map((x) => [x.name, x]));
    const readOnly = ["get_workspace", "get_plan_and_limits", "get_company_profile", "get_delivery_settings"];
    const writes = [
      "update_company_profile",
      "update_icp",
      "set_monitoring_cadence",
      "set_delivery_channels",
    ];
    for (const name of [...readOnly, ...writes]) {
      const tool = byName.get(name)!;
      expect(tool).toBeDefined();
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations?.readOnlyHint).toBe(readOnly.includes(name));
      expect(tool.annotations?.openWorldHint).toBe(false);
    }
    expect(byName.get("update_icp")!.annotations?.idempotentHint).toBe(false);
    expect(byName.get("update_icp")!.annotations?.destructiveHint).toBe(true);
    expect(Object.keys(byName.get("update_icp")!.inputSchema.properties ?? {})).toEqual([
      "industries",
      "buyer_roles",
      "idempotency_key",
    ]);
    const cadence = byName.get("set_monitoring_cadence")!.inputSchema as any;
    expect(cadence.required).toEqual(["cadence"]);
    expect(cadence.properties.cadence.enum).toEqual(["weekly", "daily", "twice_daily", "hourly"]);
    expect(byName.get("set_delivery_channels")!.description).toContain("Admins only.");
  });
});

describe("get_workspace", () => {
  test("names the workspace, the caller, the scopes and the plan", async () => {
    const r = await ok(admin, "get_workspace");
    expect(r.workspace).toMatchObject({ id: orgs.acme, slug: "acme", name: "ACME" });
    expect(r.caller).toMatchObject({ name: "test", role: "admin", authenticated_via: "api_key" });
    expect(r.caller.actor).toMatch(/^api_key:\d+$/);
    expect(r.scopes).toEqual(["read", "write", "spend"]);
    expect(r.plan).toEqual({ name: "growth", label: "Growth", paid: true });
  });

  test("a read-only key reports its scopes; a member sees role member", async () => {
    const ro = await mcpClient(t.base, await t.key("acme", "read"));
    expect((await ok(ro, "get_workspace")).scopes).toEqual(["read"]);
    const r = await callAs(member, "get_workspace");
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as any).caller).toMatchObject({ role: "member", name: "Mia Member" });
  });

  test("needs the read scope (HTTP 403) and a credential (HTTP 401)", async () => {
    const msg = toolsCall("get_workspace");
    const r = await rawPost(t.base, msg, { authorization: `Bearer ${await t.key("acme", "write")}` });
    expect(r.status).toBe(403);
    expect(r.headers.get("www-authenticate")).toContain('scope="read"');
    expect((await rawPost(t.base, msg)).status).toBe(401);
  });
});

describe("get_plan_and_limits", () => {
  test("every number of the plan table, usage, other plans and the pricing link", async () => {
    const r = await ok(admin, "get_plan_and_limits");
    const g = PLANS.growth;
    expect(r.plan).toEqual({
      name: "growth",
      label: g.label,
      paid: true,
      read_api: true,
      core_competitor_slots: g.coreSlots,
      weekly_research_allowance: g.weeklyResearchAllowance,
      daily_caps: {
        battlecards: g.dailyCaps.battlecards,
        icp_updates: g.dailyCaps.icpUpdates,
        positioning_drafts: g.dailyCaps.positioningDrafts,
        pages_rendered: g.dailyCaps.renders,
      },
      share_link_lifetime_hours: g.shareLinkHours,
      monitoring_cadences: g.cadences,
      monitored_pages_per_competitor: 10,
      member_seats: g.memberSeats,
      paid_only_features: g.paidOnlyFeatures,
    });
    // Ledgerly, Carebase and Blankco hold core slots; the paused and the horizon ones do not.
    expect(r.usage.core_slots_used).toBe(3);
    expect(r.usage.core_slots_left).toBe(g.coreSlots - 3);
    expect(r.usage.daily_caps_reset_at).toBe("2026-11-21T00:00:00.000Z");
    expect(r.other_plans.map((p: { name: string }) => p.name)).toEqual(
      PLAN_NAMES.filter((n) => n !== "growth"),
    );
    expect(r.other_plans.find((p: { name: string }) => p.name === "enterprise").core_competitor_slots).toBe(
      PLANS.enterprise.coreSlots,
    );
    expect(r.pricing_url).toBe(`${t.base}/pricing`);
  });

  test("a trial workspace sees when the trial ends", async () => {
    const r = await ok(trialClient, "get_plan_and_limits");
    expect(r.plan.name).toBe("trial");
    expect(r.plan.read_api).toBe(false);
    expect(r.usage.trial_ends_at).toBe("2026-11-27T12:00:00.000Z");
  });
});

describe("company profile", () => {
  test("starts empty, with empty lists", async () => {
    const r = await ok(admin, "get_company_profile");
    expect(r.profile).toEqual({
      name: "ACME",
      positioning: { value_propositions: [], differentiators: [], exclusions: [] },
      ideal_customer_profile: { industries: [], buyer_roles: [] },
      first_brief_running: false,
    });
  });

  test("only fields sent change; lists replace; blanks clear; unchanged sends record nothing", async () => {
    const first = await ok(admin, "update_company_profile", {
      target_customer: "  Mid-market B2B SaaS product teams ",
      differentiators: ["Warehouse-native", "No per-seat pricing", "warehouse-native", " "],
      value_propositions: ["Answers in minutes"],
    });
    expect(first.changed.sort()).toEqual(["differentiators", "target_customer", "value_propositions"]);
    expect(first.profile.target_customer).toBe("Mid-market B2B SaaS product teams");
    expect(first.profile.positioning.differentiators).toEqual(["Warehouse-native", "No per-seat pricing"]);
    expect(first.profile.profile_updated_at).toBe(t.clock.now.toISOString());

    const second = await ok(admin, "update_company_profile", {
      description: "Product analytics on your warehouse.",
      differentiators: ["Open source SDKs"],
    });
    expect(second.changed.sort()).toEqual(["description", "differentiators"]);
    expect(second.profile.positioning).toEqual({
      value_propositions: ["Answers in minutes"],
      differentiators: ["Open source SDKs"],
      exclusions: [],
    });
    expect(second.profile.target_customer).toBe("Mid-market B2B SaaS product teams");

    const before = await countEvents("CompanyProfileUpdated", orgs.acme);
    const same = await ok(admin, "update_company_profile", {
      description: "Product analytics on your warehouse.",
    });
    expect(same.changed).toEqual([]);
    expect(await countEvents("CompanyProfileUpdated", orgs.acme)).toBe(before);

    const cleared = await ok(admin, "update_company_profile", { value_propositions: [], description: "" });
    expect(cleared.profile.positioning.value_propositions).toEqual([]);
    expect(cleared.profile.description).toBeUndefined();
    const read = await ok(admin, "get_company_profile");
    expect(read.profile).toEqual(cleared.profile);
  });

  test("bad arguments", async () => {
    expect((await err(admin, "update_company_profile", {})).code).toBe("invalid_argument");
    expect((await err(admin, "update_company_profile", { differentiators: "one" })).code).toBe(
      "invalid_argument",
    );
    expect((await err(admin, "update_company_profile", { category: "x".repeat(2001) })).code).toBe(
      "invalid_argument",
    );
    expect((await err(admin, "update_company_profile", { name: "Renamed" })).code).toBe("invalid_argument");
    expect(
      (
        await err(admin, "update_company_profile", {
          exclusions: Array.from({ length: 51 }, (_, i) => `x${i}`),
        })
      ).code,
    ).toBe("invalid_argument");
  });

  test("admin only; needs the write scope", async () => {
    const r = await callAs(member, "update_company_profile", { category: "Analytics" });
    expect(r.isError).toBe(true);
    expect(body(r).error.code).toBe("forbidden");
    const read = await callAs(member, "get_company_profile");
    expect(read.isError).toBeFalsy();
    const res = await rawPost(t.base, toolsCall("update_company_profile", { category: "x" }), {
      authorization: `Bearer ${await t.key("acme", "read")}`,
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('scope="write"');
  });

  test("each workspace has its own profile", async () => {
    const other = await mcpClient(t.base, await t.key("umbrella"));
    const r = await ok(other, "get_company_profile");
    expect(r.profile.name).toBe("UMBRELLA");
    expect(r.profile.target_customer).toBeUndefined();
  });
});

describe("update_icp", () => {
  test("sets the ICP and writes each tracked competitor's overlap, visible at once in the REST dossier", async () => {
    const r = await ok(admin, "update_icp", {
      industries: ["Fintech", "Healthcare"],
      buyer_roles: ["CFO", "VP of Operations"],
    });
    expect(r.ideal_customer_profile).toEqual({
      industries: ["Fintech", "Healthcare"],
      buyer_roles: ["CFO", "VP of Operations"],
    });
    expect(r.changed).toEqual(["industries", "buyer_roles"]);
    expect(r.daily_cap).toBe(PLANS.growth.dailyCaps.icpUpdates);
    expect(r.icp_updates_used_today).toBe(1);
    // Only actively tracked competitors, in list order.
    expect(r.competitors.map((c: { name: string }) => c.name)).toEqual([
      "Ledgerly",
      "Carebase",
      "Blankco",
      "Horizonco",
    ]);
    const ledgerly = r.competitors[0].icp_overlap;
    expect(ledgerly.industries.matched).toEqual([{ value: "Fintech", match: "full", fields: ["market"] }]);
    expect(ledgerly.industries.unmatched).toEqual(["Healthcare"]);
    expect(ledgerly.buyer_roles.matched[0]).toEqual({
      value: "CFO",
      match: "full",
      fields: ["target_customer", "positioning"],
    });
    expect(ledgerly.buyer_roles.unmatched).toEqual(["VP of Operations"]);
    expect(ledgerly.score).toBe(0.5);
    expect(ledgerly.level).toBe("medium");
    const carebase = r.competitors[1].icp_overlap;
    expect(carebase.industries.matched[0]).toMatchObject({ value: "Healthcare", match: "full" });
    expect(carebase.industries.matched[0].fields).toContain("industry");
    expect(carebase.buyer_roles.matched[0]).toMatchObject({ value: "VP of Operations", match: "full" });
    expect(carebase.industries.unmatched).toEqual(["Fintech"]);
    expect(carebase.buyer_roles.unmatched).toEqual(["CFO"]);
    expect(carebase.score).toBe(0.5);
    expect(r.competitors[2].icp_overlap.level).toBe("unknown");

    const rest = await restCompetitor(ids.Ledgerly);
    expect(rest.workspace.icp_overlap).toEqual(ledgerly);
    expect((await restCompetitor(ids.Carebase)).workspace.icp_overlap).toEqual(carebase);
    const dossier = await ok(admin, "get_competitor", { competitor_id: ids.Carebase });
    expect(dossier.competitor.workspace.icp_overlap.score).toBe(0.5);
    const profile = await ok(admin, "get_company_profile");
    expect(profile.profile.ideal_customer_profile).toEqual(r.ideal_customer_profile);
    expect(profile.profile.icp_updated_at).toBe(t.clock.now.toISOString());
  });

  test("only dimensions sent change; an empty list clears one", async () => {
    const r = await ok(admin, "update_icp", { buyer_roles: ["Hospital operations"] });
    expect(r.ideal_customer_profile).toEqual({
      industries: ["Fintech", "Healthcare"],
      buyer_roles: ["Hospital operations"],
    });
    expect(r.changed).toEqual(["buyer_roles"]);
    const cleared = await ok(admin, "update_icp", { industries: [] });
    expect(cleared.ideal_customer_profile).toEqual({ industries: [], buyer_roles: ["Hospital operations"] });
    const carebase = (await restCompetitor(ids.Carebase)).workspace.icp_overlap;
    expect(carebase.industries).toBeUndefined();
    expect(carebase.buyer_roles.matched[0]).toMatchObject({ value: "Hospital operations", match: "full" });
    expect(carebase.score).toBe(1);
    expect(carebase.level).toBe("high");
    const none = await ok(admin, "update_icp", { buyer_roles: [] });
    expect(none.ideal_customer_profile).toEqual({ industries: [], buyer_roles: [] });
    expect((await restCompetitor(ids.Carebase)).workspace).toBeUndefined();
  });

  test("a projections rebuild reproduces the settings, the ICP log and the overlaps", async () => {
    await ok(admin, "update_icp", { industries: ["Healthcare"] });
    const before = await restCompetitor(ids.Carebase);
    expect(before.workspace.icp_overlap.score).toBe(1);
    const dump = async () => {
      const out: Record<string, unknown[]> = {};
      for (const table of ["workspace_settings", "icp_updates", "competitors"]) {
        const r = await t.services.database.client.execute(`SELECT * FROM ${table} ORDER BY id`);
        out[table] = r.rows.map((row) => ({ ...row }));
      }
      return out;
    };
    const tables = await dump();
    expect(tables.icp_updates.length).toBeGreaterThan(0);
    await rebuildProjections(t.services.store);
    expect(await dump()).toEqual(tables);
    expect(await restCompetitor(ids.Carebase)).toEqual(before);
    expect((await ok(admin, "get_company_profile")).profile.ideal_customer_profile.industries).toEqual([
      "Healthcare",
    ]);
  });

  test("another workspace's competitors are never read or written", async () => {
    const umbrellaKey = await t.key("umbrella");
    const res = await t.get("/api/v1/competitors", { authorization: `Bearer ${umbrellaKey}` });
    const [hidden] = (await res.json()).data;
    const detail = await (
      await t.get(`/api/v1/competitors/${hidden.id}`, { authorization: `Bearer ${umbrellaKey}` })
    ).json();
    expect(detail.data.workspace).toBeUndefined();
    const other = await mcpClient(t.base, umbrellaKey);
    const r = await ok(other, "update_icp", { industries: ["Healthcare"] });
    expect(r.competitors.map((c: { name: string }) => c.name)).toEqual(["Hidden Corp"]);
    expect((await ok(admin, "get_company_profile")).profile.ideal_customer_profile.industries).toEqual([
      "Healthcare",
    ]);
  });

  test("bad arguments", async () => {
    expect((await err(admin, "update_icp", { industries: "Fintech" })).code).toBe("invalid_argument");
    expect((await err(admin, "update_icp", { industries: [42] })).code).toBe("invalid_argument");
    expect((await err(admin, "update_icp", { regions: ["EU"] })).code).toBe("invalid_argument");
    expect((await err(admin, "update_icp", { industries: ["x".repeat(201)] })).code).toBe("invalid_argument");
  });

  test("admin only; needs the spend scope", async () => {
    const r = await callAs(member, "update_icp", { industries: ["Retail"] });
    expect(body(r).error.code).toBe("forbidden");
    const res = await rawPost(t.base, toolsCall("update_icp", { industries: ["Retail"] }), {
      authorization: `Bearer ${await t.key("acme", "read,write")}`,
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="spend"');
  });

  test("idempotency: a retry returns the first result and does no new work; other arguments are refused", async () => {
    const before = await countEvents("IcpUpdated", orgs.acme);
    const args = { industries: ["Fintech"], idempotency_key: "icp-retry-1" };
    const first = await ok(admin, "update_icp", args);
    const again = await ok(admin, "update_icp", args);
    expect(again).toEqual(first);
    expect(await countEvents("IcpUpdated", orgs.acme)).toBe(before + 1);
    const conflict = await err(admin, "update_icp", {
      industries: ["Retail"],
      idempotency_key: "icp-retry-1",
    });
    expect(conflict.code).toBe("idempotency_conflict");
    expect(await countEvents("IcpUpdated", orgs.acme)).toBe(before + 1);
  });

  test("idempotency: two concurrent calls with the same key do the work once", async () => {
    const before = await countEvents("IcpUpdated", orgs.acme);
    const args = { buyer_roles: ["Controller"], idempotency_key: "icp-concurrent" };
    const [a, b] = await Promise.all([ok(admin, "update_icp", args), ok(admin, "update_icp", args)]);
    expect(a).toEqual(b);
    expect(await countEvents("IcpUpdated", orgs.acme)).toBe(before + 1);
  });

  test("idempotency: concurrent duplicates in one process run once (the in-flight call is shared)", async () => {
    const before = await countEvents("IcpUpdated", orgs.acme);
    const p = { ...member, role: "admin" as const, actor: "test:admin" };
    const args = { buyer_roles: ["Treasurer"], idempotency_key: "icp-in-process" };
    const results = await Promise.all([1, 2, 3, 4].map(() => callAs(p, "update_icp", args)));
    for (const r of results) expect(r.structuredContent).toEqual(results[0].structuredContent);
    expect(await countEvents("IcpUpdated", orgs.acme)).toBe(before + 1);
  });

  test("locked while the first brief runs, for update_icp and update_company_profile", async () => {
    expect((await markFirstBrief(t, orgs.acme, "start")).changed).toBe(true);
    expect((await ok(admin, "get_company_profile")).profile.first_brief_running).toBe(true);
    const icp = await err(admin, "update_icp", { industries: ["Retail"] });
    expect(icp.code).toBe("locked");
    expect(icp.message).toContain("first brief");
    expect((await err(admin, "update_company_profile", { category: "Analytics" })).code).toBe("locked");
    expect((await markFirstBrief(t, orgs.acme, "finish")).changed).toBe(true);
    expect((await markFirstBrief(t, orgs.acme, "start")).changed).toBe(false);
    await ok(admin, "update_company_profile", { category: "Analytics" });
    expect((await ok(admin, "get_company_profile")).profile.first_brief_running).toBe(false);
  });

  test("the daily cap counts successful updates per workspace and resets at 00:00 UTC", async () => {
    // freeco is on the free plan: 2 ICP updates a day.
    const cap = PLANS.free.dailyCaps.icpUpdates;
    for (let i = 0; i < cap; i++) await ok(freeClient, "update_icp", { industries: [`Retail ${i}`] });
    // A refused call (bad argument) did not count, and another org's calls never count here.
    const limited = await err(freeClient, "update_icp", { industries: ["Retail"] });
    expect(limited.code).toBe("limit_reached");
    // One refusal for every daily cap (domain/plans.ts dailyCapReached): the ICP cap once said `cap` where the
    // battlecard and positioning caps said `allowed`, `limit` and the plan that allows more; all say that now.
    expect(limited).toMatchObject({
      limit: "daily_icp_updates",
      allowed: cap,
      used: cap,
      plan: "free",
      plan_needed: "starter",
      resets_at: "2026-11-21T00:00:00.000Z",
    });
    expect((await ok(freeClient, "get_plan_and_limits")).usage.icp_updates_today).toBe(cap);
    t.clock.advance(11 * 60 * 60 * 1000 + 59 * 60 * 1000); // 23:59 UTC, same day
    expect((await err(freeClient, "update_icp", {})).code).toBe("limit_reached");
    t.clock.advance(60 * 1000); // 00:00 UTC, the next day
    const next = await ok(freeClient, "update_icp", {});
    expect(next.icp_updates_used_today).toBe(1);
    expect(next.cap_resets_at).toBe("2026-11-22T00:00:00.000Z");
    expect(next.ideal_customer_profile.industries).toEqual([`Retail ${cap - 1}`]);
    const free = next.competitors[0].icp_overlap;
    expect(free.industries.matched[0]).toMatchObject({ value: `Retail ${cap - 1}`, match: "partial" });
  });
});

describe("delivery settings", () => {
  test("defaults: weekly, email chosen (inactive on a server without a mail server, as the notes say), team chat off and not connected", async () => {
    const r = await ok(admin, "get_delivery_settings");
    expect(r).toEqual({
      cadence: "weekly",
      allowed_cadences: PLANS.growth.cadences,
      email: false,
      slack: false,
      teams: false,
      email_delivery_available: false,
      chat_connected: false,
      chat_delivery_available: false,
      teams_connected: false,
      teams_delivery_available: false,
      rules: {},
      notes: [
        "Email delivery is switched on but inactive: this server has no mail server configured (its operator sets RIVALS_SMTP_URL).",
      ],
      plan: "growth",
      webhook_rules: [],
      delivery_status: { email: { pending: 0 }, slack: { pending: 0 }, teams: { pending: 0 } },
      cycles: { cadence: "weekly", scheduler: "on", next_cycle_due_at: expect.any(String) },
    });
  });

  test("admin only", async () => {
    for (const [name, args] of [
      ["get_delivery_settings", {}],
      ["set_monitoring_cadence", { cadence: "daily" }],
      ["set_delivery_channels", { email: false }],
    ] as const) {
      const r = await callAs(member, name, args);
      expect(body(r).error.code).toBe("forbidden");
      expect(body(r).error.message).toContain("admins only");
    }
  });

  test("set_monitoring_cadence: a cadence of the plan", async () => {
    const r = await ok(admin, "set_monitoring_cadence", { cadence: "twice_daily" });
    expect(r).toEqual({ cadence: "twice_daily", allowed_cadences: PLANS.growth.cadences, changed: true });
    expect((await ok(admin, "set_monitoring_cadence", { cadence: "twice_daily" })).changed).toBe(false);
    expect((await ok(admin, "get_delivery_settings")).cadence).toBe("twice_daily");
  });

  test("set_monitoring_cadence: a cadence the plan lacks names the allowed ones and the plan that has it", async () => {
    const e = await err(admin, "set_monitoring_cadence", { cadence: "hourly" });
    expect(e.code).toBe("plan_required");
    expect(e.message).toContain("which runs them weekly, daily or twice a day; running them hourly");
    expect(e.message).not.toContain("twice_daily");
    expect(e.message).toContain("Enterprise");
    expect(e).toMatchObject({ plan_needed: "enterprise", allowed_cadences: PLANS.growth.cadences });
    const s = await err(starterClient, "set_monitoring_cadence", { cadence: "twice_daily" });
    expect(s).toMatchObject({ code: "plan_required", plan_needed: "growth" });
    expect((await ok(starterClient, "set_monitoring_cadence", { cadence: "daily" })).cadence).toBe("daily");
  });

  test("set_monitoring_cadence: paid plan only; bad cadence", async () => {
    for (const c of [freeClient, trialClient]) {
      const e = await err(c, "set_monitoring_cadence", { cadence: "weekly" });
      expect(e.code).toBe("plan_required");
      expect(e.plan_needed).toBe("starter");
    }
    expect((await err(admin, "set_monitoring_cadence", { cadence: "monthly" })).code).toBe(
      "invalid_argument",
    );
    expect((await err(admin, "set_monitoring_cadence", {})).code).toBe("invalid_argument");
  });

  test("set_delivery_channels: only channels sent change", async () => {
    const r = await ok(admin, "set_delivery_channels", { email: false });
    expect(r).toMatchObject({ email: false, slack: false, changed: true });
    expect((await ok(admin, "set_delivery_channels", { email: false })).changed).toBe(false);
    expect((await ok(admin, "set_delivery_channels", { slack: false })).email).toBe(false);
    expect((await err(admin, "set_delivery_channels", {})).code).toBe("invalid_argument");
    expect((await err(admin, "set_delivery_channels", { email: "yes" })).code).toBe("invalid_argument");
  });

  test("set_delivery_channels: team chat needs a chat connection, then works", async () => {
    const e = await err(admin, "set_delivery_channels", { slack: true, email: true });
    expect(e.code).toBe("chat_not_connected");
    expect(e.missing).toEqual(["chat_connection"]);
    expect((await ok(admin, "get_delivery_settings")).email).toBe(false); // nothing changed
    await connectChat(t.services.store, "acme", "https://hooks.chat.example/T000/B000/xyz");
    const before = await ok(admin, "get_delivery_settings");
    expect(before).toMatchObject({ chat_connected: true, chat_delivery_available: true, slack: false });
    const r = await ok(admin, "set_delivery_channels", { slack: true });
    expect(r).toMatchObject({ slack: true, email: false, chat_connected: true, changed: true });
    expect(JSON.stringify(r)).not.toContain("hooks.chat.example");
  });

  test("set_delivery_channels: team chat needs a paid plan; email works on any plan", async () => {
    const e = await err(freeClient, "set_delivery_channels", { slack: true });
    expect(e.code).toBe("plan_required");
    expect(e.missing).toEqual(["paid_plan", "chat_connection"]);
    expect(e.message).toContain("paid plan");
    expect(e.message).toContain("chat connection");
    expect((await ok(freeClient, "set_delivery_channels", { email: false })).email).toBe(false);
    expect((await ok(freeClient, "get_delivery_settings")).allowed_cadences).toEqual(["weekly"]);
  });

  test("after a downgrade, stored choices the plan lacks are reported as not in effect", async () => {
    await setPlan(t.services.store, "acme", "starter");
    const downgraded = await mcpClient(t.base, await t.key("acme"));
    const r = await ok(downgraded, "get_delivery_settings");
    expect(r.cadence).toBe("daily");
    expect(r.slack).toBe(true);
    expect(r.notes[0]).toContain("Running cycles twice a day, as chosen earlier, is not in the Starter plan");
    await setPlan(t.services.store, "acme", "free");
    const free = await ok(await mcpClient(t.base, await t.key("acme")), "get_delivery_settings");
    expect(free.slack).toBe(false);
    expect(free.notes.join(" ")).toContain("paid plan");
    await setPlan(t.services.store, "acme", "growth");
  });
});

describe("rivals org connect-chat", () => {
  test("records the chat connection through the CLI", async () => {
    const prev = process.env.RIVALS_DB;
    process.env.RIVALS_DB = `file:${t.dir}/rivals.db`;
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => {
      lines.push(String(s));
      return true;
    }) as typeof process.stdout.write;
    try {
      const code = await run([
        "org",
        "connect-chat",
        "--org",
        "starterco",
        "--webhook",
        "https://hooks.chat.example/starter",
      ]);
      expect(code).toBe(0);
    } finally {
      process.stdout.write = write;
      if (prev === undefined) delete process.env.RIVALS_DB;
      else process.env.RIVALS_DB = prev;
    }
    expect(JSON.parse(lines[0])).toMatchObject({ org: "starterco", chat_connected: true });
    expect((await ok(starterClient, "get_delivery_settings")).chat_connected).toBe(true);
    expect((await ok(starterClient, "set_delivery_channels", { slack: true })).slack).toBe(true);
    await expect(run(["org", "connect-chat", "--org", "starterco"])).rejects.toThrow("--webhook is required");
  });
});
