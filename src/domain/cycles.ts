// What a monitoring cycle records of one competitor (engine/cycle/results.ts checks its sources): one
// CompetitorChecked, with the failing sources listed up to a bound.
import type { EventPayloads, NewEvent } from "../../events/catalog.ts";

/** Failing sources a CompetitorChecked lists at most. */
export const MAX_FAILURES_LISTED = 20;

export function decideCompetitorChecked(orgId: number, d: EventPayloads["CompetitorChecked"]): NewEvent {
  const { failing, ...rest } = d;
  return {
    type: "CompetitorChecked",
    orgId,
    streamType: "competitor",
    streamId: String(d.competitor_id),
    data: { ...rest, ...(failing?.length ? { failing: failing.slice(0, MAX_FAILURES_LISTED) } : {}) },
  };
}
