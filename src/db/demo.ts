// The demo's one row (demo_sites: the embedded sites' version, the last advance, a queued one) and what the
// demo page and its start-up read of the workspace.
import type { Exec } from "./client.ts";

export interface DemoSitesRow {
  version: number;
  advancedAt: string | null;
  advanceQueuedAt: string | null;
}

/** The demo sites' row (undefined before the first advance). */
export async function demoSitesRow(db: Exec): Promise<DemoSitesRow | undefined> {
  const r = await db.execute({
    sql: "SELECT version, advanced_at, advance_queued_at FROM demo_sites WHERE id = 1",
    args: [],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    version: Number(row.version),
    advancedAt: row.advanced_at ? String(row.advanced_at) : null,
    advanceQueuedAt: row.advance_queued_at ? String(row.advance_queued_at) : null,
  };
}

/** Sets the sites' version, advanced at `at`, which applies any queued advance. */
export async function setDemoSitesVersion(tx: Exec, version: number, at: string): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO demo_sites (id, version, advanced_at) VALUES (1, ?, ?)
          ON CONFLICT (id) DO UPDATE SET version = excluded.version, advanced_at = excluded.advanced_at,
            advance_queued_at = NULL`,
    args: [version, at],
  });
}

/** Queues one advance at `at`, unless one is queued already. */
export async function queueDemoSitesAdvance(tx: Exec, at: string) {
  return tx.execute({
    sql: `INSERT INTO demo_sites (id, version, advance_queued_at) VALUES (1, 1, ?)
          ON CONFLICT (id) DO UPDATE SET advance_queued_at = COALESCE(demo_sites.advance_queued_at, excluded.advance_queued_at)`,
    args: [at],
  });
}

/** The names of the workspace's competitors whose research is running (at most 20). */
export async function researchingNames(db: Exec, orgId: number): Promise<string[]> {
  const r = await db.execute({
    sql: `SELECT c.name FROM research_runs r JOIN competitors c ON c.id = r.competitor_id
          WHERE r.state = 'running' AND r.org_id = ? ORDER BY r.id LIMIT 20`,
    args: [orgId],
  });
  return r.rows.map((row) => String(row.name));
}

/** The workspace's listed core competitors: id, site and record (JSON). */
export async function coreCompetitors(
  db: Exec,
  orgId: number,
): Promise<{ id: number; websiteUrl: string; state: string }[]> {
  const r = await db.execute({
    sql: "SELECT id, website_url, state FROM competitors WHERE org_id = ? AND listed = 1 AND watch = 'core'",
    args: [orgId],
  });
  return r.rows.map((row) => ({
    id: Number(row.id),
    websiteUrl: String(row.website_url),
    state: String(row.state ?? "{}"),
  }));
}

/** The workspace's cycles that started at or after `since` and have ended (the newest 500), and the signals
 * they created. */
export async function endedCyclesSince(
  db: Exec,
  orgId: number,
  since: string,
): Promise<{ cycles: number; signalsCreated: number }> {
  const r = await db.execute({
    sql: `SELECT COUNT(*) AS n, COALESCE(SUM(json_extract(summary, '$.signals_created')), 0) AS created
          FROM (SELECT summary FROM cycles WHERE org_id = ? AND started_at >= ? AND finished_at IS NOT NULL
                ORDER BY id DESC LIMIT 500)`,
    args: [orgId, since],
  });
  return { cycles: Number(r.rows[0]?.n ?? 0), signalsCreated: Number(r.rows[0]?.created ?? 0) };
}
