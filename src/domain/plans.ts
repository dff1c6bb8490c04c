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

/** What only a paid plan may use: the MCP tools by name (the tool call refuses them on an unpaid plan) and
 * features of the app and API by description. Shown on the pricing page and by get_plan_and_limits. */
export const PAID_ONLY_FEATURES: readonly string[] = [
  "read API",
  "remove_competitor",
  "add_monitored_page",
  "remove_monitored_page",
  "set_monitoring_cadence",
  "team chat delivery",
  "invite_member",
  "OAuth app approval",
];

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
export function isPaidOnly(feature: string): boolean {
  return PAID_ONLY_FEATURES.includes(feature);
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
    `The ${plan.label} plan allows ${allowed} ${what} per day (UTC) and ${used} ran today; try again after ${resetsAt}${
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
