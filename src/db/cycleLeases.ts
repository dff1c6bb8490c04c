// What the scheduler reads and writes: the workspaces it considers, and its leases (cycle_leases, operational: one
// row per workspace and due slot, held by the instance that runs the slot's cycle until it expires or the cycle
// finishes). The rule (who claims when, renewals, takeovers) is src/engine/schedule/lease.ts; writes run in the
// writer's transaction the caller passes.
import type { Exec } from "./client.ts";

/** Inserts the lease of (org, slot) for `holder`, or takes over one whose cycle did not finish and whose holder
 * let it expire by `claimedAt`. True when `holder` has it now. */
export async function claimCycleLease(
  tx: Exec,
  p: { orgId: number; slot: string; holder: string; claimedAt: string; expiresAt: string },
): Promise<boolean> {
  const r = await tx.execute({
    sql: `INSERT INTO cycle_leases (org_id, slot, holder, claimed_at, expires_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (org_id, slot) DO UPDATE SET holder = excluded.holder, claimed_at = excluded.claimed_at,
            expires_at = excluded.expires_at, takeovers = cycle_leases.takeovers + 1
          WHERE cycle_leases.finished_at IS NULL AND cycle_leases.expires_at <= excluded.claimed_at
          RETURNING holder`,
    args: [p.orgId, p.slot, p.holder, p.claimedAt, p.expiresAt],
  });
  return r.rows.length === 1 && String(r.rows[0].holder) === p.holder;
}

/** Moves `holder`'s unfinished lease to `expiresAt`. False when another holder has it. */
export async function renewCycleLease(
  tx: Exec,
  p: { orgId: number; slot: string; holder: string; expiresAt: string },
): Promise<boolean> {
  const r = await tx.execute({
    sql: "UPDATE cycle_leases SET expires_at = ? WHERE org_id = ? AND slot = ? AND holder = ? AND finished_at IS NULL",
    args: [p.expiresAt, p.orgId, p.slot, p.holder],
  });
  return r.rowsAffected === 1;
}

/** Marks `holder`'s lease finished, with the cycle it ran (null: none started). */
export async function finishCycleLease(
  tx: Exec,
  p: { orgId: number; slot: string; holder: string; finishedAt: string; cycleId: number | null },
): Promise<void> {
  await tx.execute({
    sql: "UPDATE cycle_leases SET finished_at = ?, cycle_id = ? WHERE org_id = ? AND slot = ? AND holder = ?",
    args: [p.finishedAt, p.cycleId, p.orgId, p.slot, p.holder],
  });
}

/** The lease rows of the slots `slots` (every workspace's). */
export async function cycleLeasesOfSlots(
  db: Exec,
  slots: string[],
): Promise<{ orgId: number; slot: string; holder: string; expiresAt: string; finished: boolean }[]> {
  if (slots.length === 0) return [];
  const r = await db.execute({
    sql: `SELECT org_id, slot, holder, expires_at, finished_at FROM cycle_leases
          WHERE slot IN (${slots.map(() => "?").join(", ")})`,
    args: slots,
  });
  return r.rows.map((row) => ({
    orgId: Number(row.org_id),
    slot: String(row.slot),
    holder: String(row.holder),
    expiresAt: String(row.expires_at),
    finished: row.finished_at !== null,
  }));
}

/** Whether an unfinished lease expired in (`after`, `at`]: its holder died lately. */
export async function leaseExpiredBetween(db: Exec, after: string, at: string): Promise<boolean> {
  const r = await db.execute({
    sql: "SELECT 1 FROM cycle_leases WHERE finished_at IS NULL AND expires_at <= ? AND expires_at > ? LIMIT 1",
    args: [at, after],
  });
  return r.rows.length > 0;
}

/** Deletes the leases claimed before `before`. */
export async function deleteLeasesBefore(tx: Exec, before: string): Promise<void> {
  await tx.execute({ sql: "DELETE FROM cycle_leases WHERE claimed_at < ?", args: [before] });
}

/** The workspaces with a core competitor to check (research's sources or monitored pages): their plan and chosen
 * cadence (null: none chosen). */
export async function schedulableWorkspaces(
  db: Exec,
): Promise<{ orgId: number; plan: string; cadence: string | null }[]> {
  const r = await db.execute(
    `SELECT o.id, o.plan, w.cadence FROM orgs o LEFT JOIN workspace_settings w ON w.id = o.id
     WHERE EXISTS (SELECT 1 FROM competitors c WHERE c.org_id = o.id AND c.listed = 1 AND c.watch = 'core'
       AND (EXISTS (SELECT 1 FROM research_sources r WHERE r.competitor_id = c.id)
         OR EXISTS (SELECT 1 FROM monitored_pages m WHERE m.competitor_id = c.id)))
     ORDER BY o.id`,
  );
  return r.rows.map((row) => ({
    orgId: Number(row.id),
    plan: String(row.plan),
    cadence: row.cadence === null ? null : String(row.cadence),
  }));
}
