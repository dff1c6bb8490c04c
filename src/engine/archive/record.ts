// Recording what history finds: before the drafts of a capture, the competitor's signals that would have expired
// by its time close (domain/history.ts); the drafts go through the same decider as a cycle's (write/signals.ts),
// dated at the capture, and the signals opened are kept as history's finds (when found, for what_changed).

import { recordFound, staleCompetitorSignals } from "../../db/archiveHistory.ts";
import { decideHistoryExpiry } from "../../domain/history.ts";
import type { Services } from "../../services.ts";
import type { SignalDraft } from "../classify/types.ts";
import { recordDrafts } from "../write/signals.ts";

/** Closes the competitor's open engine signals last seen more than RIVALS_SIGNAL_TTL_DAYS before `at`. */
export async function expireHistorical(
  s: Services,
  orgId: number,
  competitorId: number,
  at: string,
): Promise<number[]> {
  const { result } = await s.store.execute<number[]>(
    async (w) => {
      const cutoff = new Date(Date.parse(at) - s.config.signalTtlDays * 86_400_000).toISOString();
      const out = decideHistoryExpiry(
        orgId,
        await staleCompetitorSignals(w.tx, orgId, competitorId, cutoff),
        at,
        s.config.signalTtlDays,
      );
      return { events: out.events, result: out.closed };
    },
    { actor: "engine", source: "engine" },
  );
  return result;
}

/** Records the drafts of one step of history, observed at `at`. */
export async function recordHistorical(
  s: Services,
  orgId: number,
  competitorId: number,
  drafts: SignalDraft[],
  at: string,
): Promise<void> {
  await expireHistorical(s, orgId, competitorId, at);
  if (drafts.length === 0) return;
  const rec = await recordDrafts(s, orgId, competitorId, drafts, at);
  await recordFound(s, orgId, competitorId, rec.created);
}
