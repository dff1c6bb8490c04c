// Digests: when a finished cycle writes one (decideCycleDigests), and the event that records a digest the engine
// wrote (engine/digests/generate.ts composes it), replacing the period's earlier digest under the same id.
import type { EventPayloads, NewEvent } from "../../events/catalog.ts";
import { type DigestType, lastCompletePeriod, type Period, periodContaining } from "./digestPeriods.ts";
import { isMaterial } from "./materiality.ts";

export function decideDigestRecorded(orgId: number, d: EventPayloads["DigestRecorded"]): NewEvent {
  return { type: "DigestRecorded", orgId, streamType: "digest", streamId: String(d.id), data: d };
}

/** What a finished cycle's digest decision reads. */
export interface CycleDigestState {
  /** When the cycle finished. */
  finishedAt: string;
  orgCreatedAt: string;
  /** The cadence the workspace's cycles run at (plans.ts effectiveCadence). */
  cadence: string;
  /** The severities of the signals the cycle opened. */
  opened: (string | undefined)[];
  /** For each period of cyclePeriods(finishedAt), by slug: when its digest was written (absent: none yet) and
   * when the newest of its signals was first seen (absent: none). */
  stored: Record<string, { written_at?: string; newest_signal_at?: string }>;
}

export interface DigestDue {
  type: DigestType;
  /** The end of the period to write (generateDigest's `end`). */
  end: string;
  /** `period_ended`: the period is over and has no digest, or signals came after its digest was written;
   * `material_changes`: the cycle opened medium or high signals, so the current period's digest is written now. */
  because: "period_ended" | "material_changes";
}

/** The digest type that follows a cadence: a weekly workspace reads the week, every other one the day. */
export function digestTypeOf(cadence: string): DigestType {
  return cadence === "weekly" ? "weekly_tldr" : "daily_digest";
}

/** The periods a cycle that finished at `finishedAt` may write: the last complete day and week, and the current
 * period of each type (the loader reads what is stored for them). */
export function cyclePeriods(finishedAt: string): Period[] {
  const at = new Date(finishedAt);
  return (["daily_digest", "weekly_tldr"] as const).flatMap((t) => [
    lastCompletePeriod(t, at),
    periodContaining(t, at),
  ]);
}

/**
 * After a cycle: every period that ended since (a day, a week) gets its digest once it is over — written if it
 * has none, written again if signals were first seen after its digest was written — unless it ended before the
 * workspace existed or is a day without signals; and a cycle that opened a medium or high signal writes the current period's digest at once
 * (the day's, or the week's for a weekly cadence), so a material move never waits for the period to end.
 */
export function decideCycleDigests(st: CycleDigestState): DigestDue[] {
  const at = new Date(st.finishedAt);
  const created = Date.parse(st.orgCreatedAt);
  const due: DigestDue[] = [];
  for (const type of ["daily_digest", "weekly_tldr"] as const) {
    const p = lastCompletePeriod(type, at);
    if (p.end.getTime() <= created) continue;
    const s = st.stored[p.slug] ?? {};
    // A day without signals has no digest; a quiet week gets one that says so.
    if (type === "daily_digest" && s.newest_signal_at === undefined) continue;
    const stale =
      s.written_at === undefined || (s.newest_signal_at !== undefined && s.newest_signal_at > s.written_at);
    if (stale) due.push({ type, end: p.end.toISOString(), because: "period_ended" });
  }
  if (st.opened.some(isMaterial)) {
    const p = periodContaining(digestTypeOf(st.cadence), at);
    due.push({ type: p.type, end: p.end.toISOString(), because: "material_changes" });
  }
  return due;
}
