// The workspace's plan as get_plan_and_limits reports it, and what the workspace uses of it (tracked
// competitors, core slots).
import type { Plan } from "./plans.ts";
import type { Exec } from "./workspace.ts";

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
      pages_rendered: p.dailyCaps.renders,
    },
    share_link_lifetime_hours: p.shareLinkHours,
    monitoring_cadences: p.cadences,
    monitored_pages_per_competitor: p.monitoredPagesPerCompetitor,
    member_seats: p.memberSeats,
    paid_only_features: p.paidOnlyFeatures,
  };
}

/** Competitors the workspace actively tracks, core and horizon (served by the org's competitor index). */
export async function trackedCompetitorCount(tx: Exec, orgId: number): Promise<number> {
  const r = await tx.execute({
    sql: "SELECT count(*) AS n FROM competitors WHERE org_id = ? AND tracking = 'active'",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}

/** Core competitors that hold a slot: the actively tracked core ones (the same count add_competitor's slot check
 * uses). */
export async function coreSlotsUsed(tx: Exec, orgId: number): Promise<number> {
  const r = await tx.execute({
    sql: "SELECT count(*) AS n FROM competitors WHERE org_id = ? AND tracking = 'active' AND watch = 'core'",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}
