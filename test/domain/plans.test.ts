// The plan table's derived rules, each written once: the cheapest paid plan that allows something (named in
// every refusal) and the paid-only list, which is also what the paid-only commands' deciders refuse by.
import { expect, test } from "bun:test";
import { lowestPlanWithCadence } from "../../src/domain/cadence.ts";
import {
  cheapestPaidPlan,
  dailyCapReached,
  effectiveCadence,
  isPaidOnly,
  LOWEST_PAID,
  PAID_ONLY_FEATURES,
  PLAN_NAMES,
  PLANS,
} from "../../src/domain/plans.ts";
import { tools } from "../../src/mcp/registry.ts";

test("cheapestPaidPlan: the first paid plan in table order whose limits pass", () => {
  expect(LOWEST_PAID).toBe("starter");
  expect(cheapestPaidPlan()?.name).toBe("starter");
  expect(cheapestPaidPlan((p) => p.coreSlots > 5)?.name).toBe("growth");
  expect(cheapestPaidPlan((p) => p.memberSeats > 10_000)).toBeUndefined();
  expect(lowestPlanWithCadence("hourly")).toBe("enterprise");
  expect(lowestPlanWithCadence("weekly")).toBe("starter");
  for (const n of PLAN_NAMES) expect(PLANS[n].paidOnlyFeatures).toEqual([...PAID_ONLY_FEATURES]);
});

test("the paid-only list names real MCP tools, and exactly those tools need a paid plan", () => {
  const toolNames = new Set(tools.map((t) => t.name));
  const listedTools = PAID_ONLY_FEATURES.filter((f) => /^[a-z_]+$/.test(f));
  for (const f of listedTools) expect([f, toolNames.has(f)]).toEqual([f, true]);
  expect(tools.filter((t) => isPaidOnly(t.name)).map((t) => t.name)).toEqual(
    expect.arrayContaining([
      "remove_competitor",
      "add_monitored_page",
      "remove_monitored_page",
      "set_monitoring_cadence",
      "invite_member",
    ]),
  );
  expect(tools.filter((t) => isPaidOnly(t.name))).toHaveLength(5);
});

test("effectiveCadence: the choice when the plan allows it, else the plan's fastest; weekly by default", () => {
  expect(effectiveCadence(PLANS.growth, "daily")).toBe("daily");
  expect(effectiveCadence(PLANS.growth, null)).toBe("weekly");
  expect(effectiveCadence(PLANS.starter, "hourly")).toBe("daily");
  expect(effectiveCadence(PLANS.free, "daily")).toBe("weekly");
});

test("dailyCapReached: one refusal for every daily cap, naming the cheapest paid plan with a higher cap", () => {
  const e = dailyCapReached(PLANS.free, "icpUpdates", 2, "2026-11-26T00:00:00.000Z");
  expect(e.code).toBe("limit_reached");
  expect(e.extra).toEqual({
    limit: "daily_icp_updates",
    allowed: PLANS.free.dailyCaps.icpUpdates,
    used: 2,
    plan: "free",
    resets_at: "2026-11-26T00:00:00.000Z",
    plan_needed: "starter",
  });
  expect(e.message).toContain("ICP updates per day");
  // The highest plan has nothing above it to name.
  const top = dailyCapReached(PLANS.enterprise, "battlecards", 100, "2026-11-26T00:00:00.000Z");
  expect(top.extra).not.toHaveProperty("plan_needed");
  expect(top.message).not.toContain("upgrade");
});
