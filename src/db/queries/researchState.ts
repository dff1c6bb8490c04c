// Research runs and the competitors they read, as research's commands load them (the weekly allowance, a run,
// the core watchlist, the daily cap of positioning drafts).
import type { Exec } from "../client.ts";
import { countBetween } from "./datedCounts.ts";

/** Research calls (batches) since `since` that used the weekly allowance and did not wholly fail. */
export async function allowanceBatchesSince(db: Exec, orgId: number, since: string): Promise<number> {
  const r = await db.execute({
    sql: `SELECT COUNT(DISTINCT batch) AS n FROM research_runs
          WHERE org_id = ? AND uses_allowance = 1 AND started_at >= ? AND state != 'failed'`,
    args: [orgId, since],
  });
  return Number(r.rows[0].n);
}

/** A competitor's newest running research run, if any. */
export async function runningRunOf(db: Exec, competitorId: number): Promise<number | undefined> {
  const r = await db.execute({
    sql: "SELECT id FROM research_runs WHERE competitor_id = ? AND state = 'running' ORDER BY id DESC LIMIT 1",
    args: [competitorId],
  });
  return r.rows[0] ? Number(r.rows[0].id) : undefined;
}

/** The workspace's listed core competitors in the watchlist's order, as `competitors` rows. */
export async function coreCompetitorRows(db: Exec, orgId: number) {
  const r = await db.execute({
    sql: `SELECT id, key, name, website_url, watch, tracking, state FROM competitors
          WHERE org_id = ? AND listed = 1 AND watch = 'core' ORDER BY priority_sort, tracked_sort, id`,
    args: [orgId],
  });
  return r.rows as unknown as Record<string, unknown>[];
}

/** A research run by id. */
export async function researchRun(db: Exec, runId: number) {
  const r = await db.execute({
    sql: "SELECT id, org_id, competitor_id, state, first_brief FROM research_runs WHERE id = ?",
    args: [runId],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        org_id: Number(row.org_id),
        competitor_id: Number(row.competitor_id),
        state: String(row.state),
        first_brief: Number(row.first_brief) === 1,
      }
    : undefined;
}

/** The workspace's first-brief runs still running besides this one. */
export async function otherFirstBriefRunsRunning(db: Exec, orgId: number, runId: number): Promise<number> {
  const r = await db.execute({
    sql: "SELECT count(*) AS n FROM research_runs WHERE org_id = ? AND first_brief = 1 AND state = 'running' AND id != ?",
    args: [orgId, runId],
  });
  return Number(r.rows[0].n);
}

/** A competitor's stored record in a workspace, if it has it. */
export async function competitorRecordOf<R>(db: Exec, orgId: number, id: number): Promise<R | undefined> {
  const r = await db.execute({
    sql: "SELECT state FROM competitors WHERE id = ? AND org_id = ?",
    args: [id, orgId],
  });
  return r.rows[0] ? (JSON.parse(String(r.rows[0].state)) as R) : undefined;
}

/** Positioning drafts a workspace made in [start, end). */
export function positioningDraftsBetween(db: Exec, orgId: number, start: string, end: string) {
  return countBetween(db, "positioning_drafts", orgId, start, end);
}
