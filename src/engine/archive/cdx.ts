// The Internet Archive's Wayback CDX index and capture addresses (docs/engine/archive.md).
// The index answers output=json with an array of rows whose first row names the fields (urlkey, timestamp,
// original, mimetype, statuscode, digest, length — or those asked for with `fl`), an empty array when nothing
// was captured. Timestamps are UTC, YYYYMMDDhhmmss.

export const ARCHIVE_ORIGIN = "https://web.archive.org";

export interface Capture {
  /** YYYYMMDDhhmmss (UTC). */
  timestamp: string;
  /** The URL as the archive captured it. */
  original: string;
  mimetype: string;
}

const TIMESTAMP = /^\d{14}$/;

const day = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, "");

/** The index query of one page: captures that answered 200, one per distinct content, between `from` and `to`. */
export function cdxUrl(url: string, from: Date, to: Date): string {
  const q = new URLSearchParams({
    url,
    output: "json",
    fl: "timestamp,original,mimetype,statuscode,digest",
    filter: "statuscode:200",
    collapse: "digest",
    from: day(from),
    to: day(to),
  });
  return `${ARCHIVE_ORIGIN}/cdx/search/cdx?${q}`;
}

/** The capture's bytes as the site served them (`id_`: no archive toolbar, links left as they were). */
export const rawCaptureUrl = (timestamp: string, url: string) =>
  `${ARCHIVE_ORIGIN}/web/${timestamp}id_/${url}`;

/** The capture as a reader opens it: what a signal's evidence points at. */
export const captureUrl = (timestamp: string, url: string) => `${ARCHIVE_ORIGIN}/web/${timestamp}/${url}`;

/** A capture timestamp as an instant. */
export function captureTime(timestamp: string): Date {
  const t = timestamp;
  return new Date(
    Date.UTC(
      +t.slice(0, 4),
      +t.slice(4, 6) - 1,
      +t.slice(6, 8),
      +t.slice(8, 10),
      +t.slice(10, 12),
      +t.slice(12, 14),
    ),
  );
}

/** The rows of a CDX JSON answer; throws on an answer that is not one (a maintenance page, a truncated body). */
export function parseCdx(text: string): Capture[] {
  const rows = JSON.parse(text.trim() || "[]") as unknown;
  if (!Array.isArray(rows)) throw new Error("the index did not answer with a list");
  if (rows.length === 0) return [];
  const head = rows[0];
  if (!Array.isArray(head)) throw new Error("the index answer has no field names");
  const col = (name: string) => head.indexOf(name);
  const [ts, orig, mime, status] = [col("timestamp"), col("original"), col("mimetype"), col("statuscode")];
  if (ts < 0 || orig < 0) throw new Error("the index answer lacks timestamp or original");
  const out: Capture[] = [];
  for (const row of rows.slice(1)) {
    if (!Array.isArray(row)) continue;
    const timestamp = String(row[ts] ?? "");
    if (!TIMESTAMP.test(timestamp)) continue;
    if (status >= 0 && String(row[status]) !== "200") continue;
    out.push({ timestamp, original: String(row[orig]), mimetype: mime >= 0 ? String(row[mime]) : "" });
  }
  return out;
}

/** At most one capture per calendar month (the month's first), HTML only, oldest first. */
export function monthly(captures: Capture[]): Capture[] {
  const byMonth = new Map<string, Capture>();
  for (const c of [...captures].sort((a, b) => (a.timestamp < b.timestamp ? -1 : 1))) {
    if (c.mimetype && !/html/i.test(c.mimetype)) continue;
    const month = c.timestamp.slice(0, 6);
    if (!byMonth.has(month)) byMonth.set(month, c);
  }
  return [...byMonth.values()];
}
