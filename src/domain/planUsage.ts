// The workspace's plan as get_plan_and_limits reports it, and what the workspace uses of it (tracked
// competitors, core slots).
export { coreSlotsUsed, trackedCompetitorCount } from "../db/queries/competitorUsage.ts";

import type { Plan } from "./plans.ts";

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
