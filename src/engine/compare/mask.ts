// Masks the parts of a page's text that change without anything having changed (docs/engine/compare.md): dates, times, relative times, live counters, copyright years, build hashes, nonces and tokens,
// cache-buster query strings and srcset lists. Prices are never masked: a number next to a currency, or one
// that reads as a plan limit ("up to 10,000 contacts"), stays as it is.

import { collapseSpaces } from "../extract/dom.ts";

export const MASK = {
  date: "⟨date⟩",
  time: "⟨time⟩",
  ago: "⟨ago⟩",
  year: "⟨year⟩",
  count: "⟨count⟩",
  hash: "⟨hash⟩",
  token: "⟨token⟩",
  id: "⟨id⟩",
} as const;

/** Whitespace collapsed, zero-width characters dropped, NFC. */
// The patterns of functions called for every text of every page live at module level: a regular expression
// literal in a function body is a new RegExp object on each call.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

export function clean(text: string): string {
  // ASCII (most text) needs neither NFC nor the zero-width pass.
  return collapseSpaces(PRINTABLE_ASCII.test(text) ? text : text.normalize("NFC").replace(ZERO_WIDTH, ""));
}

const MONTH =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const WEEKDAY = "(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\\.?,?\\s+)?";
const DAY = "\\d{1,2}(?:st|nd|rd|th)?";

const DATE_PATTERNS: RegExp[] = [
  // ISO 8601 date or date-time
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?!\d)/g,
  // 11/20/2026, 20.11.2026, 2026/11/20
  /\b\d{1,2}[/.]\d{1,2}[/.](?:\d{4}|\d{2})(?![\d/.])/g,
  /\b\d{4}\/\d{1,2}\/\d{1,2}(?!\d)/g,
  // Friday, November 20, 2026 · Nov 20th · Nov. 20, 2026
  new RegExp(`\\b${WEEKDAY}${MONTH}\\s+${DAY}(?:,?\\s+\\d{4})?(?![\\d])`, "gi"),
  // 20 November 2026 · 20th of Nov
  new RegExp(`\\b${WEEKDAY}${DAY}\\s+(?:of\\s+)?${MONTH}(?:,?\\s+\\d{4})?(?![\\d])`, "gi"),
  // November 2026
  new RegExp(`\\b${MONTH}\\s+\\d{4}(?!\\d)`, "gi"),
];

const TIME = /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[aApP]\.?[mM]\.?)?(?:\s?(?:UTC|GMT|[A-Z]{1,2}[SD]?T)\b)?/g;

const NUMBER_WORDS = "(?:\\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|several|some)";
const UNITS =
  "(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mos?|months?|y|yrs?|years?)";
const RELATIVE: RegExp[] = [
  new RegExp(`\\b${NUMBER_WORDS}\\s*${UNITS}\\.?\\s+ago\\b`, "gi"),
  new RegExp(`\\bin\\s+${NUMBER_WORDS}\\s+${UNITS}\\b`, "gi"),
  /\b(?:just now|moments? ago|a moment ago|yesterday|today|tonight|tomorrow|last (?:night|week|month|year)|this (?:morning|afternoon|evening))\b/gi,
];

const COPYRIGHT =
  /(©|&copy;|\(c\)|\bcopyright\b)(\s*(?:©|\(c\))?\s*)(?:\d{4})(?:\s*[-–—]\s*(?:\d{4}|present))?/gi;

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
// A hex run of 7+ characters holding both a digit and a letter: commit and build hashes.
const HEX = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/gi;
// Random tokens: 20+ characters mixing upper case, lower case and digits (nonces, CSRF values, session ids).
const TOKEN =
  /(?<![\w/+-])(?=[\w+/-]*\d)(?=[\w+/-]*[a-z])(?=[\w+/-]*[A-Z])[A-Za-z0-9_+/-]{20,}={0,2}(?![\w+/-])/g;
const NAMED_SECRET =
  /\b(csrf|xsrf|nonce|authenticity[_ -]token|request[_ -]id|trace[_ -]id|session[_ -]id)(\s*[:=#]?\s*)["']?[\w+/=.-]{6,}["']?/gi;
const BUILD_ID =
  /\b(build|commit|rev|revision|deploy(?:ment)?|release id)(\s*(?:id|no\.?|number)?\s*[:#]?\s*)(?=[A-Za-z0-9._-]{5,})([A-Za-z0-9._-]*\d[A-Za-z0-9._-]*)/gi;

const SRCSET = /(?:\S+\s+\d+(?:\.\d+)?[wx]\s*,\s*)+\S+\s+\d+(?:\.\d+)?[wx]\b/g;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>()]+/g;

const CURRENCY_BEFORE =
  /(?:[$€£¥₹₩₽₪฿₫]|\b(?:usd|eur|gbp|cad|aud|chf|jpy|inr|sek|nok|dkk|us\$|a\$|c\$|r\$))\s*$/i;
const LIMIT_BEFORE =
  /\b(?:up to|upto|max(?:imum)?|min(?:imum)?|limit(?:ed)?(?: of| to)?|unlimited|includes?|including|included|for|per|each|every|additional|extra|first|over|under|at least|only)\s*$/i;
const COUNTER_NOUNS =
  "customers?|clients?|users?|teams?|companies|company|businesses|organi[sz]ations?|developers?|engineers?|brands?|members?|people|subscribers?|downloads?|installs?|installations?|stars?|reviews?|ratings?|followers?|visitors?|sign-?ups?|messages?|emails?|requests?|transactions?|orders?|projects?|websites?|sites?|stores?|merchants?|creators?|students?|learners?|professionals?|marketers?|sellers?|accounts?|contributors?|commits?|apps?|tasks?|documents?|meetings?|calls?|workflows?|deployments?|builds?|views?|votes?|likes?|shares?|happy|active|monthly|daily|weekly|worldwide|globally";
const NUM =
  "(\\d{1,3}(?:[,.\\u202F\\u00A0 ]\\d{3})+|\\d+(?:\\.\\d+)?)(\\s?(?:[kmb]|thousand|million|billion)\\b)?(\\+)?";
const COUNTER = new RegExp(`${NUM}(\\s+(?:[A-Za-z-]+\\s+){0,2}?(?:${COUNTER_NOUNS})\\b)`, "gi");
const BARE_NUMBER =
  /^(?:over\s+|more than\s+)?[\d.,\u202F\u00A0 ]*\d\s?(?:[kmb]|thousand|million|billion)?\+?%?$/i;
const LIVE_PERCENT = /\b\d{1,3}\.\d{2,}%/g;

const THOUSANDS_SEPARATOR = /[,.\u202F\u00A0 ](?=\d{3}(?:\D|$))/g;
const QUOTA_AFTER = /^\s*(?:\/|per\b|a month|a year|included)/i;
const YEAR_DIGITS = /^(?:19|20)\d{2}$/;

function numberValue(digits: string, suffix: string | undefined): number {
  const plain = Number(digits.replace(THOUSANDS_SEPARATOR, ""));
  const s = (suffix ?? "").trim().toLowerCase();
  const mult =
    s === "k" || s === "thousand"
      ? 1e3
      : s === "m" || s === "million"
        ? 1e6
        : s === "b" || s === "billion"
          ? 1e9
          : 1;
  return plain * mult;
}

/** Live counters ("12,345 customers", "Join 50k+ teams"): a big or suffixed number followed by a counted noun,
 * not preceded by a currency (a price) nor by a limit word (a plan's quota). */
function maskCounters(text: string): string {
  return text.replace(
    COUNTER,
    (whole, digits: string, suffix: string | undefined, plus, rest, offset: number) => {
      const before = text.slice(Math.max(0, offset - 24), offset);
      if (CURRENCY_BEFORE.test(before) || LIMIT_BEFORE.test(before)) return whole;
      const after = text.slice(offset + whole.length, offset + whole.length + 12);
      if (QUOTA_AFTER.test(after)) return whole;
      if (numberValue(digits, suffix) < 1000 && !suffix && !plus) return whole;
      if (YEAR_DIGITS.test(digits) && !suffix && !plus) return whole; // "in 2016 when three engineers …"
      return `${MASK.count}${rest}`;
    },
  );
}

const STRIP_PARAMS =
  /^(?:v|ver|version|cb|cachebust(?:er)?|cache|_|t|ts|timestamp|time|rev|hash|h|build|nonce|token|csrf|sid|session(?:id)?|utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_ga|_gl|hsctatracking|__hs\w*|_hs\w*|ref|ref_src|source|src|gh_src|lever-source|trk|igshid|yclid|s_kwcid|vero_\w+|mkt_tok)$/i;

const HASHED_NAME = /([.\-_~])[0-9a-f]{8,}(?=[.\-_/]|$)/gi;
const DIGIT = /\d/;
const HEX_LETTER = /[a-f]/i;
const TRAILING_SLASHES = /\/+$/;

/** A URL without cache busters and tracking parameters, hashed asset names masked, fragment dropped,
 * remaining parameters sorted, no trailing slash. Not a URL: returned cleaned. */
export function maskUrl(raw: string): string {
  const s = clean(raw);
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return s;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return s;
  u.hash = "";
  const kept = [...u.searchParams.entries()]
    .filter(([k]) => !STRIP_PARAMS.test(k))
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const path = u.pathname
    .replace(HASHED_NAME, (m, sep: string) =>
      DIGIT.test(m) && HEX_LETTER.test(m) ? `${sep}${MASK.hash}` : m,
    )
    .replace(TRAILING_SLASHES, "");
  const query = kept.length ? `?${new URLSearchParams(kept).toString()}` : "";
  return `${u.protocol}//${u.host.toLowerCase()}${path}${query}`;
}

export interface MaskOptions {
  /** Mask live counters ("12,345 customers"). Off for plan features, tables and structured fields. */
  counters?: boolean;
  /** Mask a text that is only a big number ("1.2M", a stats block). Paragraphs only: a table cell or a card
   * item holding just "10M" is a plan's quota. */
  bare?: boolean;
  /** Mask dates and times (default on). Off for JSON-LD fields, whose dates are facts (foundingDate). */
  dates?: boolean;
}

const SRCSET_HINT = /\d[wx]\b/;
const UPPER = /[A-Z]/;
const RIGHTS_RESERVED = /all rights reserved/i;
const YEAR = /\b(?:19|20)\d{2}\b/g;
const AGO_WORD = /\bago\b/i;
const IN_WORD = /\bin\s/i;
const ALL_DIGITS = /^\d+$/;
const SMALL_NUMBER = /^\d{1,3}%?$/;
const BIG_NUMBER = /([\d.,\u202F\u00A0 ]*\d)\s?([kmb]|thousand|million|billion)?(\+)?/i;

/** Cleans and masks one piece of text. Idempotent. Most patterns need a digit, so text without one skips them. */
export function maskText(text: string, opts: MaskOptions = {}): string {
  const cleaned = clean(text);
  let t = cleaned;
  if (!t) return t;
  const digits = DIGIT.test(t);
  if (t.includes("http")) t = t.replace(URL_IN_TEXT, (u) => maskUrl(u));
  if (digits) {
    if (SRCSET_HINT.test(t)) t = t.replace(SRCSET, "");
    if (t.includes("-")) t = t.replace(UUID, MASK.id);
    t = t.replace(NAMED_SECRET, (_m, name: string, sep: string) => `${name}${sep}${MASK.token}`);
    if (UPPER.test(t)) t = t.replace(TOKEN, MASK.token);
    t = t.replace(COPYRIGHT, (_m, sign: string, sep: string) => `${sign}${sep}${MASK.year}`);
    if (RIGHTS_RESERVED.test(t)) t = t.replace(YEAR, MASK.year);
    if (opts.dates !== false) for (const re of DATE_PATTERNS) t = t.replace(re, MASK.date);
  }
  if (AGO_WORD.test(t)) t = t.replace(RELATIVE[0], MASK.ago);
  if (IN_WORD.test(t)) t = t.replace(RELATIVE[1], MASK.ago);
  t = t.replace(RELATIVE[2], MASK.ago);
  if (digits) {
    if (opts.dates !== false && t.includes(":")) t = t.replace(TIME, MASK.time);
    t = t.replace(BUILD_ID, (_m, name: string, sep: string) => `${name}${sep}${MASK.hash}`);
    t = t.replace(HEX, (m) => (ALL_DIGITS.test(m) ? m : MASK.hash));
    if (opts.counters) {
      if (t.includes("%")) t = t.replace(LIVE_PERCENT, MASK.count);
      t = maskCounters(t);
    }
    if (opts.bare) {
      if (BARE_NUMBER.test(t) && !SMALL_NUMBER.test(t)) {
        const m = BIG_NUMBER.exec(t);
        if (m && (numberValue(m[1].trim(), m[2]) >= 1000 || m[2] || m[3])) t = MASK.count;
      }
    }
  }
  // a text no pattern replaced anything in is as clean() left it
  return t === cleaned ? t : collapseSpaces(t);
}
