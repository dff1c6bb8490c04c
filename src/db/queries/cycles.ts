// Cycles: what a cycle reads of a workspace (its core competitors in order, a competitor's sources) and what the
// tools and pages that report on cycles read (the plan and chosen cadence, the last finished cycle, the one
// running, whether a schedule slot's cycle has finished).
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

/** The workspace's core competitors in the cycle's order (priority, then as tracked), or the one asked for:
 * id, name and record (JSON). */
export async function cycleCompetitors(
  db: Exec,
  orgId: number,
  competitorId?: number,
): Promise<{ id: number; name: string; state: string }[]> {
  const r = await db.execute({
    sql: `SELECT id, name, state FROM competitors WHERE org_id = ? AND listed = 1 AND watch = 'core'
          ${competitorId !== undefined ? "AND id = ?" : ""} ORDER BY priority_sort, tracked_sort, id`,
    args: competitorId !== undefined ? [orgId, competitorId] : [orgId],
  });
  return r.rows.map((row) => ({ id: Number(row.id), name: String(row.name), state: String(row.state) }));
}

/** A competitor's sources: research's (url, source kind, in the order research listed them) and its monitored
 * pages (url, whether a browser renders it). */
export async function competitorSourceRows(
  db: Exec,
  orgId: number,
  competitorId: number,
): Promise<{ research: { url: string; kind: string }[]; monitored: { url: string; render: boolean }[] }> {
  const [research, monitored] = await Promise.all([
    db.execute({
      sql: "SELECT url, kind FROM research_sources WHERE org_id = ? AND competitor_id = ? ORDER BY rowid",
      args: [orgId, competitorId],
    }),
    db.execute({
      sql: "SELECT url, render FROM monitored_pages WHERE org_id = ? AND competitor_id = ? ORDER BY id",
      args: [orgId, competitorId],
    }),
  ]);
  return {
    research: research.rows.map((r) => ({ url: String(r.url), kind: String(r.kind) })),
    monitored: monitored.rows.map((r) => ({ url: String(r.url), render: Number(r.render) === 1 })),
  };
}
