// Recording what history finds: before the drafts of a capture, the competitor's signals that would have expired
// by its time close (domain/history.ts); the drafts go through the same decider as a cycle's (write/signals.ts),
// dated at the capture, and the signals opened are kept as history's finds (when found, for what_changed).

import { runCommand } from "../../../events/command.ts";
import { recordFound } from "../../db/archiveHistory.ts";
import { expireHistoricalSignals } from "../../domain/engineSignals.ts";
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
  return runCommand(
    s.store,
    expireHistoricalSignals,
    { competitorId, at, ttlDays: s.config.signalTtlDays },
    { caller: { orgId, actor: "engine" }, metadata: { source: "engine" } },
  );
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
