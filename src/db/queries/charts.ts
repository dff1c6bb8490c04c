// What the competitor page's charts and a signal's change read: the recorded before/after of an engine signal,
// listed signals counted per week and severity, and the newest pricing signals.
import type { Exec } from "../client.ts";

/** The recorded before/after values of an engine signal (undefined for imported signals). */
export async function signalValues(
  db: Exec,
  orgId: number,
  signalId: number,
): Promise<{ before: string | null; after: string | null } | undefined> {
  const r = await db.execute({
    sql: "SELECT value_before, value_after FROM engine_signals WHERE org_id = ? AND id = ?",
    args: [orgId, signalId],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    before: row.value_before === null ? null : String(row.value_before),
    after: row.value_after === null ? null : String(row.value_after),
  };
}

/** Listed signals of one competitor first seen since `start`, counted by severity and week (0 = the week of
 * `start`). One range read of the (org_id, competitor_id, first_seen_at) index, grouped in SQL. */
export async function signalCountsByWeek(
  db: Exec,
  orgId: number,
  competitorId: number,
  start: Date,
): Promise<{ severity: string; week: number; count: number }[]> {
  const r = await db.execute({
    sql: `SELECT severity, CAST((julianday(first_seen_at) - julianday(?)) / 7 AS INTEGER) AS w, COUNT(*) AS n
          FROM signals INDEXED BY signals_by_competitor
          WHERE org_id = ? AND competitor_id = ? AND listed = 1 AND first_seen_at >= ?
          GROUP BY severity, w`,
    args: [start.toISOString(), orgId, competitorId, start.toISOString()],
  });
  return r.rows.map((row) => ({ severity: String(row.severity), week: Number(row.w), count: Number(row.n) }));
}

/** The competitor's newest 20 pricing signals, open and closed, engine and imported (signals_of_competitor). */
export async function pricingSignals(
  db: Exec,
  orgId: number,
  competitorId: number,
): Promise<{ at: string; title: string }[]> {
  const r = await db.execute({
    sql: `SELECT title, first_seen_at AS at FROM signals
          WHERE competitor_id = ? AND org_id = ? AND visible = 1 AND first_seen_at IS NOT NULL
            AND json_extract(doc, '$.category') = 'pricing'
          ORDER BY first_seen_at DESC, id DESC LIMIT 20`,
    args: [competitorId, orgId],
  });
  return r.rows.map((row) => ({ at: String(row.at), title: String(row.title) }));
}
