// What a workspace's monitoring looks like now, for the tools and pages that report on cycles (what_changed,
// get_delivery_settings, get_plan_and_limits): the effective cadence, the last finished cycle with its summary's
// counts, the one running, and when the next scheduled cycle is due.
import {
  lastFinishedCycle,
  planAndCadence,
  runningCycleStart,
  slotFinished,
} from "../../db/queries/cycles.ts";
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
    pages_due_later?: number;
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
  "pages_due_later",
  "signals_created",
  "signals_updated",
  "signals_closed",
] as const;

export async function cycleStatus(s: Services, orgId: number, now: Date = s.clock()): Promise<CycleStatus> {
  const [settings, l, runningSince] = await Promise.all([
    planAndCadence(s.database, orgId),
    lastFinishedCycle(s.database, orgId),
    runningCycleStart(s.database, orgId, now.toISOString()),
  ]);
  const plan = planOf(settings?.plan ?? "free");
  const cadence = effectiveCadence(plan, settings?.cadence ?? null);
  const out: CycleStatus = { cadence, scheduler: s.config.scheduler ? "on" : "off" };
  if (l) {
    const sum = JSON.parse(l.summary) as Record<string, unknown>;
    const last: NonNullable<CycleStatus["last_cycle"]> = {
      id: l.id,
      trigger: l.trigger,
      started_at: l.startedAt,
      finished_at: l.finishedAt,
    };
    for (const k of COUNTS) if (typeof sum[k] === "number") last[k] = sum[k];
    out.last_cycle = last;
  }
  if (runningSince) out.running_since = runningSince;
  if (s.config.scheduler) {
    const slot = slotOf(cadence, now);
    const finished = await slotFinished(s.database, orgId, slot.key);
    const jitter = jitterOf(orgId, slot.periodMs, s.config.schedulerJitterMs);
    // The current slot's cycle when it has not run (at once if its time has passed), else the next slot's.
    const due = finished
      ? slot.start.getTime() + slot.periodMs + jitter
      : Math.max(slot.start.getTime() + jitter, now.getTime());
    out.next_cycle_due_at = new Date(due).toISOString();
  }
  return out;
}
