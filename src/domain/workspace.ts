// Workspace settings: the company profile, the ideal customer profile (with each competitor's overlap), the
// monitoring cadence, delivery channels, the team-chat connection and the first-brief lock. Deciders only:
// state comes from the read tables inside the writer's transaction, changes leave as events.
import type { EventMetadata, NewEvent } from "../../events/catalog.ts";
import type { EventStore, Tx } from "../../events/store.ts";
import { DomainError } from "./errors.ts";
import { hostRefusal } from "./hostname.ts";
import { computeIcpOverlap } from "./icpOverlap.ts";
import {
  cheapestPaidPlan,
  effectiveCadence,
  LOWEST_PAID,
  PLAN_NAMES,
  PLANS,
  type Plan,
  type PlanName,
  planOf,
} from "./plans.ts";
import type { CompetitorRecord } from "./records.ts";
import { requireOrg } from "./state.ts";
import { checkUrl, InvalidInput, prune } from "./validate.ts";
import {
  type CompanyProfile,
  type CompanyProfileChanges,
  ICP_DIMENSIONS,
  type IcpProfile,
  PROFILE_LIST_FIELDS,
  PROFILE_TEXT_FIELDS,
} from "./workspaceTypes.ts";

type Obj = Record<string, unknown>;
type Exec = Pick<Tx, "execute">;

export const MAX_LIST_ITEMS = 50;
export const MAX_LIST_ITEM_LENGTH = 200;
export const MAX_TEXT_LENGTH = 2000;

/** Every cadence some plan offers, slowest first, in plan-table order. */
export const ALL_CADENCES: string[] = [...new Set(PLAN_NAMES.flatMap((p) => PLANS[p].cadences))];

/** The cheapest paid plan that allows a cadence. */
export function lowestPlanWithCadence(cadence: string): PlanName | undefined {
  return cheapestPaidPlan((p) => p.cadences.includes(cadence))?.name;
}

export interface WorkspaceSettings {
  orgId: number;
  slug: string;
  name: string;
  websiteUrl: string | null;
  plan: string;
  profile: CompanyProfile;
  profileUpdatedAt: string | null;
  icp: IcpProfile;
  icpUpdatedAt: string | null;
  cadence: string | null;
  email: boolean | null;
  slack: boolean | null;
  chatConnectedAt: string | null;
  firstBrief: "running" | "finished" | null;
}

const flag = (v: unknown) => (v === null || v === undefined ? null : Number(v) === 1);

export async function loadSettings(tx: Exec, orgId: number): Promise<WorkspaceSettings> {
  const r = await tx.execute({
    sql: `SELECT o.id, o.slug, o.name, o.website_url, o.plan, w.profile, w.profile_updated_at, w.icp, w.icp_updated_at,
            w.cadence, w.email_delivery, w.slack_delivery, w.chat_connected_at, w.first_brief
          FROM orgs o LEFT JOIN workspace_settings w ON w.id = o.id WHERE o.id = ?`,
    args: [orgId],
  });
  const row = r.rows[0];
  if (!row) throw new DomainError("not_found", "no such workspace");
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    orgId,
    slug: String(row.slug),
    name: String(row.name),
    websiteUrl: s(row.website_url),
    plan: String(row.plan),
    profile: JSON.parse(s(row.profile) ?? "{}"),
    profileUpdatedAt: s(row.profile_updated_at),
    icp: JSON.parse(s(row.icp) ?? "{}"),
    icpUpdatedAt: s(row.icp_updated_at),
    cadence: s(row.cadence),
    email: flag(row.email_delivery),
    slack: flag(row.slack_delivery),
    chatConnectedAt: s(row.chat_connected_at),
    firstBrief: s(row.first_brief) as WorkspaceSettings["firstBrief"],
  };
}

const orgStream = (orgId: number) => ({ orgId, streamType: "org" as const, streamId: String(orgId) });

function assertUnlocked(st: WorkspaceSettings, what: string): void {
  if (st.firstBrief === "running")
    throw new DomainError(
      "locked",
      `The ${what} is locked while the workspace's first brief runs; try again when the first brief has finished.`,
    );
}

/** Trims, drops blanks and case-insensitive duplicates, checks sizes. */
export function normalizeList(values: string[], field: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of values) {
    if (typeof raw !== "string") throw new InvalidInput(`${field} must be a list of strings`, field);
    const v = raw.trim().replace(/\s+/g, " ");
    if (!v) continue;
    if (v.length > MAX_LIST_ITEM_LENGTH)
      throw new InvalidInput(`each ${field} entry must be at most ${MAX_LIST_ITEM_LENGTH} characters`, field);
    const k = v.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(v);
  }
  if (out.length > MAX_LIST_ITEMS)
    throw new InvalidInput(`${field} takes at most ${MAX_LIST_ITEMS} entries`, field);
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

// ---------------------------------------------------------------- company profile

export type ProfileInput = Partial<Record<(typeof PROFILE_TEXT_FIELDS)[number], string>> &
  Partial<Record<(typeof PROFILE_LIST_FIELDS)[number], string[]>>;

export function applyProfileChanges(p: CompanyProfile, changes: CompanyProfileChanges): CompanyProfile {
  const out: Obj = { ...p };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined) delete out[k];
    else out[k] = v;
  }
  return out as CompanyProfile;
}

export function decideUpdateProfile(
  st: WorkspaceSettings,
  input: ProfileInput,
  now: Date,
): { events: NewEvent[]; changed: string[] } {
  const changes: CompanyProfileChanges = {};
  let sent = 0;
  for (const f of PROFILE_TEXT_FIELDS) {
    const v = input[f];
    if (v === undefined) continue;
    sent++;
    if (typeof v !== "string") throw new InvalidInput(`${f} must be a string`, f);
    const t = v.trim();
    if (t.length > MAX_TEXT_LENGTH)
      throw new InvalidInput(`${f} must be at most ${MAX_TEXT_LENGTH} characters`, f);
    const next = t === "" ? null : t;
    if (!same(st.profile[f], next)) changes[f] = next;
  }
  for (const f of PROFILE_LIST_FIELDS) {
    const v = input[f];
    if (v === undefined) continue;
    sent++;
    if (!Array.isArray(v)) throw new InvalidInput(`${f} must be a list of strings`, f);
    const list = normalizeList(v, f);
    const next = list.length ? list : null;
    if (!same(st.profile[f], next)) changes[f] = next;
  }
  if (sent === 0)
    throw new InvalidInput(
      `send at least one profile field: ${[...PROFILE_TEXT_FIELDS, ...PROFILE_LIST_FIELDS].join(", ")}`,
    );
  assertUnlocked(st, "company profile");
  const changed = Object.keys(changes);
  if (changed.length === 0) return { events: [], changed };
  return {
    events: [
      {
        type: "CompanyProfileUpdated",
        ...orgStream(st.orgId),
        data: { changes, updated_at: now.toISOString() },
      },
    ],
    changed,
  };
}

export async function updateCompanyProfile(
  store: EventStore,
  orgId: number,
  input: ProfileInput,
  metadata: EventMetadata = {},
) {
  const { result } = await store.execute(async (w) => {
    const st = await loadSettings(w.tx, orgId);
    const { events, changed } = decideUpdateProfile(st, input, w.now);
    return { events, result: { changed } };
  }, metadata);
  return result;
}

// ---------------------------------------------------------------- ideal customer profile

/** The UTC calendar day containing `now`: the window of the daily caps. */
export function utcDay(now: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const end = new Date(start.getTime() + 24 * 60 * 60 * 1000);
  return { start: start.toISOString(), end: end.toISOString() };
}

/** Successful update_icp calls of one org on the UTC day of `now` (icp_updates_by_day index). */
export async function icpUpdatesToday(tx: Exec, orgId: number, now: Date): Promise<number> {
  const day = utcDay(now);
  const r = await tx.execute({
    sql: "SELECT count(*) AS n FROM icp_updates WHERE org_id = ? AND updated_at >= ? AND updated_at < ?",
    args: [orgId, day.start, day.end],
  });
  return Number(r.rows[0].n);
}

export type IcpInput = Partial<Record<(typeof ICP_DIMENSIONS)[number], string[]>>;

export interface IcpCompetitor {
  id: number;
  name: string;
  icp_overlap?: Obj;
}

export interface IcpUpdateResult {
  ideal_customer_profile: { industries: string[]; buyer_roles: string[] };
  changed: string[];
  competitors: IcpCompetitor[];
  icp_updates_used_today: number;
  daily_cap: number;
  cap_resets_at: string;
}

export function mergeIcp(icp: IcpProfile, input: IcpInput): { icp: IcpProfile; changed: string[] } {
  const out: IcpProfile = { ...icp };
  const changed: string[] = [];
  for (const d of ICP_DIMENSIONS) {
    const v = input[d];
    if (v === undefined) continue;
    if (!Array.isArray(v)) throw new InvalidInput(`${d} must be a list of strings`, d);
    const list = normalizeList(v, d);
    if (!same(icp[d] ?? [], list)) changed.push(d);
    if (list.length) out[d] = list;
    else delete out[d];
  }
  return { icp: out, changed };
}

export function decideUpdateIcp(
  st: WorkspaceSettings,
  input: IcpInput,
  usedToday: number,
  competitors: { id: number; name: string; record: CompetitorRecord }[],
  now: Date,
): { events: NewEvent[]; result: IcpUpdateResult } {
  const { icp, changed } = mergeIcp(st.icp, input);
  assertUnlocked(st, "ideal customer profile");
  const plan = planOf(st.plan);
  const cap = plan.dailyCaps.icpUpdates;
  const day = utcDay(now);
  if (usedToday >= cap)
    throw new DomainError(
      "limit_reached",
      `The ${plan.label} plan allows ${cap} ICP updates per day and ${usedToday} were used today; the cap resets at ${day.end}. Higher plans have higher caps (see get_plan_and_limits).`,
      { cap, used: usedToday, resets_at: day.end },
    );
  const events: NewEvent[] = [
    {
      type: "IcpUpdated",
      ...orgStream(st.orgId),
      data: {
        ...(input.industries !== undefined ? { industries: icp.industries ?? [] } : {}),
        ...(input.buyer_roles !== undefined ? { buyer_roles: icp.buyer_roles ?? [] } : {}),
        updated_at: now.toISOString(),
      },
    },
  ];
  const out: IcpCompetitor[] = [];
  for (const c of competitors) {
    const overlap = computeIcpOverlap(icp, c.record);
    if (!same(c.record.workspace?.icp_overlap, overlap ?? undefined))
      events.push({
        type: "CompetitorIcpOverlapComputed",
        orgId: st.orgId,
        streamType: "competitor",
        streamId: String(c.id),
        data: { id: c.id, icp_overlap: overlap },
      });
    const shown = prune(overlap) as Obj | undefined;
    out.push({ id: c.id, name: c.name, ...(shown ? { icp_overlap: shown } : {}) });
  }
  return {
    events,
    result: {
      ideal_customer_profile: { industries: icp.industries ?? [], buyer_roles: icp.buyer_roles ?? [] },
      changed,
      competitors: out,
      icp_updates_used_today: usedToday + 1,
      daily_cap: cap,
      cap_resets_at: day.end,
    },
  };
}

/** The competitors whose overlap update_icp re-reads: the ones the workspace actively tracks. */
export async function trackedCompetitors(tx: Exec, orgId: number) {
  const r = await tx.execute({
    sql: `SELECT id, name, state FROM competitors WHERE org_id = ? AND listed = 1
          ORDER BY priority_sort, tracked_sort, id`,
    args: [orgId],
  });
  return r.rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    record: JSON.parse(String(row.state)) as CompetitorRecord,
  }));
}

export async function updateIcp(
  store: EventStore,
  orgId: number,
  input: IcpInput,
  metadata: EventMetadata = {},
) {
  const { result } = await store.execute(async (w) => {
    const st = await loadSettings(w.tx, orgId);
    const used = await icpUpdatesToday(w.tx, orgId, w.now);
    return decideUpdateIcp(st, input, used, await trackedCompetitors(w.tx, orgId), w.now);
  }, metadata);
  return result;
}

// ---------------------------------------------------------------- delivery

export interface DeliveryView {
  cadence: string;
  allowed_cadences: string[];
  email: boolean;
  slack: boolean;
  chat_connected: boolean;
  chat_delivery_available: boolean;
  notes: string[];
}

/** What actually happens after a monitoring cycle, given the stored choices and the current plan. */
export function deliveryView(st: WorkspaceSettings): DeliveryView {
  const plan = planOf(st.plan);
  const notes: string[] = [];
  const cadence = effectiveCadence(plan, st.cadence);
  if (st.cadence && st.cadence !== cadence)
    notes.push(
      `The ${st.cadence} cadence chosen earlier is not in the ${plan.label} plan; cycles run ${cadence} instead.`,
    );
  const connected = st.chatConnectedAt !== null;
  const available = plan.paid && connected;
  if (st.slack === true && !available)
    notes.push(
      `Team-chat delivery is switched on but inactive: it needs ${[
        plan.paid ? "" : "a paid plan",
        connected ? "" : "a chat connection made in the app",
      ]
        .filter(Boolean)
        .join(" and ")}.`,
    );
  return {
    cadence,
    allowed_cadences: plan.cadences,
    email: st.email ?? true,
    slack: st.slack === true && available,
    chat_connected: connected,
    chat_delivery_available: available,
    notes,
  };
}

export function decideSetCadence(st: WorkspaceSettings, cadence: string): NewEvent[] {
  const plan = planOf(st.plan);
  if (!ALL_CADENCES.includes(cadence))
    throw new InvalidInput(`cadence must be one of ${ALL_CADENCES.join(", ")}`, "cadence");
  if (!plan.paid)
    throw new DomainError(
      "plan_required",
      `Setting the monitoring cadence needs a paid plan; this workspace is on ${plan.label}.`,
      { plan_needed: lowestPlanWithCadence(cadence), plan: plan.name },
    );
  if (!plan.cadences.includes(cadence)) {
    const needed = lowestPlanWithCadence(cadence)!;
    throw new DomainError(
      "plan_required",
      `The ${cadence} cadence is not in the ${plan.label} plan, which allows ${plan.cadences.join(", ")}; ${cadence} comes with the ${PLANS[needed].label} plan or higher.`,
      { cadence, allowed_cadences: plan.cadences, plan_needed: needed, plan: plan.name },
    );
  }
  if (st.cadence === cadence) return [];
  return [{ type: "MonitoringCadenceSet", ...orgStream(st.orgId), data: { cadence } }];
}

export async function setMonitoringCadence(
  store: EventStore,
  orgId: number,
  cadence: string,
  metadata: EventMetadata = {},
) {
  const { events } = await store.execute(async (w) => {
    const st = await loadSettings(w.tx, orgId);
    return { events: decideSetCadence(st, cadence), result: null };
  }, metadata);
  return { changed: events.length > 0 };
}

export function decideSetDeliveryChannels(
  st: WorkspaceSettings,
  input: { email?: boolean; slack?: boolean },
): NewEvent[] {
  if (input.email === undefined && input.slack === undefined)
    throw new InvalidInput("send email, slack or both (true or false)");
  if (input.slack === true) {
    const plan = planOf(st.plan);
    const connected = st.chatConnectedAt !== null;
    const missing = [...(plan.paid ? [] : ["paid_plan"]), ...(connected ? [] : ["chat_connection"])];
    if (missing.length) {
      const what = [
        plan.paid ? "" : `a paid plan (this workspace is on ${plan.label})`,
        connected ? "" : "a team-chat connection, made by an admin in the app under Settings → Monitoring",
      ]
        .filter(Boolean)
        .join(" and ");
      throw new DomainError(
        plan.paid ? "chat_not_connected" : "plan_required",
        `Team-chat delivery needs ${what}.`,
        { missing, ...(plan.paid ? {} : { plan_needed: LOWEST_PAID, plan: plan.name }) },
      );
    }
  }
  const data: { email?: boolean; slack?: boolean } = {};
  if (input.email !== undefined && input.email !== (st.email ?? true)) data.email = input.email;
  if (input.slack !== undefined && input.slack !== (st.slack ?? false)) data.slack = input.slack;
  if (Object.keys(data).length === 0) return [];
  return [{ type: "DeliveryChannelsSet", ...orgStream(st.orgId), data }];
}

export async function setDeliveryChannels(
  store: EventStore,
  orgId: number,
  input: { email?: boolean; slack?: boolean },
  metadata: EventMetadata = {},
) {
  const { events } = await store.execute(async (w) => {
    const st = await loadSettings(w.tx, orgId);
    return { events: decideSetDeliveryChannels(st, input), result: null };
  }, metadata);
  return { changed: events.length > 0 };
}

// ---------------------------------------------------------------- chat connection, first brief

/** A team-chat webhook is an https URL of a public internet host (the one hostname rule), unless its origin
 * is one the operator listed as allowed anyway (RIVALS_UNSAFE_WEBHOOK_ORIGINS). */
function checkWebhookUrl(webhookUrl: string, unsafeOrigins: readonly string[]): string {
  const url = checkUrl(webhookUrl, "webhook");
  const u = new URL(url);
  if (unsafeOrigins.includes(u.origin)) return url;
  if (u.protocol !== "https:") throw new InvalidInput("webhook must be an https URL", "webhook");
  if (u.username || u.password) throw new InvalidInput("webhook must not contain credentials", "webhook");
  if (hostRefusal(u.hostname))
    throw new InvalidInput("webhook must be the address of a public internet host", "webhook");
  return url;
}

export function decideConnectChat(
  st: WorkspaceSettings,
  webhookUrl: string,
  now: Date,
  unsafeOrigins: readonly string[] = [],
): NewEvent[] {
  const url = checkWebhookUrl(webhookUrl, unsafeOrigins);
  return [
    {
      type: "ChatConnected",
      ...orgStream(st.orgId),
      data: { provider: "slack", webhook_url: url, connected_at: now.toISOString() },
    },
  ];
}

/** `rivals org connect-chat` and the monitoring settings page: records the team-chat (incoming webhook)
 * connection of an org. */
export async function connectChat(
  store: EventStore,
  orgSlug: string,
  webhookUrl: string,
  metadata: EventMetadata = {},
  unsafeOrigins: readonly string[] = [],
) {
  const { result } = await store.execute(async (w) => {
    const org = await requireOrg(w.tx, orgSlug);
    const st = await loadSettings(w.tx, org.id);
    const events = decideConnectChat(st, webhookUrl, w.now, unsafeOrigins);
    return { events, result: { org: org.slug, chat_connected: true, connected_at: w.now.toISOString() } };
  }, metadata);
  return result;
}

export function decideDisconnectChat(st: WorkspaceSettings, now: Date): NewEvent[] {
  if (st.chatConnectedAt === null) return [];
  return [{ type: "ChatDisconnected", ...orgStream(st.orgId), data: { disconnected_at: now.toISOString() } }];
}

/** The settings page's Disconnect: forgets the webhook. Chat delivery stays chosen but inactive (deliveryView
 * says so) until a connection is made again. */
export async function disconnectChat(store: EventStore, orgId: number, metadata: EventMetadata = {}) {
  const { events } = await store.execute(async (w) => {
    const st = await loadSettings(w.tx, orgId);
    return { events: decideDisconnectChat(st, w.now), result: null };
  }, metadata);
  return { changed: events.length > 0 };
}

/** The connected webhook URL of an org, if any (for the settings page's test message). */
export async function chatWebhookUrl(tx: Exec, orgId: number): Promise<string | undefined> {
  const r = await tx.execute({
    sql: "SELECT chat_webhook_url FROM workspace_settings WHERE id = ?",
    args: [orgId],
  });
  const v = r.rows[0]?.chat_webhook_url;
  return v === null || v === undefined ? undefined : String(v);
}

/** The workspace's first brief starts (the first research of a workspace) or finishes (its last run ends):
 * the profile and ICP are locked meanwhile. */
export function decideFirstBrief(st: WorkspaceSettings, step: "start" | "finish", now: Date): NewEvent[] {
  if (step === "start") {
    if (st.firstBrief !== null) return [];
    return [{ type: "FirstBriefStarted", ...orgStream(st.orgId), data: { started_at: now.toISOString() } }];
  }
  if (st.firstBrief !== "running") return [];
  return [{ type: "FirstBriefFinished", ...orgStream(st.orgId), data: { finished_at: now.toISOString() } }];
}

// ---------------------------------------------------------------- views

export function profileView(st: WorkspaceSettings) {
  const p = st.profile;
  return {
    name: st.name,
    ...(st.websiteUrl ? { website_url: st.websiteUrl } : {}),
    ...(p.description ? { description: p.description } : {}),
    ...(p.category ? { category: p.category } : {}),
    ...(p.target_customer ? { target_customer: p.target_customer } : {}),
    positioning: {
      value_propositions: p.value_propositions ?? [],
      differentiators: p.differentiators ?? [],
      exclusions: p.exclusions ?? [],
    },
    ideal_customer_profile: {
      industries: st.icp.industries ?? [],
      buyer_roles: st.icp.buyer_roles ?? [],
    },
    ...(st.profileUpdatedAt ? { profile_updated_at: st.profileUpdatedAt } : {}),
    ...(st.icpUpdatedAt ? { icp_updated_at: st.icpUpdatedAt } : {}),
    first_brief_running: st.firstBrief === "running",
  };
}

/** Every number of one plan, as get_plan_and_limits reports it. */
export function planView(p: Plan) {
  return {
    name: p.name,
    label: p.label,
    paid: p.paid,
    read_api: p.readApi,
    core_competitor_slots: p.coreSlots,
    weekly_research_allowance: p.weeklyResearchAllowance,
    daily_caps: {
      battlecards: p.dailyCaps.battlecards,
      icp_updates: p.dailyCaps.icpUpdates,
      positioning_drafts: p.dailyCaps.positioningDrafts,
    },
    share_link_lifetime_hours: p.shareLinkHours,
    monitoring_cadences: p.cadences,
    monitored_pages_per_competitor: p.monitoredPagesPerCompetitor,
    member_seats: p.memberSeats,
    paid_only_features: p.paidOnlyFeatures,
  };
}

/** Core competitors that hold a slot: the actively tracked core ones (the same count add_competitor's slot check
 * uses). */
/** Competitors the workspace actively tracks, core and horizon (served by the org's competitor index). */
export async function trackedCompetitorCount(tx: Exec, orgId: number): Promise<number> {
  const r = await tx.execute({
    sql: "SELECT count(*) AS n FROM competitors WHERE org_id = ? AND tracking = 'active'",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}

export async function coreSlotsUsed(tx: Exec, orgId: number): Promise<number> {
  const r = await tx.execute({
    sql: "SELECT count(*) AS n FROM competitors WHERE org_id = ? AND tracking = 'active' AND watch = 'core'",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}
