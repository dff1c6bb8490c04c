// A workspace's ICP updates, as the daily cap of update_icp counts them.
import type { Exec } from "../client.ts";

/** Successful update_icp calls of one org in [start, end) (icp_updates_by_day index). */
export async function icpUpdatesBetween(
  db: Exec,
  orgId: number,
  start: string,
  end: string,
): Promise<number> {
  const r = await db.execute({
    sql: "SELECT count(*) AS n FROM icp_updates WHERE org_id = ? AND updated_at >= ? AND updated_at < ?",
    args: [orgId, start, end],
  });
  return Number(r.rows[0].n);
}
