// Who runs a research run (research_leases, an operational table): the instance that started it holds a lease
// until it expires. The rule (renewal, recovery of runs whose instance is gone) is src/engine/research/lease.ts;
// every write runs in the writer's transaction the caller passes.
import type { Exec } from "./client.ts";

/** Takes (or takes over) the leases of `runIds` for `holder` until `until`. */
export async function takeResearchLeases(
  tx: Exec,
  runIds: number[],
  holder: string,
  until: string,
): Promise<void> {
  for (const id of runIds)
    await tx.execute({
      sql: "INSERT OR REPLACE INTO research_leases (run_id, holder, expires_at) VALUES (?, ?, ?)",
      args: [id, holder, until],
    });
}

/** Moves the leases `holder` holds on `runIds` on to `until`. */
export async function renewResearchLeases(
  tx: Exec,
  runIds: number[],
  holder: string,
  until: string,
): Promise<void> {
  if (runIds.length === 0) return;
  await tx.execute({
    sql: `UPDATE research_leases SET expires_at = ? WHERE holder = ?
              AND run_id IN (${runIds.map(() => "?").join(", ")})`,
    args: [until, holder, ...runIds],
  });
}

/** Lets go of every lease `holder` holds (they expire at `at`). */
export async function expireResearchLeasesOf(tx: Exec, holder: string, at: string): Promise<void> {
  await tx.execute({
    sql: "UPDATE research_leases SET expires_at = ? WHERE holder = ?",
    args: [at, holder],
  });
}

export async function dropResearchLease(tx: Exec, runId: number): Promise<void> {
  await tx.execute({ sql: "DELETE FROM research_leases WHERE run_id = ?", args: [runId] });
}

const ORPHANED = `SELECT r.id FROM research_runs r LEFT JOIN research_leases l ON l.run_id = r.id
    WHERE r.state = 'running' AND (l.run_id IS NULL OR l.expires_at <= ?)`;

/** Runs a page of `orphanedResearchRuns` holds at most. */
export const ORPHANS_PAGE = 200;

/** Running runs (of every workspace: recovery is the instance's) whose lease is missing or expired at `at`, by
 * id after `afterId`, a page at a time. */
export async function orphanedResearchRuns(
  db: Exec,
  at: string,
  afterId = 0,
  limit = ORPHANS_PAGE,
): Promise<number[]> {
  const r = await db.execute({
    sql: `${ORPHANED} AND r.id > ? ORDER BY r.id LIMIT ?`,
    args: [at, afterId, limit],
  });
  return r.rows.map((row) => Number(row.id));
}

/** Whether run `id` is still running without a live lease at `at`. */
export async function researchRunOrphaned(tx: Exec, id: number, at: string): Promise<boolean> {
  const r = await tx.execute({ sql: `${ORPHANED} AND r.id = ?`, args: [at, id] });
  return r.rows.length > 0;
}
