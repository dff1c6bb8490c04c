// Statements of compaction (src/engine/compaction/compact.ts; docs/operations.md): the bookkeeping of past
// cycles that nothing serves any more. Each runs in the writer's transaction the caller passes.
//
// A competitor's freshness is set by its newest CompetitorChecked, except `last_changed_at` (the newest one that
// found a change) and the job board a careers page moved to (research_sources): those events are kept, so a
// rebuild of the projections gives the same competitor. Signals, digests, battlecards and their evidence are not
// bookkeeping and are never touched.
import type { Exec } from "./client.ts";

const CHECKED = "stream_type = 'competitor' AND stream_id = ?1 AND type = 'CompetitorChecked'";

/** The competitor streams that hold a CompetitorChecked recorded before `before`. */
export async function streamsWithOldChecks(db: Exec, before: string): Promise<string[]> {
  const r = await db.execute({
    sql: `SELECT DISTINCT stream_id FROM events
          WHERE stream_type = 'competitor' AND type = 'CompetitorChecked' AND recorded_at < ?`,
    args: [before],
  });
  return r.rows.map((row) => String(row.stream_id));
}

/** Deletes a competitor's CompetitorChecked events recorded before `before`, but its newest one, its newest
 * one that found a change and any that moved its job board. Answers how many went. A command that read the
 * stream's version before runs again (the writer checks its reads at the commit). */
export async function dropOldChecks(tx: Exec, streamId: string, before: string): Promise<number> {
  const r = await tx.execute({
    sql: `DELETE FROM events WHERE ${CHECKED} AND recorded_at < ?2
            AND json_extract(data, '$.job_board') IS NULL
            AND position <> (SELECT MAX(position) FROM events WHERE ${CHECKED})
            AND position <> COALESCE((SELECT MAX(position) FROM events WHERE ${CHECKED}
                                        AND json_extract(data, '$.changed') > 0), 0)`,
    args: [streamId, before],
  });
  if (r.rowsAffected > 0) {
    // The stream's versions are numbered again from 1, in their order, so that they stay without gaps (an
    // export imported twice recognises its lines by version). Negated first: the versions are unique.
    await tx.execute({
      sql: "UPDATE events SET stream_version = -stream_version WHERE stream_type = 'competitor' AND stream_id = ?",
      args: [streamId],
    });
    await tx.execute({
      sql: `UPDATE events SET stream_version = r.v
            FROM (SELECT position AS p, ROW_NUMBER() OVER (ORDER BY stream_version DESC) AS v FROM events
                  WHERE stream_type = 'competitor' AND stream_id = ?) AS r
            WHERE events.position = r.p`,
      args: [streamId],
    });
  }
  return r.rowsAffected;
}

/** Deletes the records of cycles that started before `before` and have ended, but each workspace's newest
 * finished one (what the tools and the monitoring page call the last cycle), with the CycleStarted and
 * CycleFinished events older logs hold for them. Answers how many cycles and events went. */
export async function dropOldCycles(tx: Exec, before: string): Promise<{ cycles: number; events: number }> {
  const cycles = await tx.execute({
    sql: `DELETE FROM cycles WHERE started_at < ? AND (finished_at IS NOT NULL OR abandoned_at IS NOT NULL)
            AND id NOT IN (SELECT MAX(id) FROM cycles WHERE finished_at IS NOT NULL GROUP BY org_id)
            AND id NOT IN (SELECT cycle_id FROM cycle_shares)`,
    args: [before],
  });
  const events = await tx.execute({
    sql: `DELETE FROM events WHERE type IN ('CycleStarted', 'CycleFinished') AND recorded_at < ?
            AND json_extract(data, '$.cycle_id') NOT IN (SELECT id FROM cycles)`,
    args: [before],
  });
  return { cycles: cycles.rowsAffected, events: events.rowsAffected };
}

/** The database's size in bytes (pages in use and free) and the bytes of its free pages. */
export async function databaseBytes(db: Exec): Promise<{ bytes: number; free: number }> {
  const r = await db.execute({
    sql: `SELECT (SELECT page_count FROM pragma_page_count()) AS pages,
                 (SELECT freelist_count FROM pragma_freelist_count()) AS free,
                 (SELECT page_size FROM pragma_page_size()) AS size`,
    args: [],
  });
  const row = r.rows[0];
  return { bytes: Number(row.pages) * Number(row.size), free: Number(row.free) * Number(row.size) };
}

/** Gives the free pages back to the file system (rewrites the database: run when the service is quiet). */
export async function vacuum(db: Exec): Promise<void> {
  await db.execute("VACUUM");
}
