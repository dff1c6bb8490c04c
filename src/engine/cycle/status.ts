// What a workspace's monitoring looks like now, for the tools and pages that report on cycles (what_changed,
// get_delivery_settings, get_plan_and_limits): the effective cadence, the last finished cycle with its summary's
// counts, the one running, and when the next scheduled cycle is due.
import { effectiveCadence, planOf } from "../../domain/plans.ts";
import type { Services } from "../../services.ts";
import { jitterOf, slotOf } from "../schedule/slots.ts";

export interface CycleStatus {
  cadence: string;
  scheduler: "on" | "off";
  last_cycle?: {
    id: number;
    trigger: string;
    started_at: string;
    finished_at: string;
    pages_checked?: number;
    pages_changed?: number;
    pages_failed?: number;
    signals_created?: number;
    signals_updated?: number;
    signals_closed?: number;
  };
  running_since?: string;
  /** When the scheduler runs the next cycle (the current slot's, if it has not run yet). */
  next_cycle_due_at?: string;
}

/** The counts of a cycle's summary that the status repeats. */
const COUNTS = [
  "pages_checked",
  "pages_changed",
  "pages_failed",
  "signals_created",
  "signals_updated",
  "signals_closed",
] as const;

export async function cycleStatus(s: Services, orgId: number, now: Date = s.clock()): Promise<CycleStatus> {
  const c = s.database.client;
  const [settings, last, running] = await Promise.all([
    c.execute({
      sql: "SELECT o.plan, w.cadence FROM orgs o LEFT JOIN workspace_settings w ON w.id = o.id WHERE o.id = ?",
      args: [orgId],
    }),
    c.execute({
      sql: `SELECT id, trigger, started_at, finished_at, summary FROM cycles
            WHERE org_id = ? AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1`,
      args: [orgId],
    }),
    c.execute({
      // A cycle whose heartbeat expired is dead (record.ts), even before anything has marked it abandoned.
      sql: `SELECT started_at FROM cycles WHERE org_id = ? AND finished_at IS NULL AND abandoned_at IS NULL
            AND expires_at > ? ORDER BY id DESC LIMIT 1`,
      args: [orgId, now.toISOString()],
    }),
  ]);
  const row = settings.rows[0];
  const plan = planOf(String(row?.plan ?? "free"));
  const cadence = effectiveCadence(plan, row?.cadence ? String(row.cadence) : null);
  const out: CycleStatus = { cadence, scheduler: s.config.scheduler ? "on" : "off" };
  const l = last.rows[0];
  if (l) {
    const sum = JSON.parse(String(l.summary ?? "{}")) as Record<string, unknown>;
    const last: NonNullable<CycleStatus["last_cycle"]> = {
      id: Number(l.id),
      trigger: String(l.trigger),
      started_at: String(l.started_at),
      finished_at: String(l.finished_at),
    };
    for (const k of COUNTS) if (typeof sum[k] === "number") last[k] = sum[k];
    out.last_cycle = last;
  }
  if (running.rows[0]) out.running_since = String(running.rows[0].started_at);
  if (s.config.scheduler) {
    const slot = slotOf(cadence, now);
    const lease = await c.execute({
      sql: "SELECT finished_at FROM cycle_leases WHERE org_id = ? AND slot = ?",
      args: [orgId, slot.key],
    });
    const jitter = jitterOf(orgId, slot.periodMs, s.config.schedulerJitterMs);
    // The current slot's cycle when it has not run (at once if its time has passed), else the next slot's.
    const due = lease.rows[0]?.finished_at
      ? slot.start.getTime() + slot.periodMs + jitter
      : Math.max(slot.start.getTime() + jitter, now.getTime());
    out.next_cycle_due_at = new Date(due).toISOString();
  }
  return out;
}
