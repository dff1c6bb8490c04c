// The pure digest deciders on plain state, no database: the headline rule (domain/materiality.ts) and when a
// finished cycle writes a digest (domain/digests.ts decideCycleDigests).
import { describe, expect, test } from "bun:test";
import { type CycleDigestState, cyclePeriods, decideCycleDigests } from "../../src/domain/digests.ts";
import { byMateriality, headlineMove, type Move } from "../../src/domain/materiality.ts";

const move = (id: number, over: Partial<Move>): Move => ({
  id,
  watch: "core",
  severity: "high",
  first_seen_at: "2026-11-20T12:00:00.000Z",
  ...over,
});

describe("the headline rule", () => {
  test("an annual plan's monthly equivalent never heads a 17% price rise and a free tier ending", () => {
    const annualPlan = move(1, {
      type: "plan_added",
      confidence: 0.95,
      first_seen_at: "2026-11-20T13:00:00Z",
    });
    const rise = move(2, { type: "price_increase", percent: 16.95, confidence: 0.95 });
    const freeEnds = move(3, { type: "free_tier_change", confidence: 0.95 });
    expect(headlineMove([annualPlan, rise, freeEnds])?.id).toBe(3);
    expect(headlineMove([annualPlan, rise])?.id).toBe(2);
    expect([annualPlan, rise, freeEnds].sort(byMateriality).map((m) => m.id)).toEqual([3, 2, 1]);
  });

  test("price rises and cuts rank by percent, whichever way they go", () => {
    const small = move(1, { type: "price_increase", percent: 12 });
    const cut = move(2, { type: "price_decrease", percent: -30 });
    const big = move(3, { type: "price_increase", percent: 25 });
    expect([small, cut, big].sort(byMateriality).map((m) => m.id)).toEqual([2, 3, 1]);
  });

  test("plans and free tiers added or removed come before page and wording changes", () => {
    const page = move(1, { type: "page_added", confidence: 1, first_seen_at: "2026-11-20T23:00:00Z" });
    const wording = move(2, { type: "messaging_change", confidence: 1 });
    const plan = move(3, { type: "plan_removed", confidence: 0.5 });
    const domain = move(4, { type: "domain_change" });
    expect(headlineMove([page, wording, domain, plan])?.id).toBe(3);
    // A type the rule does not know reads as a page or wording change.
    expect(headlineMove([move(5, { type: "something_new" }), plan])?.id).toBe(3);
  });

  test("core competitors first: a horizon company's bigger move does not head a core one's", () => {
    const horizon = move(1, { watch: "horizon", type: "free_tier_change" });
    const other = move(2, { watch: null, type: "price_increase", percent: 50 });
    const core = move(3, { type: "messaging_change", severity: "medium" });
    expect([horizon, other, core].sort(byMateriality).map((m) => m.id)).toEqual([3, 1, 2]);
  });

  test("severity before the kind; then confidence, the newest and the id keep the order stable", () => {
    const mediumPrice = move(1, { type: "price_increase", severity: "medium", percent: 5 });
    const highLaunch = move(2, { type: "feature_launch" });
    expect(headlineMove([mediumPrice, highLaunch])?.id).toBe(2);
    const a = move(3, { type: "release", confidence: 0.9 });
    const b = move(4, { type: "release", confidence: 0.8, first_seen_at: "2026-11-21T00:00:00Z" });
    const c = move(5, { type: "release", confidence: 0.8 });
    const d = move(6, { type: "release", confidence: 0.8 });
    expect([c, d, b, a].sort(byMateriality).map((m) => m.id)).toEqual([3, 4, 6, 5]);
    expect(headlineMove([])).toBeUndefined();
  });
});

describe("when a cycle writes a digest", () => {
  const state = (over: Partial<CycleDigestState>): CycleDigestState => ({
    finishedAt: "2026-11-20T13:00:00.000Z", // a Friday
    orgCreatedAt: "2026-11-16T08:00:00.000Z", // this week: last week ended before it
    cadence: "daily",
    opened: [],
    stored: {},
    ...over,
  });

  test("a cycle that opens a medium or high signal writes the current period's digest at once", () => {
    expect(decideCycleDigests(state({ opened: ["high", "low"] }))).toEqual([
      { type: "daily_digest", end: "2026-11-21T00:00:00.000Z", because: "material_changes" },
    ]);
    expect(decideCycleDigests(state({ opened: ["medium"] }))).toHaveLength(1);
    // A weekly workspace reads the week.
    expect(decideCycleDigests(state({ opened: ["medium"], cadence: "weekly" }))).toEqual([
      { type: "weekly_tldr", end: "2026-11-23T00:00:00.000Z", because: "material_changes" },
    ]);
  });

  test("low or no new signals write nothing before the period ends", () => {
    expect(decideCycleDigests(state({ opened: ["low", undefined] }))).toEqual([]);
    expect(decideCycleDigests(state({}))).toEqual([]);
  });

  test("a period that ended gets its digest once; again only when signals came after it was written", () => {
    const at = "2026-11-23T01:00:00.000Z"; // Monday: day 22 and week 47 just ended
    const periods = cyclePeriods(at).map((p) => p.slug);
    expect(periods).toEqual(["daily-2026-11-22", "daily-2026-11-23", "weekly-2026-w47", "weekly-2026-w48"]);
    const none = decideCycleDigests(
      state({ finishedAt: at, stored: { "daily-2026-11-22": { newest_signal_at: "2026-11-22T09:00:00Z" } } }),
    );
    expect(none).toEqual([
      { type: "daily_digest", end: "2026-11-23T00:00:00.000Z", because: "period_ended" },
      // A quiet week still gets its digest; a quiet day gets none.
      { type: "weekly_tldr", end: "2026-11-23T00:00:00.000Z", because: "period_ended" },
    ]);
    const current = decideCycleDigests(
      state({
        finishedAt: at,
        stored: {
          "daily-2026-11-22": {
            written_at: "2026-11-22T10:00:00Z",
            newest_signal_at: "2026-11-22T09:00:00Z",
          },
          "weekly-2026-w47": { written_at: "2026-11-22T10:00:00Z", newest_signal_at: "2026-11-22T09:00:00Z" },
        },
      }),
    );
    expect(current).toEqual([]);
    const later = decideCycleDigests(
      state({
        finishedAt: at,
        stored: {
          "daily-2026-11-22": {
            written_at: "2026-11-22T10:00:00Z",
            newest_signal_at: "2026-11-22T18:00:00Z",
          },
          "weekly-2026-w47": { written_at: "2026-11-22T10:00:00Z", newest_signal_at: "2026-11-22T18:00:00Z" },
        },
      }),
    );
    expect(later.map((d) => d.type)).toEqual(["daily_digest", "weekly_tldr"]);
  });

  test("periods that ended before the workspace existed are skipped", () => {
    const at = "2026-11-23T01:00:00.000Z";
    expect(
      decideCycleDigests(
        state({
          finishedAt: at,
          orgCreatedAt: "2026-11-23T00:30:00.000Z",
          stored: { "daily-2026-11-22": { newest_signal_at: "2026-11-22T09:00:00Z" } },
        }),
      ),
    ).toEqual([]);
  });
});
