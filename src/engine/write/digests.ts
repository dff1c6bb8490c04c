// At the end of a cycle: the digests domain/digests.ts decideCycleDigests says are due — a period that ended
// gets its digest (written again when signals came after it was written), and a cycle that opened medium or high
// signals writes the current period's digest at once (the day's, or the week's for a weekly cadence).
import { type CycleDigestState, cyclePeriods, decideCycleDigests } from "../../domain/digests.ts";
import { effectiveCadence, planOf } from "../../domain/plans.ts";
import { loadSettings } from "../../domain/workspace.ts";
import type { Services } from "../../services.ts";
import type { AfterCycleStep, FinishedCycle } from "../cycle/types.ts";
import { generateDigest } from "../digests/generate.ts";

async function loadCycleDigestState(s: Services, cycle: FinishedCycle): Promise<CycleDigestState> {
  const db = s.database.client;
  const org = await db.execute({ sql: "SELECT created_at FROM orgs WHERE id = ?", args: [cycle.orgId] });
  const settings = await loadSettings(db, cycle.orgId);
  const ids = cycle.signalIds.created;
  const opened = ids.length
    ? (
        await db.execute({
          sql: `SELECT severity FROM signals WHERE org_id = ? AND id IN (${ids.map(() => "?").join(", ")})`,
          args: [cycle.orgId, ...ids],
        })
      ).rows.map((r) => (r.severity === null ? undefined : String(r.severity)))
    : [];
  const stored: CycleDigestState["stored"] = {};
  for (const p of cyclePeriods(cycle.finishedAt)) {
    const written = await db.execute({
      sql: "SELECT generated_at FROM digests WHERE org_id = ? AND slug = ? ORDER BY id LIMIT 1",
      args: [cycle.orgId, p.slug],
    });
    const newest = await db.execute({
      sql: `SELECT first_seen_at FROM signals WHERE org_id = ? AND listed = 1 AND first_seen_at >= ? AND first_seen_at < ?
            ORDER BY first_seen_at DESC LIMIT 1`,
      args: [cycle.orgId, p.start.toISOString(), p.end.toISOString()],
    });
    const w = written.rows[0]?.generated_at;
    const n = newest.rows[0]?.first_seen_at;
    stored[p.slug] = {
      ...(w !== undefined && w !== null ? { written_at: String(w) } : {}),
      ...(n !== undefined && n !== null ? { newest_signal_at: String(n) } : {}),
    };
  }
  return {
    finishedAt: cycle.finishedAt,
    orgCreatedAt: String(org.rows[0]?.created_at ?? cycle.finishedAt),
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
