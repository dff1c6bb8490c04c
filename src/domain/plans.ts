import { formatDay } from "./dates.ts";
import { DomainError } from "./errors.ts";
// The one plan table. Every limit an agent or a route meets is read from here.
export const PLAN_NAMES = ["trial", "free", "starter", "growth", "enterprise"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  name: PlanName;
  label: string;
  paid: boolean;
  readApi: boolean;
  coreSlots: number;
  weeklyResearchAllowance: number;
  dailyCaps: { battlecards: number; icpUpdates: number; positioningDrafts: number; renders: number };
  shareLinkHours: number;
  cadences: string[];
  monitoredPagesPerCompetitor: number;
  memberSeats: number;
  paidOnlyFeatures: string[];
}

/** What only a paid plan may use, with the words its refusal starts with: commands by their tool's name (the
 * app's pages and the CLI run the same commands) and features of the app and API by description. The one table
 * of the rule: a paid-only command's decider refuses through `requirePaid`, and the pricing page,
 * get_plan_and_limits and the tool descriptions list it. */
const PAID_ONLY = {
  "read API": "The read API",
  remove_competitor: "Removing a competitor from the watchlist",
  add_monitored_page: "Adding a monitored page",
  remove_monitored_page: "Removing a monitored page",
  set_monitoring_cadence: "Setting the monitoring cadence",
  "team chat delivery": "Team chat delivery",
  invite_member: "Inviting people",
  "OAuth app approval": "Approving an app",
} as const;
export type PaidOnlyFeature = keyof typeof PAID_ONLY;
export const PAID_ONLY_FEATURES = Object.keys(PAID_ONLY) as readonly PaidOnlyFeature[];

const base = { monitoredPagesPerCompetitor: 10, paidOnlyFeatures: [...PAID_ONLY_FEATURES] };

/** Trial and free grant the same limits; they differ only in name and label. */
const unpaid = {
  ...base,
  paid: false,
  readApi: false,
  coreSlots: 3,
  weeklyResearchAllowance: 1,
  dailyCaps: { battlecards: 3, icpUpdates: 2, positioningDrafts: 1, renders: 30 },
  shareLinkHours: 24,
  cadences: ["weekly"],
  memberSeats: 3,
};

export const PLANS: Record<PlanName, Plan> = {
  trial: {
    ...unpaid,
    name: "trial",
    label: "Free trial week",
  },
  free: {
    ...unpaid,
    name: "free",
    label: "Free",
  },
  starter: {
    ...base,
    name: "starter",
    label: "Starter",
    paid: true,
    readApi: true,
    coreSlots: 5,
    weeklyResearchAllowance: 3,
    dailyCaps: { battlecards: 5, icpUpdates: 3, positioningDrafts: 3, renders: 100 },
    shareLinkHours: 24,
    cadences: ["weekly", "daily"],
    memberSeats: 5,
  },
  growth: {
    ...base,
    name: "growth",
    label: "Growth",
    paid: true,
    readApi: true,
    coreSlots: 15,
    weeklyResearchAllowance: 10,
    dailyCaps: { battlecards: 20, icpUpdates: 10, positioningDrafts: 10, renders: 400 },
    shareLinkHours: 24 * 7,
    cadences: ["weekly", "daily", "twice_daily"],
    memberSeats: 25,
  },
  enterprise: {
    ...base,
    name: "enterprise",
    label: "Enterprise",
    paid: true,
    readApi: true,
    coreSlots: 50,
    weeklyResearchAllowance: 30,
    dailyCaps: { battlecards: 100, icpUpdates: 50, positioningDrafts: 50, renders: 2000 },
    shareLinkHours: 24 * 30,
    cadences: ["weekly", "daily", "twice_daily", "hourly"],
    memberSeats: 500,
  },
};

export function isPlanName(v: unknown): v is PlanName {
  return typeof v === "string" && (PLAN_NAMES as readonly string[]).includes(v);
}

export function planOf(name: string): Plan {
  return isPlanName(name) ? PLANS[name] : PLANS.free;
}

/** The cadence a workspace that never chose one runs at. */
export const DEFAULT_CADENCE = "weekly";

/** The cadence cycles run at: the chosen one (else the default) when the plan allows it, else the plan's
 * fastest (a downgraded workspace keeps the best its plan offers). */
export function effectiveCadence(plan: Plan, chosen: string | null | undefined): string {
  const cadence = chosen || DEFAULT_CADENCE;
  return plan.cadences.includes(cadence) ? cadence : plan.cadences[plan.cadences.length - 1];
}

/** The cheapest paid plan whose limits pass `ok` (any paid plan without it): the plan a refusal names. */
export function cheapestPaidPlan(ok: (p: Plan) => boolean = () => true): Plan | undefined {
  return PLAN_NAMES.map((n) => PLANS[n]).find((p) => p.paid && ok(p));
}

/** The cheapest paid plan, named in refusals. */
export const LOWEST_PAID: PlanName = cheapestPaidPlan()!.name;

/** True for a tool or feature only paid plans may use. */
export function isPaidOnly(feature: string): feature is PaidOnlyFeature {
  return Object.hasOwn(PAID_ONLY, feature);
}

/** Why a workspace on `plan` may not use a paid-only feature, naming the plan it needs; undefined on a paid
 * plan. `workspace`: how the sentence names the workspace. */
export function paidOnlyRefusal(
  plan: Plan,
  feature: PaidOnlyFeature,
  needed: PlanName = LOWEST_PAID,
  workspace = "this workspace",
): string | undefined {
  if (plan.paid) return undefined;
  return `${PAID_ONLY[feature]} needs a paid plan (${PLANS[needed].label} or higher); ${workspace} is on ${plan.label}.`;
}

/** The paid-only gate of every command: `plan_required` with the plan needed, on an unpaid plan. */
export function requirePaid(plan: Plan, feature: PaidOnlyFeature, needed: PlanName = LOWEST_PAID): void {
  const why = paidOnlyRefusal(plan, feature, needed);
  if (why) throw new DomainError("plan_required", why, { plan_needed: needed, plan: plan.name });
}

const DAILY_CAPS = {
  battlecards: { limit: "daily_battlecards", what: "battlecard generations" },
  icpUpdates: { limit: "daily_icp_updates", what: "ICP updates" },
  positioningDrafts: { limit: "daily_positioning_drafts", what: "positioning drafts" },
  renders: { limit: "daily_renders", what: "pages rendered in a browser" },
} as const;

/** The refusal of a command over one of the plan's daily caps (they reset at 00:00 UTC, `resetsAt`), naming the
 * cheapest paid plan with a higher cap. */
export function dailyCapReached(
  plan: Plan,
  cap: keyof Plan["dailyCaps"],
  used: number,
  resetsAt: string,
): DomainError {
  const allowed = plan.dailyCaps[cap];
  const { limit, what } = DAILY_CAPS[cap];
  const up = cheapestPaidPlan((p) => p.dailyCaps[cap] > allowed);
  return new DomainError(
    "limit_reached",
    `The ${plan.label} plan allows ${allowed} ${what} per day (UTC) and ${used} ran today; try again from ${formatDay(resetsAt)}, 00:00 UTC${
      up ? ` or upgrade (${up.label} allows ${up.dailyCaps[cap]})` : ""
    }.`,
    {
      limit,
      allowed,
      used,
      plan: plan.name,
      resets_at: resetsAt,
      ...(up ? { plan_needed: up.name } : {}),
    },
  );
}
