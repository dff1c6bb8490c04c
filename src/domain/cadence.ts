// The monitoring cadence: how often the workspace's cycles run, a paid plan's choice among the cadences its plan
// offers.
import type { NewEvent } from "../../events/catalog.ts";
import type { Command } from "../../events/command.ts";
import { DomainError } from "./errors.ts";
import { cheapestPaidPlan, PLAN_NAMES, PLANS, type PlanName, planOf, requirePaid } from "./plans.ts";
import { listOf } from "./prose.ts";
import { InvalidInput } from "./validate.ts";
import { labelInText } from "./vocabulary.ts";
import { loadSettings, orgStream, type WorkspaceSettings } from "./workspace.ts";

/** Every cadence some plan offers, slowest first, in plan-table order. */
export const ALL_CADENCES: string[] = [...new Set(PLAN_NAMES.flatMap((p) => PLANS[p].cadences))];

/** The cheapest paid plan that allows a cadence. */
export function lowestPlanWithCadence(cadence: string): PlanName | undefined {
  return cheapestPaidPlan((p) => p.cadences.includes(cadence))?.name;
}

export function decideSetCadence(st: WorkspaceSettings, cadence: string): NewEvent[] {
  const plan = planOf(st.plan);
  if (!ALL_CADENCES.includes(cadence))
    throw new InvalidInput(
      `cadence must be one of ${listOf(
        ALL_CADENCES.map((c) => (labelInText(c) === c ? c : `${c} (${labelInText(c)})`)),
        "or",
      )}`,
      "cadence",
    );
  requirePaid(plan, "set_monitoring_cadence", lowestPlanWithCadence(cadence));
  if (!plan.cadences.includes(cadence)) {
    const needed = lowestPlanWithCadence(cadence)!;
    throw new DomainError(
      "plan_required",
      `Running cycles ${labelInText(cadence)} is not in the ${plan.label} plan, which runs them ${listOf(plan.cadences.map(labelInText), "or")}; running them ${labelInText(cadence)} comes with the ${PLANS[needed].label} plan or higher.`,
      { cadence, allowed_cadences: plan.cadences, plan_needed: needed, plan: plan.name },
    );
  }
  if (st.cadence === cadence) return [];
  return [{ type: "MonitoringCadenceSet", ...orgStream(st.orgId), data: { cadence } }];
}

export const setMonitoringCadence: Command<{ cadence: string }, WorkspaceSettings, { changed: boolean }> = {
  load: (w, _cmd, c) => loadSettings(w.tx, c.orgId),
  decide: (st, cmd) => {
    const events = decideSetCadence(st, cmd.cadence);
    return { events, result: { changed: events.length > 0 } };
  },
};
