// How many of a workspace's dated bookkeeping rows fall in [start, end): the daily caps count generated cards, ICP
// updates and positioning drafts (each by its (org_id, time) index), and a quiet week's digest counts the finished
// cycles (within the workspace's rows, its org_id index).
import type { Exec } from "../client.ts";

/** The dated tables and the column each is counted by. */
const DATED = {
  battlecard_generations: "generated_at",
  icp_updates: "updated_at",
  positioning_drafts: "drafted_at",
  cycles: "finished_at",
} as const;

export async function countBetween(
  db: Exec,
  table: keyof typeof DATED,
  orgId: number,
  start: string,
  end: string,
): Promise<number> {
  const at = DATED[table];
  const r = await db.execute({
    sql: `SELECT count(*) AS n FROM ${table} WHERE org_id = ? AND ${at} >= ? AND ${at} < ?`,
    args: [orgId, start, end],
  });
  return Number(r.rows[0].n);
}
