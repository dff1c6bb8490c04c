// A cycle's own record in the cycles table: the one place that writes it. The running instance keeps it outside the
// event log (start, heartbeat, end and summary; the rule — heartbeats, abandoning dead cycles, adopting one — is
// src/engine/cycle/record.ts), and projections/cycles.ts writes the same rows through these statements from the
// CycleStarted / CycleFinished events of logs written before that. Every statement runs in the writer's
// transaction the caller passes.
import type { Exec } from "./client.ts";

/** The open cycles (of one workspace, or all) whose heartbeat expired at `at`. */
export async function expiredOpenCycles(tx: Exec, at: string, orgId?: number): Promise<number[]> {
  const r = await tx.execute({
    sql: `SELECT id FROM cycles WHERE finished_at IS NULL AND abandoned_at IS NULL
            AND (expires_at IS NULL OR expires_at <= ?) ${orgId === undefined ? "" : "AND org_id = ?"}`,
    args: orgId === undefined ? [at] : [at, orgId],
  });
  return r.rows.map((row) => Number(row.id));
}

export async function markCyclesAbandoned(tx: Exec, ids: number[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute({
    sql: `UPDATE cycles SET abandoned_at = ? WHERE id IN (${ids.map(() => "?").join(", ")})`,
    args: [at, ...ids],
  });
}

/** A cycle's start. `holder` and `expiresAt` null: a cycle of an older log, replayed (a row already there is kept:
 * a rebuild does not empty the table). */
export async function insertCycle(
  tx: Exec,
  c: {
    id: number;
    orgId: number | null;
    trigger: string;
    slot: string | null;
    competitorId: number | null;
    startedAt: string;
    holder: string | null;
    expiresAt: string | null;
  },
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO cycles (id, org_id, trigger, slot, competitor_id, started_at, holder, expires_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    args: [c.id, c.orgId, c.trigger, c.slot, c.competitorId, c.startedAt, c.holder, c.expiresAt],
  });
}

/** Moves a running cycle's heartbeat on. */
export function renewCycle(tx: Exec, id: number, expiresAt: string) {
  return tx.execute({
    sql: "UPDATE cycles SET expires_at = ? WHERE id = ? AND finished_at IS NULL AND abandoned_at IS NULL",
    args: [expiresAt, id],
  });
}

/** Takes over the newest unfinished scheduled cycle of (workspace, slot) for `holder`: its id and start. */
export async function adoptScheduledCycle(
  tx: Exec,
  p: { orgId: number; slot: string; holder: string; expiresAt: string },
): Promise<{ id: number; startedAt: string } | undefined> {
  const r = await tx.execute({
    sql: `UPDATE cycles SET holder = ?, expires_at = ?, abandoned_at = NULL
          WHERE id = (SELECT id FROM cycles WHERE org_id = ? AND slot = ? AND trigger = 'schedule'
            AND finished_at IS NULL ORDER BY id DESC LIMIT 1)
          RETURNING id, started_at`,
    args: [p.holder, p.expiresAt, p.orgId, p.slot],
  });
  const row = r.rows[0];
  return row ? { id: Number(row.id), startedAt: String(row.started_at) } : undefined;
}

/** A cycle's end and its summary (JSON). */
export async function finishCycleRow(
  tx: Exec,
  id: number,
  finishedAt: string,
  summary: string,
): Promise<void> {
  await tx.execute({
    sql: "UPDATE cycles SET finished_at = ?, summary = ?, expires_at = NULL, abandoned_at = NULL WHERE id = ?",
    args: [finishedAt, summary, id],
  });
}
