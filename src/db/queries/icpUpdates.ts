// A workspace's ICP updates, as the daily cap of update_icp counts them.
import type { Exec } from "../client.ts";
import { countBetween } from "./datedCounts.ts";

/** Successful update_icp calls of one org in [start, end) (icp_updates_by_day index). */
export function icpUpdatesBetween(db: Exec, orgId: number, start: string, end: string): Promise<number> {
  return countBetween(db, "icp_updates", orgId, start, end);
}
