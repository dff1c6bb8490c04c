// How a time is written for a person, on every page and in every text (signal pages, digests, battlecards,
// emails): "20 Nov 2026, 12:00 UTC", or the day alone, "20 Nov 2026". Machine forms (ISO 8601) stay in
// attributes, the API and exports.

function parsed(ts: unknown): Date | undefined {
  if (ts instanceof Date) return Number.isNaN(ts.getTime()) ? undefined : ts;
  if (typeof ts !== "string" || !ts) return undefined;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** `2026-11-20T12:00:00Z` → `20 Nov 2026`. Not a time: "" (a string is returned as it is). */
export function formatDay(ts: unknown): string {
  const d = parsed(ts);
  if (!d) return typeof ts === "string" ? ts : "";
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

/** `2026-11-20T12:00:00Z` → `20 Nov 2026, 12:00 UTC` (midnight, or a date alone: `20 Nov 2026`). */
export function formatTime(ts: unknown): string {
  const d = parsed(ts);
  if (!d) return typeof ts === "string" ? ts : "";
  const date = formatDay(d);
  if (d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0) return date;
  const time = d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return `${date}, ${time} UTC`;
}

const ISO_TIME = /\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d:])/g;
const MONTH =
  "(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?";
// "Nov 19, 2026", "November 19 2026"; "19 November 2026".
const MONTH_FIRST = new RegExp(`\\b${MONTH} (\\d{1,2}),? (\\d{4})\\b`, "g");
const DAY_FIRST = new RegExp(`\\b(\\d{1,2}) ${MONTH},? (\\d{4})\\b`, "g");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A day named by its parts as people write it, or the words as they were when they name no day. */
function day(words: string, d: string, month: string, y: string): string {
  const m = MONTHS.indexOf(month.slice(0, 3));
  const date = new Date(Date.UTC(Number(y), m, Number(d)));
  return date.getUTCMonth() === m && date.getUTCDate() === Number(d) ? formatDay(date) : words;
}

/** Times inside a text written as people write them, in one style: ISO timestamps ("seen
 * 2026-11-27T12:00:37.867Z" → "seen 27 Nov 2026, 12:00 UTC"; a bare ISO date → "27 Nov 2026") and dates with
 * the month in words ("Nov 19, 2026", "November 19, 2026" → "19 Nov 2026"). */
export function humanTimes(text: string): string {
  return text
    .replace(ISO_TIME, (m) => (m.length === 10 ? formatDay(`${m}T00:00:00Z`) : formatTime(m)))
    .replace(MONTH_FIRST, (w, month: string, d: string, y: string) => day(w, d, month, y))
    .replace(DAY_FIRST, (w, d: string, month: string, y: string) => day(w, d, month, y));
}
