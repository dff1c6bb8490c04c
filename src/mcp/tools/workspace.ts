// Workspace tools: who the workspace is and who is calling, the plan's limits, the company profile and ICP,
// and how monitoring cycles run and are delivered. Writes go through the workspace deciders in src/domain
// (companyProfile.ts, icp.ts, cadence.ts, delivery.ts: events).

import { z } from "zod";
import { runCommand } from "../../../events/command.ts";
import { publicLinks } from "../../db/queries/publicLibrary.ts";
import { listWebhooks } from "../../db/queries/webhooks.ts";
import { SCOPES } from "../../domain/apiKeys.ts";
import { ALL_CADENCES, setMonitoringCadence } from "../../domain/cadence.ts";
import { profileView, updateCompanyProfile } from "../../domain/companyProfile.ts";
import { deliveryView, setDeliveryChannels } from "../../domain/delivery.ts";
import { icpUpdatesToday, updateIcp } from "../../domain/icp.ts";
import { PLAN_NAMES, PLANS, planOf } from "../../domain/plans.ts";
import { coreSlotsUsed, planView } from "../../domain/planUsage.ts";
import { researchAllowanceUsed, utcWeek } from "../../domain/research.ts";
import {
  loadSettings,
  MAX_LIST_ITEM_LENGTH,
  MAX_LIST_ITEMS,
  MAX_TEXT_LENGTH,
  utcDay,
} from "../../domain/workspace.ts";
import { cycleStatus } from "../../engine/cycle/status.ts";
import { deliveryStatus } from "../../engine/deliver/outbox.ts";
import { mailConfigured } from "../../mail/mailer.ts";
import { issuer } from "../issuer.ts";
import { rulesShape } from "../rulesShape.ts";
import { cycleStatusShape, isoTime } from "../schemas.ts";
import { type AuthedContext, defineTool, READ_ONLY, type ToolAnnotations } from "../tool.ts";

const TRIAL_DAYS = 7;

/** A setting that overwrites a previous value with one the caller can set back. */
const SETTING: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const settingsOf = (ctx: AuthedContext) => loadSettings(ctx.s.database, ctx.principal.orgId);

// ---------------------------------------------------------------- output shapes

const stringList = z.array(z.string());

const planShape = z.object({
  name: z.enum(PLAN_NAMES),
  label: z.string(),
  paid: z.boolean(),
  read_api: z.boolean().describe("Whether the read API (/api/v1) answers for this plan."),
  core_competitor_slots: z.number().int(),
  weekly_research_allowance: z.number().int().describe("Research updates per week."),
  daily_caps: z.object({
    battlecards: z.number().int(),
    icp_updates: z.number().int(),
    positioning_drafts: z.number().int(),
    pages_rendered: z
      .number()
      .int()
      .describe("Pages the monitoring and research read in a browser (application shells) per day (UTC)."),
  }),
  share_link_lifetime_hours: z.number().int(),
  monitoring_cadences: stringList,
  monitored_pages_per_competitor: z.number().int(),
  member_seats: z.number().int(),
  paid_only_features: stringList,
});

const profileShape = z.object({
  name: z.string(),
  website_url: z.string().optional(),
  description: z.string().optional(),
  category: z.string().optional(),
  target_customer: z.string().optional(),
  positioning: z.object({
    value_propositions: stringList,
    differentiators: stringList,
    exclusions: stringList,
  }),
  ideal_customer_profile: z.object({ industries: stringList, buyer_roles: stringList }),
  profile_updated_at: isoTime.optional(),
  icp_updated_at: isoTime.optional(),
  first_brief_running: z
    .boolean()
    .describe("While true, update_company_profile and update_icp are locked (tool error code locked)."),
});

const deliveryShape = {
  cadence: z.string().describe("How often a monitoring cycle runs now."),
  allowed_cadences: stringList.describe("Cadences the workspace's plan allows."),
  email: z
    .boolean()
    .describe("A finished cycle is delivered by email (chosen, and the server can send email)."),
  email_delivery_available: z
    .boolean()
    .describe("The server has a mail server configured: email delivery can take effect."),
  slack: z.boolean().describe("A finished cycle is delivered to the connected team chat."),
  chat_connected: z.boolean().describe("A team-chat connection was made in the app."),
  chat_delivery_available: z.boolean().describe("Paid plan and chat connection: slack can be switched on."),
  teams: z.boolean().describe("A finished cycle is delivered to the connected Microsoft Teams channel."),
  teams_connected: z
    .boolean()
    .describe("A Microsoft Teams (Workflows webhook) connection was made in the app."),
  teams_delivery_available: z.boolean().describe("Paid plan and Teams connection: teams can be switched on."),
  rules: z
    .object({ email: rulesShape.optional(), slack: rulesShape.optional(), teams: rulesShape.optional() })
    .describe("Which signals each channel gets; a channel not named gets every signal."),
  notes: stringList.describe("Why a stored choice is not in effect, if any."),
};

const channelStatus = z.object({
  last_success_at: isoTime.optional().describe("When a cycle was last delivered on this channel."),
  last_failure: z
    .object({
      at: isoTime,
      error: z.string(),
      attempts: z.number().int(),
      next_attempt_at: isoTime.optional().describe("When it is tried again (backoff); absent once given up."),
      gave_up: z.boolean(),
    })
    .optional()
    .describe("The newest delivery that failed: still retrying, or given up after the last try."),
  pending: z.number().int().describe("Deliveries waiting to be sent or retried."),
});

// ---------------------------------------------------------------- read tools

export const getWorkspaceTool = defineTool({
  name: "get_workspace",
  title: "Get the workspace",
  description:
    "Who is calling: workspace, role, scopes and plan. Call it first to learn which tools you may use.",
  input: {},
  output: {
    workspace: z.object({
      id: z.number().int(),
      slug: z.string(),
      name: z.string(),
      website_url: z.string().optional(),
      created_at: isoTime,
    }),
    caller: z.object({
      actor: z.string().describe("Stable reference of the caller, e.g. api_key:1042."),
      name: z.string(),
      role: z.enum(["admin", "member"]),
      authenticated_via: z.enum(["api_key", "oauth"]),
    }),
    scopes: z.array(z.enum(SCOPES)),
    plan: z.object({ name: z.enum(PLAN_NAMES), label: z.string(), paid: z.boolean() }),
  },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ principal: p }) => {
    const plan = planOf(p.plan);
    return {
      workspace: {
        id: p.orgId,
        slug: p.orgSlug,
        name: p.orgName,
        ...(p.orgWebsite ? { website_url: p.orgWebsite } : {}),
        created_at: p.orgCreatedAt,
      },
      caller: { actor: p.actor, name: p.actorName, role: p.role, authenticated_via: p.via },
      scopes: p.scopes,
      plan: { name: plan.name, label: plan.label, paid: plan.paid },
    };
  },
});

export const getPlanAndLimitsTool = defineTool({
  name: "get_plan_and_limits",
  title: "Get plan and limits",
  description:
    "The plan's limits and their use, other plans, rate limits. Use it to explain limit_reached or plan_required.",
  input: {},
  output: {
    plan: planShape,
    usage: z.object({
      core_slots_used: z.number().int(),
      core_slots_left: z.number().int(),
      icp_updates_today: z.number().int(),
      research_updates_this_week: z
        .number()
        .int()
        .describe(
          "Updates of the weekly research allowance used this week (research_competitor, refresh_watchlist).",
        ),
      research_allowance_resets_at: isoTime.describe(
        "Monday 00:00 UTC, when the weekly research allowance resets.",
      ),
      daily_caps_reset_at: isoTime,
      trial_ends_at: isoTime.optional(),
    }),
    other_plans: z.array(planShape),
    pricing_url: z.string(),
    rate_limits: z
      .object({
        tool_calls_per_minute: z
          .number()
          .int()
          .describe(
            "Requests to the tool endpoint per sliding minute for this credential (an API key; an OAuth member in this workspace); calls without a credential count per client address. Above it: HTTP 429 with Retry-After.",
          ),
        read_api_requests_per_minute: z
          .number()
          .int()
          .describe("Read API (/api/v1) requests per sliding minute per client address."),
      })
      .describe("Request budgets of this server (not of the plan): the same for every workspace."),
    cycles: cycleStatusShape,
  },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal: p, base, now }) => {
    const plan = planOf(p.plan);
    const client = s.database;
    const [used, icpToday, research, cycles] = await Promise.all([
      coreSlotsUsed(client, p.orgId),
      icpUpdatesToday(client, p.orgId, now),
      researchAllowanceUsed(client, p.orgId, now),
      cycleStatus(s, p.orgId, now),
    ]);
    const trialEnds =
      plan.name === "trial"
        ? new Date(Date.parse(p.orgCreatedAt) + TRIAL_DAYS * 24 * 60 * 60 * 1000).toISOString()
        : undefined;
    return {
      plan: planView(plan),
      usage: {
        core_slots_used: used,
        core_slots_left: Math.max(0, plan.coreSlots - used),
        icp_updates_today: icpToday,
        research_updates_this_week: research,
        research_allowance_resets_at: utcWeek(now).end,
        daily_caps_reset_at: utcDay(now).end,
        ...(trialEnds ? { trial_ends_at: trialEnds } : {}),
      },
      other_plans: PLAN_NAMES.filter((n) => n !== plan.name).map((n) => planView(PLANS[n])),
      pricing_url: publicLinks.pricing(base),
      rate_limits: {
        tool_calls_per_minute: s.config.mcpRateLimitPerMinute,
        read_api_requests_per_minute: s.config.rateLimitPerMinute,
      },
      cycles,
    };
  },
});

export const getCompanyProfileTool = defineTool({
  name: "get_company_profile",
  title: "Get the company profile",
  description: "The workspace's own company profile, positioning and ICP.",
  input: {},
  output: { profile: profileShape },
  annotations: READ_ONLY,
  access: "read",
  run: async (ctx) => ({ profile: profileView(await settingsOf(ctx)) }),
});

export const getDeliverySettingsTool = defineTool({
  name: "get_delivery_settings",
  title: "Get delivery settings",
  description:
    "Monitoring cadence, delivery by email, Slack, Teams and webhooks with last results, and cycles.",
  input: {},
  output: {
    ...deliveryShape,
    plan: z.enum(PLAN_NAMES),
    webhook_rules: z
      .array(z.object({ webhook_id: z.number().int(), url: z.string(), rules: rulesShape.optional() }))
      .describe(
        "Each webhook endpoint's rules (its filter); an endpoint without rules gets every event of its types.",
      ),
    delivery_status: z
      .object({ email: channelStatus, slack: channelStatus, teams: channelStatus })
      .describe("How deliveries of finished cycles went, per channel."),
    cycles: cycleStatusShape,
  },
  annotations: READ_ONLY,
  access: "read",
  adminOnly: true,
  run: async (ctx) => {
    const st = await settingsOf(ctx);
    return {
      ...deliveryView(st, mailConfigured(ctx.s.config)),
      plan: planOf(st.plan).name,
      webhook_rules: (await listWebhooks(ctx.s.database, ctx.principal.orgId)).map((h) => ({
        webhook_id: h.id,
        url: h.url,
        ...(h.filter ? { rules: h.filter } : {}),
      })),
      delivery_status: await deliveryStatus(ctx.s, ctx.principal.orgId),
      cycles: await cycleStatus(ctx.s, ctx.principal.orgId, ctx.now),
    };
  },
});

// ---------------------------------------------------------------- write tools

const list = z.array(z.string().max(MAX_LIST_ITEM_LENGTH)).max(MAX_LIST_ITEMS).optional();
const listArg = (what?: string) => (what ? list.describe(what) : list);
const textArg = (what: string) => z.string().max(MAX_TEXT_LENGTH).optional().describe(what);

export const updateCompanyProfileTool = defineTool({
  name: "update_company_profile",
  title: "Update the company profile",
  description:
    'Changes the profile fields sent; a list replaces the old one; "" or [] clears. update_icp changes the ICP.',
  input: {
    description: textArg("What the company does."),
    category: textArg("Its market, e.g. Product analytics."),
    target_customer: textArg("Who it sells to."),
    value_propositions: listArg(),
    differentiators: listArg("What sets it apart."),
    exclusions: listArg("Who or what it is not for."),
  },
  output: { profile: profileShape, changed: stringList.describe("Fields whose stored value changed.") },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: "write",
  adminOnly: true,
  run: async (ctx, a) => {
    const { changed } = await runCommand(ctx.s.store, updateCompanyProfile, a, issuer(ctx));
    return { profile: profileView(await settingsOf(ctx)), changed };
  },
});

/** How many re-read competitors update_icp's result lists (imports can track more than any plan's slots). */
const ICP_COMPETITORS_SHOWN = 50;

export const updateIcpTool = defineTool({
  name: "update_icp",
  title: "Update the ICP",
  description:
    "Sets the ICP (only dimensions sent change; [] clears one) and re-reads competitors' overlap. Counts toward a daily cap.",
  input: {
    industries: listArg("e.g. Fintech, Healthcare."),
    buyer_roles: listArg("e.g. VP of Sales, RevOps lead."),
  },
  output: {
    ideal_customer_profile: z.object({ industries: stringList, buyer_roles: stringList }),
    changed: stringList.describe("Dimensions whose stored list changed."),
    competitors: z
      .array(
        z.object({
          id: z.number().int(),
          name: z.string(),
          icp_overlap: z.looseObject({}).optional(),
        }),
      )
      .describe(
        `The re-read competitors: at most ${ICP_COMPETITORS_SHOWN}; get_competitor shows any one's overlap.`,
      ),
    competitors_total: z.number().int().describe("How many tracked competitors were re-read."),
    icp_updates_used_today: z.number().int(),
    daily_cap: z.number().int(),
    cap_resets_at: isoTime,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  access: "spend",
  adminOnly: true,
  idempotent: true,
  run: async (ctx, a) => {
    const r = await runCommand(
      ctx.s.store,
      updateIcp,
      { industries: a.industries, buyer_roles: a.buyer_roles },
      issuer(ctx, (a as { idempotency_key?: string }).idempotency_key),
    );
    // Every tracked competitor is re-read; the result names a bounded number of them.
    return {
      ...r,
      competitors: r.competitors.slice(0, ICP_COMPETITORS_SHOWN),
      competitors_total: r.competitors.length,
    };
  },
});

export const setMonitoringCadenceTool = defineTool({
  name: "set_monitoring_cadence",
  title: "Set monitoring cadence",
  description: "Sets how often monitoring runs; get_delivery_settings lists the plan's cadences.",
  input: {
    cadence: z.enum(ALL_CADENCES as [string, ...string[]]),
  },
  output: { cadence: z.string(), allowed_cadences: stringList, changed: z.boolean() },
  annotations: SETTING,
  access: "write",
  adminOnly: true,
  run: async (ctx, a) => {
    const { changed } = await runCommand(
      ctx.s.store,
      setMonitoringCadence,
      { cadence: a.cadence },
      issuer(ctx),
    );
    const v = deliveryView(await settingsOf(ctx), mailConfigured(ctx.s.config));
    return { cadence: v.cadence, allowed_cadences: v.allowed_cadences, changed };
  },
});

export const setDeliveryChannelsTool = defineTool({
  name: "set_delivery_channels",
  title: "Set delivery channels",
  description:
    "Turns delivery by email, Slack or Teams on or off and sets which signals each gets; only what is sent changes.",
  input: {
    email: z.boolean().optional(),
    slack: z.boolean().optional().describe("The connected team chat."),
    teams: z.boolean().optional().describe("The connected Microsoft Teams channel."),
    rules: z
      .object({
        email: rulesShape.nullable().optional(),
        slack: rulesShape.nullable().optional(),
        teams: rulesShape.nullable().optional(),
      })
      .optional()
      .describe("Which signals a channel gets; null: all."),
    webhook_rules: z
      .array(z.object({ webhook_id: z.number().int(), rules: rulesShape.nullable() }))
      .max(20)
      .optional()
      .describe("Each replaces an endpoint's filter (list_webhooks); null: all events."),
  },
  output: { ...deliveryShape, changed: z.boolean() },
  annotations: SETTING,
  access: "write",
  adminOnly: true,
  run: async (ctx, a) => {
    const { changed } = await runCommand(
      ctx.s.store,
      setDeliveryChannels,
      {
        email: a.email,
        slack: a.slack,
        teams: a.teams,
        ...(a.rules ? { rules: a.rules } : {}),
        ...(a.webhook_rules ? { webhook_rules: a.webhook_rules } : {}),
      },
      issuer(ctx),
    );
    return { ...deliveryView(await settingsOf(ctx), mailConfigured(ctx.s.config)), changed };
  },
});

export const workspaceTools = [
  getWorkspaceTool,
  getPlanAndLimitsTool,
  getCompanyProfileTool,
  updateCompanyProfileTool,
  updateIcpTool,
  getDeliverySettingsTool,
  setMonitoringCadenceTool,
  setDeliveryChannelsTool,
];
