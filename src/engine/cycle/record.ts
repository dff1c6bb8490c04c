// A cycle's own record (the cycles table), kept outside the event log: an unchanged cycle appends only one
// CompetitorChecked per competitor (docs/decisions.md); what a cycle found is in the log (signals,
// CompetitorChecked with its cycle_id, digests, DeliveryQueued), its start, heartbeat and summary are the
// running instance's bookkeeping, like the scheduler's lease (docs/engine/cycles.md). Logs written before
// this still carry CycleStarted / CycleFinished, which projections/cycles.ts turns into the same rows.  A
// running cycle moves its heartbeat (`expires_at`) on; one whose process died stops doing so, and once the
// heartbeat has expired the next cycle of the workspace (or the scheduler's check) marks it abandoned, so the
// status never shows a dead cycle as running.
import type { Tx } from "../../../events/store.ts";
import type { Services } from "../../services.ts";
import { heartbeat, instanceOf } from "../instance.ts";
import type { CycleSummary, CycleTrigger } from "./types.ts";

/** How long a cycle's heartbeat lasts; it is renewed every third of it. */
export const HEARTBEAT_MS = 120_000;

const until = (now: Date) => new Date(now.getTime() + HEARTBEAT_MS).toISOString();

/** Marks abandoned the open cycles (of one workspace, or all) whose heartbeat expired. Returns their ids. */
async function abandonIn(tx: Tx, later: Tx, now: Date, orgId?: number): Promise<number[]> {
  const at = now.toISOString();
  // Read, then marked by id: the write waits for the writer's one request (events/group.ts), which checks the
  // read again first.
  const r = await tx.execute({
    sql: `SELECT id FROM cycles WHERE finished_at IS NULL AND abandoned_at IS NULL
            AND (expires_at IS NULL OR expires_at <= ?) ${orgId === undefined ? "" : "AND org_id = ?"}`,
    args: orgId === undefined ? [at] : [at, orgId],
  });
  const ids = r.rows.map((row) => Number(row.id));
  if (ids.length > 0)
    await later.execute({
      sql: `UPDATE cycles SET abandoned_at = ? WHERE id IN (${ids.map(() => "?").join(", ")})`,
      args: [at, ...ids],
    });
  return ids;
}

export function abandonExpiredCycles(s: Services, orgId?: number): Promise<number[]> {
  return s.store.writeTables(({ tx, later, now }) => abandonIn(tx, later, now, orgId));
}

export interface OpenedCycle {
  id: number;
  startedAt: string;
  /** Cycles of this workspace found dead and marked abandoned before this one started. */
  abandoned: number[];
}

/** Starts a cycle's record (after closing the workspace's dead ones) and keeps its heartbeat until `stop()`. */
export async function openCycle(
  s: Services,
  orgId: number,
  opts: { trigger: CycleTrigger; slot?: string; competitorId?: number },
): Promise<OpenedCycle & { stop(): void }> {
  const holder = instanceOf(s);
  const opened = await s.store.writeTables(async ({ tx, later, now, nextId }) => {
    const abandoned = await abandonIn(tx, later, now, orgId);
    const id = await nextId();
    const startedAt = now.toISOString();
    await later.execute({
      sql: `INSERT INTO cycles (id, org_id, trigger, slot, competitor_id, started_at, holder, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        id,
        orgId,
        opts.trigger,
        opts.slot ?? null,
        opts.competitorId ?? null,
        startedAt,
        holder,
        until(now),
      ],
    });
    return { id, startedAt, abandoned };
  });
  return { ...opened, stop: keepAlive(s, opened.id).stop };
}

function keepAlive(s: Services, id: number): { stop(): void } {
  return heartbeat(Math.floor(HEARTBEAT_MS / 3), `cycle ${id}`, () =>
    s.store.writeTables(({ later, now }) =>
      later.execute({
        sql: "UPDATE cycles SET expires_at = ? WHERE id = ? AND finished_at IS NULL AND abandoned_at IS NULL",
        args: [until(now), id],
      }),
    ),
  );
}

/** Takes over the unfinished scheduled cycle of (workspace, slot) whose instance died (schedule/shares.ts: the
 * competitors it checked stay checked) and keeps its heartbeat; null when there is none. */
export async function adoptCycle(
  s: Services,
  orgId: number,
  slot: string,
): Promise<(OpenedCycle & { stop(): void }) | null> {
  const holder = instanceOf(s);
  const adopted = await s.store.writeTables(async ({ tx, now }) => {
    const r = await tx.execute({
      sql: `UPDATE cycles SET holder = ?, expires_at = ?, abandoned_at = NULL
            WHERE id = (SELECT id FROM cycles WHERE org_id = ? AND slot = ? AND trigger = 'schedule'
              AND finished_at IS NULL ORDER BY id DESC LIMIT 1)
            RETURNING id, started_at`,
      args: [holder, until(now), orgId, slot],
    });
    const row = r.rows[0];
    return row ? { id: Number(row.id), startedAt: String(row.started_at), abandoned: [] } : null;
  });
  if (!adopted) return null;
  return { ...adopted, stop: keepAlive(s, adopted.id).stop };
}

/** Records the cycle's end and its summary (`finished_at` is set to the commit's time). */
export async function finishCycle(s: Services, id: number, summary: CycleSummary): Promise<void> {
  await s.store.writeTables(async ({ later, now }) => {
    summary.finished_at = now.toISOString();
    await later.execute({
      sql: "UPDATE cycles SET finished_at = ?, summary = ?, expires_at = NULL, abandoned_at = NULL WHERE id = ?",
      args: [summary.finished_at, JSON.stringify(summary), id],
    });
  });
}
