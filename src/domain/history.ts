// The decider for what the web-archive history does to signals besides detecting them (docs/engine/archive.md "History
// from the web archive"): history replays a competitor's past in time order, so a signal it opened that was not
// seen again for RIVALS_SIGNAL_TTL_DAYS closes as expired — at the time it would have expired, as a cycle running
// back then would have closed it. A historical signal older than the TTL is thus recorded closed.
import type { NewEvent } from "../../events/catalog.ts";

export interface SeenSignal {
  id: number;
  lastSeenAt: string;
}

/** Closes the open signals last seen more than `ttlDays` before `at` (each at its last sighting plus the TTL). */
export function decideHistoryExpiry(
  orgId: number,
  open: SeenSignal[],
  at: string,
  ttlDays: number,
): { events: NewEvent[]; closed: number[] } {
  const ttl = ttlDays * 86_400_000;
  const due = open.filter((s) => Date.parse(s.lastSeenAt) + ttl < Date.parse(at));
  return {
    events: due.map((s) => ({
      type: "SignalClosed" as const,
      orgId,
      streamType: "signal" as const,
      streamId: String(s.id),
      data: {
        id: s.id,
        closed_at: new Date(Date.parse(s.lastSeenAt) + ttl).toISOString(),
        reason: "expired" as const,
      },
    })),
    closed: due.map((s) => s.id),
  };
}
