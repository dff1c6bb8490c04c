// The periods digests cover: a UTC day (`daily-YYYY-MM-DD`) or an ISO week (`weekly-YYYY-wWW`, Monday 00:00 UTC
// to the next Monday). `periodBefore` picks the period in which the instant just before `end` falls, so an
// `end` on a boundary names the period that just finished. Pure date arithmetic: deciders and the writer share it.
import { formatDay } from "./dates.ts";

export type DigestType = "daily_digest" | "weekly_tldr";
export const DIGEST_TYPES: readonly DigestType[] = ["daily_digest", "weekly_tldr"];

export interface Period {
  type: DigestType;
  start: Date;
  end: Date;
  slug: string;
  /** As a reader writes it: `22 Nov 2026`, `16–22 Nov 2026`. */
  label: string;
}

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, "0");
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const month = (d: Date) => d.toLocaleDateString("en-GB", { month: "short", timeZone: "UTC" });

/** A UTC day as people write it (dates.ts): `22 Nov 2026`. */
export const dayLabel = (d: Date): string => formatDay(d);

/** Two UTC days as a span, sharing what they share: `16–22 Nov 2026`, `30 Nov – 6 Dec 2026`. */
export function spanLabel(first: Date, last: Date): string {
  if (first.getUTCFullYear() !== last.getUTCFullYear()) return `${dayLabel(first)} – ${dayLabel(last)}`;
  if (first.getUTCMonth() !== last.getUTCMonth())
    return `${first.getUTCDate()} ${month(first)} – ${dayLabel(last)}`;
  return `${first.getUTCDate()}–${dayLabel(last)}`;
}

/** ISO 8601 week-numbering year and week of a UTC instant. */
export function isoWeek(d: Date): { year: number; week: number } {
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const thursday = new Date(day + (3 - weekday) * DAY);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY));
  return { year, week };
}

export function periodContaining(type: DigestType, at: Date): Period {
  const dayStart = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (type === "daily_digest") {
    const start = new Date(dayStart);
    return {
      type,
      start,
      end: new Date(dayStart + DAY),
      slug: `daily-${ymd(start)}`,
      label: dayLabel(start),
    };
  }
  const weekday = (new Date(dayStart).getUTCDay() + 6) % 7;
  const start = new Date(dayStart - weekday * DAY);
  const { year, week } = isoWeek(start);
  return {
    type,
    start,
    end: new Date(start.getTime() + 7 * DAY),
    slug: `weekly-${year}-w${pad(week)}`,
    label: spanLabel(start, new Date(start.getTime() + 6 * DAY)),
  };
}

/** The period in which the instant just before `end` falls: with `end` = now, the current (incomplete) period
 * unless now is exactly on a boundary; with the start of today, yesterday. */
export function periodBefore(type: DigestType, end: Date): Period {
  return periodContaining(type, new Date(end.getTime() - 1));
}

/** The last complete period at `now`. */
export function lastCompletePeriod(type: DigestType, now: Date): Period {
  return periodBefore(type, periodContaining(type, now).start);
}
