// Due slots of the monitoring cadences (set_monitoring_cadence), in UTC: hourly (each hour), twice_daily (00:00
// and 12:00), daily (00:00), weekly (Monday 00:00, the ISO week). A workspace's cycle is due once per slot, at
// the slot's start plus the workspace's jitter; a slot missed while no instance ran is run once when one starts.

const HOUR = 3_600_000;
export const PERIOD_MS: Record<string, number> = {
  hourly: HOUR,
  twice_daily: 12 * HOUR,
  daily: 24 * HOUR,
  weekly: 7 * 24 * HOUR,
};

/** The slot of `cadence` that holds `now`: its start and its key (`cadence@ISO start`). */
export function slotOf(cadence: string, now: Date): { start: Date; key: string; periodMs: number } {
  const periodMs = PERIOD_MS[cadence] ?? PERIOD_MS.weekly;
  const name = PERIOD_MS[cadence] ? cadence : "weekly";
  const t = now.getTime();
  let start: number;
  if (name === "weekly") {
    // 1970-01-05 was a Monday.
    const monday = Date.UTC(1970, 0, 5);
    start = monday + Math.floor((t - monday) / periodMs) * periodMs;
  } else start = Math.floor(t / periodMs) * periodMs;
  const s = new Date(start);
  return { start: s, key: `${name}@${s.toISOString()}`, periodMs };
}

/** A workspace's fixed offset into each slot (spreads workspaces over time): up to `maxMs`, at most a tenth of
 * the period. Stable across instances and restarts. */
export function jitterOf(orgId: number, periodMs: number, maxMs: number): number {
  const cap = Math.min(maxMs, Math.floor(periodMs / 10));
  if (cap <= 0) return 0;
  const h = Number(Bun.hash(`rivals-cycle-${orgId}`) % BigInt(cap));
  return h;
}
