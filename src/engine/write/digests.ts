// At the end of a cycle: the digests domain/digests.ts decideCycleDigests says are due — a period that ended
// gets its digest (written again when signals came after it was written), and a cycle that opened medium or high
// signals writes the current period's digest at once (the day's, or the week's for a weekly cadence).
import { orgCreatedAt, periodDigestState, severitiesOf } from "../../db/queries/cycleWrites.ts";
import { type CycleDigestState, cyclePeriods, decideCycleDigests } from "../../domain/digests.ts";
import { effectiveCadence, planOf } from "../../domain/plans.ts";
import { loadSettings } from "../../domain/workspace.ts";
import type { Services } from "../../services.ts";
import type { AfterCycleStep, FinishedCycle } from "../cycle/types.ts";
import { generateDigest } from "../digests/generate.ts";

async function loadCycleDigestState(s: Services, cycle: FinishedCycle): Promise<CycleDigestState> {
  const db = s.database;
  const createdAt = await orgCreatedAt(db, cycle.orgId);
  const settings = await loadSettings(db, cycle.orgId);
  const opened = await severitiesOf(db, cycle.orgId, cycle.signalIds.created);
  const stored: CycleDigestState["stored"] = {};
  for (const p of cyclePeriods(cycle.finishedAt)) {
    const { writtenAt, newestSignalAt } = await periodDigestState(db, cycle.orgId, {
      slug: p.slug,
      from: p.start.toISOString(),
      to: p.end.toISOString(),
    });
    stored[p.slug] = {
      ...(writtenAt !== undefined ? { written_at: writtenAt } : {}),
      ...(newestSignalAt !== undefined ? { newest_signal_at: newestSignalAt } : {}),
    };
  }
  return {
    finishedAt: cycle.finishedAt,
    orgCreatedAt: createdAt ?? cycle.finishedAt,
    cadence: effectiveCadence(planOf(settings.plan), settings.cadence),
    opened,
    stored,
  };
}

export const writeCycleDigests: AfterCycleStep = async (s: Services, cycle) => {
  const due = decideCycleDigests(await loadCycleDigestState(s, cycle));
  let written = 0;
  for (const d of due) {
    const out = await generateDigest(s, cycle.orgId, d.type, { end: new Date(d.end) });
    if (out.written) written++;
  }
  return { digests_written: written };
};
