// A shared cycle's competitors (cycle_shares, operational): one row per competitor of a scheduled cycle, claimed by
// whichever instance checks it, its result written on it when done. The rule (who claims what, renewals, retries,
// the lead's wait) is src/engine/schedule/shares.ts; writes run in the writer's transaction the caller passes.
import type { Exec } from "./client.ts";

/** Offers competitors of a cycle at positions `from`, `from + 1` … (rows already there are kept). */
export async function insertShares(
  tx: Exec,
  p: { cycleId: number; orgId: number; from: number; ids: number[] },
): Promise<void> {
  if (p.ids.length === 0) return;
  await tx.execute({
    sql: `INSERT OR IGNORE INTO cycle_shares (cycle_id, competitor_id, org_id, position) VALUES ${p.ids
      .map(() => "(?, ?, ?, ?)")
      .join(", ")}`,
    args: p.ids.flatMap((id, k) => [p.cycleId, id, p.orgId, p.from + k]),
  });
}

/** Claims up to `n` open rows nobody holds (or whose claim expired at `at`), in the cycle's order, for `holder`
 * until `until`: their competitors and how often each was claimed. */
export async function claimOpenShares(
  tx: Exec,
  p: { cycleId: number; holder: string; at: string; until: string; n: number },
): Promise<{ id: number; claims: number }[]> {
  const r = await tx.execute({
    sql: `UPDATE cycle_shares SET holder = ?, expires_at = ?, claims = claims + 1
          WHERE cycle_id = ? AND competitor_id IN (
            SELECT competitor_id FROM cycle_shares WHERE cycle_id = ? AND done_at IS NULL
              AND (holder IS NULL OR expires_at <= ?) ORDER BY position LIMIT ?)
          RETURNING competitor_id, claims`,
    args: [p.holder, p.until, p.cycleId, p.cycleId, p.at, p.n],
  });
  return r.rows.map((row) => ({ id: Number(row.competitor_id), claims: Number(row.claims) }));
}

/** Gives `holder`'s claim of an open row back. */
export async function releaseShareClaim(
  tx: Exec,
  p: { cycleId: number; competitorId: number; holder: string },
): Promise<void> {
  await tx.execute({
    sql: `UPDATE cycle_shares SET holder = NULL, expires_at = NULL WHERE cycle_id = ? AND competitor_id = ?
            AND holder = ? AND done_at IS NULL`,
    args: [p.cycleId, p.competitorId, p.holder],
  });
}

/** Moves on to `until` the expiry of every open claim `holder` has on the cycle. */
export async function renewShareClaims(
  tx: Exec,
  p: { cycleId: number; holder: string; until: string },
): Promise<void> {
  await tx.execute({
    sql: "UPDATE cycle_shares SET expires_at = ? WHERE cycle_id = ? AND holder = ? AND done_at IS NULL",
    args: [p.until, p.cycleId, p.holder],
  });
}

/** Marks `holder`'s open row done with its result (JSON). False when the row is no longer held by `holder`. */
export async function finishShareRow(
  tx: Exec,
  p: { cycleId: number; competitorId: number; holder: string; at: string; result: string },
): Promise<boolean> {
  const r = await tx.execute({
    sql: `UPDATE cycle_shares SET done_at = ?, result = ? WHERE cycle_id = ? AND competitor_id = ? AND holder = ?
            AND done_at IS NULL`,
    args: [p.at, p.result, p.cycleId, p.competitorId, p.holder],
  });
  return r.rowsAffected === 1;
}

/** The running cycles (neither finished nor abandoned) with a row free to claim at `at`. */
export async function claimableShareCycles(
  db: Exec,
  at: string,
): Promise<{ cycleId: number; orgId: number; startedAt: string }[]> {
  const r = await db.execute({
    sql: `SELECT DISTINCT s.cycle_id, s.org_id, c.started_at FROM cycle_shares s JOIN cycles c ON c.id = s.cycle_id
          WHERE s.done_at IS NULL AND (s.holder IS NULL OR s.expires_at <= ?)
            AND c.finished_at IS NULL AND c.abandoned_at IS NULL`,
    args: [at],
  });
  return r.rows.map((row) => ({
    cycleId: Number(row.cycle_id),
    orgId: Number(row.org_id),
    startedAt: String(row.started_at),
  }));
}

/** How many of the cycle's rows are not done. */
export async function openShareCount(db: Exec, cycleId: number): Promise<number> {
  const r = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM cycle_shares WHERE cycle_id = ? AND done_at IS NULL",
    args: [cycleId],
  });
  return Number(r.rows[0].n);
}

/** The results (JSON) of the cycle's done rows, in the cycle's order. */
export async function shareResultRows(db: Exec, cycleId: number): Promise<string[]> {
  const r = await db.execute({
    sql: "SELECT result FROM cycle_shares WHERE cycle_id = ? AND done_at IS NOT NULL ORDER BY position",
    args: [cycleId],
  });
  return r.rows.map((row) => String(row.result));
}

/** Deletes the cycle's rows. */
export async function deleteShares(tx: Exec, cycleId: number): Promise<void> {
  await tx.execute({ sql: "DELETE FROM cycle_shares WHERE cycle_id = ?", args: [cycleId] });
}

/** Deletes the rows of cycles that finished or were abandoned. */
export async function deleteClosedCyclesShares(tx: Exec): Promise<void> {
  await tx.execute(
    `DELETE FROM cycle_shares WHERE cycle_id IN (SELECT DISTINCT x.cycle_id FROM cycle_shares x
       JOIN cycles c ON c.id = x.cycle_id WHERE c.finished_at IS NOT NULL OR c.abandoned_at IS NOT NULL)`,
  );
}
