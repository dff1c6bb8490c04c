// What the tools and pages that report on cycles read: the plan and chosen cadence, the last finished cycle,
// the one running, and whether a schedule slot's cycle has finished.
import type { Exec } from "../client.ts";

/** The workspace's plan and chosen cadence (null: none chosen). */
export async function planAndCadence(
  db: Exec,
  orgId: number,
): Promise<{ plan: string | null; cadence: string | null } | undefined> {
  const r = await db.execute({
    sql: "SELECT o.plan, w.cadence FROM orgs o LEFT JOIN workspace_settings w ON w.id = o.id WHERE o.id = ?",
    args: [orgId],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    plan: row.plan === null ? null : String(row.plan),
    cadence: row.cadence ? String(row.cadence) : null,
  };
}

/** The workspace's last finished cycle, with its summary (JSON). */
export async function lastFinishedCycle(
  db: Exec,
  orgId: number,
): Promise<
  { id: number; trigger: string; startedAt: string; finishedAt: string; summary: string } | undefined
> {
  const r = await db.execute({
    sql: `SELECT id, trigger, started_at, finished_at, summary FROM cycles
          WHERE org_id = ? AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1`,
    args: [orgId],
  });
  const l = r.rows[0];
  if (!l) return undefined;
  return {
    id: Number(l.id),
    trigger: String(l.trigger),
    startedAt: String(l.started_at),
    finishedAt: String(l.finished_at),
    summary: String(l.summary ?? "{}"),
  };
}

/** When the workspace's running cycle started: one not finished, not abandoned, whose heartbeat holds at
 * `now` (a cycle whose heartbeat expired is dead, even before anything has marked it abandoned). */
export async function runningCycleStart(db: Exec, orgId: number, now: string): Promise<string | undefined> {
  const r = await db.execute({
    sql: `SELECT started_at FROM cycles WHERE org_id = ? AND finished_at IS NULL AND abandoned_at IS NULL
          AND expires_at > ? ORDER BY id DESC LIMIT 1`,
    args: [orgId, now],
  });
  return r.rows[0] ? String(r.rows[0].started_at) : undefined;
}

/** Whether the cycle of the workspace's schedule slot has finished. */
export async function slotFinished(db: Exec, orgId: number, slot: string): Promise<boolean> {
  const r = await db.execute({
    sql: "SELECT finished_at FROM cycle_leases WHERE org_id = ? AND slot = ?",
    args: [orgId, slot],
  });
  return !!r.rows[0]?.finished_at;
}
