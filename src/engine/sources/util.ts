/** Small helpers shared by the source readers. Pure, no I/O. */
import type { Job } from "./jobBoards.ts";

/** A stable, short, non-cryptographic hash (FNV-1a, 32 bit, base 36): ids for items that carry none. */
export function stableHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** `value` resolved against `base` as an absolute http(s) URL without its fragment, or undefined. */
export function absoluteHttpUrl(value: unknown, base?: string): string | undefined {
  if (typeof value !== "string") return undefined;
  const raw = value.trim();
  if (!raw || raw.length > 4096) return undefined;
  try {
    const u = base ? new URL(raw, base) : new URL(raw);
    if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
    u.hash = "";
    return u.toString();
  } catch {
    return undefined;
  }
}

/** An ISO 8601 timestamp for a date string or epoch milliseconds, or undefined when it is not a date. */
export function isoDate(value: unknown): string | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  if (typeof value !== "string") return undefined;
  const s = value.trim();
  if (!s || s.length > 100) return undefined;
  const t = Date.parse(s);
  if (Number.isNaN(t)) return undefined;
  const d = new Date(t);
  const y = d.getUTCFullYear();
  if (y < 1990 || y > 2200) return undefined;
  return d.toISOString();
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ensp: " ",
  emsp: " ",
  thinsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  middot: "·",
  bull: "•",
  copy: "©",
  reg: "®",
  trade: "™",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  times: "×",
  deg: "°",
  rarr: "→",
  larr: "←",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  eacute: "é",
  egrave: "è",
  aacute: "á",
  agrave: "à",
  iacute: "í",
  oacute: "ó",
  uacute: "ú",
  ntilde: "ñ",
  ccedil: "ç",
};

/** Decodes the common named and all numeric character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z][a-z0-9]{1,8});/gi, (m, ref: string) => {
    const lower = ref.toLowerCase();
    if (lower.startsWith("#x")) return safeCodePoint(Number.parseInt(lower.slice(2), 16), m);
    if (lower.startsWith("#")) return safeCodePoint(Number.parseInt(lower.slice(1), 10), m);
    return ENTITIES[ref] ?? ENTITIES[lower] ?? m;
  });
}

function safeCodePoint(n: number, fallback: string): string {
  if (!Number.isFinite(n) || n <= 0 || n > 0x10ffff) return fallback;
  try {
    return String.fromCodePoint(n);
  } catch {
    return fallback;
  }
}

/** Text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(
        /<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|blockquote|pre|hr|dt|dd)\b[^>]*>/gi,
        " ",
      )
      .replace(/<[^>]*>/g, "")
      .replace(/\s+/g, " "),
  ).trim();
}

/** `text` cut to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A job as the source readers record it: only the fields the provider states. */
export function job(
  title: string,
  department?: string,
  location?: string,
  url?: string,
  posted_at?: string,
): Job {
  const j: Job = { title };
  if (department) j.department = department;
  if (location) j.location = location;
  if (url) j.url = url;
  if (posted_at) j.posted_at = posted_at;
  return j;
}

/** A provider's string field as plain text (markup dropped, at most 300 characters), or undefined. */
export function str(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const s = plainText(v).slice(0, 300);
  return s || undefined;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
