// What a monitoring cycle records of one competitor (engine/cycle/results.ts checks its sources): one
// CompetitorChecked, with the failing sources listed up to a bound.
import type { EventPayloads, NewEvent } from "../../events/catalog.ts";
import type { Actor, Command, Writing } from "../../events/command.ts";

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

/** One competitor's check as a cycle records it: what its CompetitorChecked says (none for research's first
 * snapshots, which are no cycle), and its sources' checks, written to the snapshot store's tables. */
export interface CheckRecord {
  orgId: number;
  checked: EventPayloads["CompetitorChecked"] | null;
  writeSources(w: Writing): Promise<void>;
}

/** Records competitors' checks in one write: a CompetitorChecked each, with their sources' checks in the same
 * transaction (the quiet checks of a process are written together, engine/cycle/quiet.ts). */
export const recordChecks: Command<CheckRecord[], null, null, Actor> = {
  load: async () => null,
  decide: (_state, checks) => ({
    events: checks.flatMap((c) => (c.checked ? [decideCompetitorChecked(c.orgId, c.checked)] : [])),
    result: null,
  }),
  write: async (w, _state, checks) => {
    for (const c of checks) await c.writeSources(w);
    return null;
  },
};
