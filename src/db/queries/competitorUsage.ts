// What a workspace has of its competitors: the counts its plan limits, and whether an id is one of them.
import type { Exec } from "../client.ts";

/** Competitors the workspace actively tracks, core and horizon (served by the org's competitor index). */
export async function trackedCompetitorCount(db: Exec, orgId: number): Promise<number> {
  const r = await db.execute({
    sql: "SELECT count(*) AS n FROM competitors WHERE org_id = ? AND tracking = 'active'",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}

/** Core competitors that hold a slot: the actively tracked core ones (the same count add_competitor's slot check
 * uses). */
export async function coreSlotsUsed(db: Exec, orgId: number): Promise<number> {
  const r = await db.execute({
    sql: "SELECT count(*) AS n FROM competitors WHERE org_id = ? AND tracking = 'active' AND watch = 'core'",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}

/** Whether a workspace has a competitor with this id. */
export async function competitorExists(db: Exec, orgId: number, id: number): Promise<boolean> {
  const r = await db.execute({
    sql: "SELECT 1 FROM competitors WHERE id = ? AND org_id = ?",
    args: [id, orgId],
  });
  return !!r.rows[0];
}

/** The competitors a workspace lists (actively tracked), in the watchlist's order, with their records. */
export async function listedCompetitorRecords<R>(
  db: Exec,
  orgId: number,
): Promise<{ id: number; name: string; record: R }[]> {
  const r = await db.execute({
    sql: `SELECT id, name, state FROM competitors WHERE org_id = ? AND listed = 1
          ORDER BY priority_sort, tracked_sort, id`,
    args: [orgId],
  });
  return r.rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    record: JSON.parse(String(row.state)) as R,
  }));
}
