// A cycle's own record (the cycles table), kept outside the event log: an unchanged cycle appends only one
// CompetitorChecked per competitor (docs/decisions.md); what a cycle found is in the log (signals,
// CompetitorChecked with its cycle_id, digests, DeliveryQueued), its start, heartbeat and summary are the
// running instance's bookkeeping, like the scheduler's lease (docs/engine/cycles.md). Logs written before
// this still carry CycleStarted / CycleFinished, which projections/cycles.ts turns into the same rows.  A
// running cycle moves its heartbeat (`expires_at`) on; one whose process died stops doing so, and once the
// heartbeat has expired the next cycle of the workspace (or the scheduler's check) marks it abandoned, so the
// status never shows a dead cycle as running.
import type { Tx } from "../../../events/store.ts";
import {
  adoptScheduledCycle,
  expiredOpenCycles,
  finishCycleRow,
  insertCycle,
  markCyclesAbandoned,
  renewCycle,
} from "../../db/cycleRecords.ts";
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
  const ids = await expiredOpenCycles(tx, at, orgId);
  await markCyclesAbandoned(later, ids, at);
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
    await insertCycle(later, {
      id,
      orgId,
      trigger: opts.trigger,
      slot: opts.slot ?? null,
      competitorId: opts.competitorId ?? null,
      startedAt,
      holder,
      expiresAt: until(now),
    });
    return { id, startedAt, abandoned };
  });
  return { ...opened, stop: keepAlive(s, opened.id).stop };
}

function keepAlive(s: Services, id: number): { stop(): void } {
  return heartbeat(Math.floor(HEARTBEAT_MS / 3), `cycle ${id}`, () =>
    s.store.writeTables(({ later, now }) => renewCycle(later, id, until(now))),
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
    const row = await adoptScheduledCycle(tx, { orgId, slot, holder, expiresAt: until(now) });
    return row ? { ...row, abandoned: [] } : null;
  });
  if (!adopted) return null;
  return { ...adopted, stop: keepAlive(s, adopted.id).stop };
}

/** Records the cycle's end and its summary (`finished_at` is set to the commit's time). */
export async function finishCycle(s: Services, id: number, summary: CycleSummary): Promise<void> {
  await s.store.writeTables(async ({ later, now }) => {
    summary.finished_at = now.toISOString();
    await finishCycleRow(later, id, summary.finished_at, JSON.stringify(summary));
  });
}
