// The paid-only rule in one place: the plan table's list of paid-only features, and one gate (requirePaid)
// that every paid-only command's decider calls, so the tools, the app's pages and the CLI refuse alike.
import { expect, test } from "bun:test";
import { decideSetCadence } from "../../src/domain/cadence.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { invitePlanRefusal } from "../../src/domain/invitations.ts";
import { isPaidOnly, PLAN_NAMES, PLANS, paidOnlyRefusal, requirePaid } from "../../src/domain/plans.ts";
import type { WorkspaceSettings } from "../../src/domain/workspace.ts";

test("the paid-only features are the plan table's list, the same for every unpaid plan", () => {
  expect(PLANS.free.paidOnlyFeatures).toEqual([
    "read API",
    "remove_competitor",
    "add_monitored_page",
    "remove_monitored_page",
    "set_monitoring_cadence",
    "team chat delivery",
    "invite_member",
    "OAuth app approval",
  ]);
  for (const f of PLANS.free.paidOnlyFeatures) expect(isPaidOnly(f)).toBe(true);
  expect(isPaidOnly("add_competitor")).toBe(false);
  expect(isPaidOnly("toString")).toBe(false);
});

test("requirePaid refuses on trial and free with plan_required naming the plan needed; paid plans pass", () => {
  for (const name of PLAN_NAMES) {
    const plan = PLANS[name];
    let thrown: unknown;
    try {
      requirePaid(plan, "remove_competitor");
    } catch (e) {
      thrown = e;
    }
    if (plan.paid) expect(thrown).toBeUndefined();
    else {
      expect(thrown).toBeInstanceOf(DomainError);
      const e = thrown as DomainError;
      expect([e.code, e.extra]).toEqual(["plan_required", { plan_needed: "starter", plan: name }]);
      expect(e.message).toBe(
        `Removing a competitor from the watchlist needs a paid plan (Starter or higher); this workspace is on ${plan.label}.`,
      );
    }
  }
  expect(paidOnlyRefusal(PLANS.free, "set_monitoring_cadence", "growth")).toContain("(Growth or higher)");
  expect(invitePlanRefusal(PLANS.trial)).toBe(
    `Inviting people needs a paid plan (Starter or higher); this workspace is on ${PLANS.trial.label}.`,
  );
  expect(invitePlanRefusal(PLANS.starter)).toBeUndefined();
});

test("the cadence decider refuses an unpaid plan through the same gate, naming the plan with that cadence", () => {
  const settings = (plan: string) => ({ plan }) as unknown as WorkspaceSettings;
  for (const plan of ["trial", "free"]) {
    let e: DomainError | undefined;
    try {
      decideSetCadence(settings(plan), "twice_daily");
    } catch (err) {
      e = err as DomainError;
    }
    expect([e?.code, e?.extra]).toEqual(["plan_required", { plan_needed: "growth", plan }]);
    expect(e?.message).toContain("Setting the monitoring cadence needs a paid plan (Growth or higher)");
  }
});
