// Sources on a host that many competitors share (a job board provider, GitHub's API, npm's registry, EDGAR …)
// are checked in rotation when the host cannot answer them all within the hour at one request at a time with
// the pause between two (docs/scale.md, "Hosts every competitor shares"). A host's sources over every
// workspace, counted from the snapshot store, against its hourly share (RIVALS_SHARED_HOST_HOURLY) give the
// hours between two checks of each; each source has its own turn among those hours, so every cycle checks an
// even share of them. A competitor's own site is never rotated, and with fewer sources on a host than its share
// (any deployment of a few hundred competitors) every source is checked every cycle.
import { sourcesOnHostSince } from "../../db/snapshots.ts";
import type { Services } from "../../services.ts";

const HOUR_MS = 3_600_000;
/** A rotated source is still checked at least once a day, whatever shares its host. */
export const MAX_ROTATION_HOURS = 24;
/** Sources checked within this long count as a host's demand (a rotated one is checked at least daily). */
const DEMAND_WINDOW_MS = 2 * 24 * HOUR_MS;
/** How long a host's count is reused before it is counted again. */
const COUNT_TTL_MS = 10 * 60_000;
const MAX_HOSTS_KEPT = 10_000;

/** The host a source is read from as the snapshot store's `host` column computes it (migration 0099): the URL's
 * authority, lower case. */
export function sourceHost(url: string): string {
  const rest = url.slice(url.indexOf("://") + 3);
  const end = rest.indexOf("/");
  return (end < 0 ? rest : rest.slice(0, end)).toLowerCase();
}

/** Hours between two checks of a source on a host with `sources` sources, at `perHour` checks an hour. */
export function rotationHours(sources: number, perHour: number): number {
  return Math.min(MAX_ROTATION_HOURS, Math.max(1, Math.ceil(sources / Math.max(1, perHour))));
}

/** Whether a source rotated every `every` hours is checked in the cycle that started at `cycleStart`: at its
 * turn (the hour its key falls on), or when it missed it (a cycle skipped or late, a cadence longer than the
 * hour, an interval that changed). A source never checked is always due: it needs its first snapshot. */
export function dueInCycle(key: string, every: number, cycleStart: number, lastChecked?: string): boolean {
  if (every <= 1 || lastChecked === undefined) return true;
  const hour = Math.floor(cycleStart / HOUR_MS);
  if ((hour + turnOf(key, every)) % every === 0) return true;
  return cycleStart - Date.parse(lastChecked) >= every * HOUR_MS;
}

function turnOf(key: string, every: number): number {
  return Bun.hash.crc32(key) % every;
}

/** The host most of a competitor's sources are on (its own site); the first source's on a tie. */
export function mainHost(urls: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  let best: string | undefined;
  for (const url of urls) {
    const h = sourceHost(url);
    const n = (counts.get(h) ?? 0) + 1;
    counts.set(h, n);
    if (best === undefined || n > (counts.get(best) ?? 0)) best = h;
  }
  return best;
}

/** Hours between two checks of the sources on each host, counted at most every ten minutes per host. */
class HostIntervals {
  private known = new Map<string, { every: number; at: number }>();

  constructor(private s: Services) {}

  async every(host: string): Promise<number> {
    const now = this.s.clock().getTime();
    const had = this.known.get(host);
    if (had && now - had.at < COUNT_TTL_MS && now >= had.at) return had.every;
    const n = await sourcesOnHostSince(this.s.database, host, new Date(now - DEMAND_WINDOW_MS).toISOString());
    const every = rotationHours(n, this.s.config.sharedHostHourly);
    if (this.known.size >= MAX_HOSTS_KEPT) this.known.clear();
    this.known.set(host, { every, at: now });
    return every;
  }
}

const intervals = new WeakMap<Services, HostIntervals>();

/** The hours between two checks of a source on `host` (1: every cycle). */
export function hostInterval(s: Services, host: string): Promise<number> {
  let h = intervals.get(s);
  if (!h) {
    h = new HostIntervals(s);
    intervals.set(s, h);
  }
  return h.every(host);
}
