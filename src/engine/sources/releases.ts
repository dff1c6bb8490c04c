/**
 * Changelog / release-notes pages → dated entries, and the `release_cadence` read.
 *
 * Strict on purpose: a date counts only when it is a whole calendar date with a stated year (chrono-node,
 * strict mode) in an entry position — a heading, a `<time>`, a short date-only line next to a heading, a
 * list item or table row that starts with it. Dates inside prose paragraphs never count.
 */
import type * as Chrono from "chrono-node";
import type * as Linkedom from "linkedom";
import { absoluteHttpUrl, clip } from "./util.ts";

// Loaded on first use: this module is imported wherever research is (the tools, `serve`, `rivals cycle`), and
// the two libraries are about 37 MB of a process's memory that a cycle, which never reads a changelog this
// way, should not carry (docs/engine.md, cycle "Memory").
let chronoModule: typeof Chrono | undefined;
let linkedomModule: typeof Linkedom | undefined;
function chrono(): typeof Chrono {
  chronoModule ??= require("chrono-node") as typeof Chrono;
  return chronoModule;
}
function parseHTML(html: string) {
  linkedomModule ??= require("linkedom") as typeof Linkedom;
  return linkedomModule.parseHTML(html);
}

export interface ChangelogEntry {
  title: string;
  /** YYYY-MM-DD */
  date: string;
  url?: string;
}

export interface ReleaseCadence {
  releases_last_90_days: number;
  /** ISO 8601 of the newest release. */
  last_release_at: string;
  /** Median of the days between consecutive release days (absent with fewer than two). */
  median_days_between?: number;
  source: string;
}

/** The structural subset of E's PageExtract this reader uses. */
export interface BlocksLike {
  url?: string;
  blocks: readonly (
    | { kind: "heading"; level: number; text: string }
    | { kind: "text"; text: string }
    | { kind: "list"; items: readonly string[] }
    | { kind: "table"; rows: readonly (readonly string[])[] }
    | { kind: "card"; title: string; items: readonly string[] }
  )[];
}

type Item =
  | { kind: "heading"; level: number; text: string; url?: string; iso?: string }
  | { kind: "date"; iso: string } // a date-only line or <time>
  | { kind: "line"; text: string } // a short non-date line (ignored, but counts for distance)
  | { kind: "entry"; title: string; iso: string }; // a list item / table row that carries its own date

const MAX_ENTRIES = 1000;
const MAX_HTML = 3 * 1024 * 1024;

/** Dated entries of a changelog or release-notes page (HTML text or a PageExtract), newest order kept. */
export function changelogEntries(input: string | BlocksLike, url: string): ChangelogEntry[] {
  try {
    const items = typeof input === "string" ? itemsFromHtml(input, url) : itemsFromBlocks(input);
    return entriesFrom(items);
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------- dates

interface FoundDate {
  iso: string;
  index: number;
  text: string;
}

const YEAR = /\b(?:19|20)\d{2}\b/;
/** Cheap pre-check before chrono: a month name, or digits in a numeric date shape. */
const DATE_SHAPE =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s|\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b|\d\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
const REF = new Date(Date.UTC(2000, 0, 1));

/** The first whole date (day, month and a stated year) in `text`, strict; CalVer versions excluded. */
export function findDate(text: string): FoundDate | null {
  if (!text || text.length > 400 || !YEAR.test(text) || !DATE_SHAPE.test(text)) return null;
  let results: Chrono.ParsedResult[];
  try {
    results = chrono().strict.parse(text, REF);
  } catch {
    return null;
  }
  for (const r of results) {
    const s = r.start;
    if (!s.isCertain("day") || !s.isCertain("month") || !s.isCertain("year")) continue;
    if (!YEAR.test(r.text)) continue; // "12 days ago", "yesterday"
    const before = text.slice(Math.max(0, r.index - 9), r.index);
    if (/(?:\bv|version\s*|release\s*|\bv\.)$/i.test(before) && /^\d{4}[.]\d/.test(r.text)) continue; // v2024.10.1
    const y = s.get("year") ?? 0;
    const m = s.get("month") ?? 0;
    const d = s.get("day") ?? 0;
    if (y < 1995 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) continue;
    return { iso: `${y}-${pad(m)}-${pad(d)}`, index: r.index, text: r.text };
  }
  return null;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

const FILLER =
  /\b(?:published|posted|released|release|updated|last|date|on|at|by|shipped|min|mins|minute|minutes|read|reading|time|utc|gmt)\b|[\s,.:;·•|/()\-–—]+|\d+/gi;

/** The date of a line that is (almost) only a date, e.g. "Published March 3, 2025 · 4 min read". */
function dateOnly(text: string): string | null {
  const t = text.trim();
  if (!t || t.length > 60) return null;
  const found = findDate(t);
  if (!found) return null;
  const rest = `${t.slice(0, found.index)} ${t.slice(found.index + found.text.length)}`
    .replace(FILLER, " ")
    .trim();
  // What is left may be a byline ("by Jane Doe") but not a title.
  return rest === "" || (rest.length <= 20 && rest.split(/\s+/).length <= 2) ? found.iso : null;
}

/** ISO date of a `<time datetime>` value or text. */
function dateOfTime(datetime: string | null, text: string): string | null {
  if (datetime) {
    const m = /^\s*((?:19|20)\d{2})-(\d{2})-(\d{2})/.exec(datetime);
    if (m && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[3]) >= 1 && Number(m[3]) <= 31)
      return `${m[1]}-${m[2]}-${m[3]}`;
  }
  return dateOnly(text);
}

/** Title left when the date is cut out of a heading or line: separators trimmed. */
function withoutDate(text: string, found: FoundDate): string {
  const rest = `${text.slice(0, found.index)} ${text.slice(found.index + found.text.length)}`;
  return rest
    .replace(/\s+/g, " ")
    .replace(/^[\s,.:;·•|/()\-–—]+|[\s,.:;·•|/(\-–—]+$/g, "")
    .replace(/\(\s*\)/g, "")
    .replace(/\b(?:released|published|shipped)(?:\s+on)?$/i, "")
    .trim();
}

// ---------------------------------------------------------------- HTML → items

/** Subtrees never read: navigation, footers, non-content. */
const SKIP = new Set([
  "NAV",
  "FOOTER",
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "SVG",
  "HEAD",
  "IFRAME",
  "FORM",
  "BUTTON",
  "SELECT",
]);
/** Elements that break a line: an element with none of these among its children is read as one line. */
const BLOCK = new Set([
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "TIME",
  "LI",
  "TR",
  "P",
  "DIV",
  "TABLE",
  "TBODY",
  "THEAD",
  "UL",
  "OL",
  "SECTION",
  "ARTICLE",
  "HEADER",
  "MAIN",
  "ASIDE",
  "FIGURE",
  "DL",
  "DT",
  "DD",
  "BLOCKQUOTE",
  "PRE",
  "BR",
  "HR",
  "DETAILS",
  "SUMMARY",
]);
const HEADING = /^H[1-6]$/;

/** One walk over the DOM in document order (no selector queries per element: pages can be large). */
function itemsFromHtml(html: string, url: string): Item[] {
  const src = html.length > MAX_HTML ? html.slice(0, MAX_HTML) : html;
  const { document } = parseHTML(src);
  const items: Item[] = [];
  const root = (document.body ?? document.documentElement) as Element | null;
  if (root) walk(root, items, url, 0);
  return items;
}

function walk(parent: Element, items: Item[], url: string, depth: number): void {
  if (depth > 200) return;
  for (let el = parent.firstElementChild; el; el = el.nextElementSibling) {
    const tag = el.tagName.toUpperCase();
    if (SKIP.has(tag) || el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true") continue;
    if (HEADING.test(tag)) {
      const text = norm(el.textContent);
      if (!text || text.length > 200) continue;
      const time = el.querySelector("time");
      const iso = time ? dateOfTime(time.getAttribute("datetime"), norm(time.textContent)) : null;
      items.push({
        kind: "heading",
        level: Number(tag[1]),
        text,
        url: headingUrl(el, url),
        iso: iso ?? undefined,
      });
      continue;
    }
    if (tag === "TIME") {
      const iso = dateOfTime(el.getAttribute("datetime"), norm(el.textContent));
      if (iso) items.push({ kind: "date", iso });
      continue;
    }
    if (tag === "TR") {
      const cells: string[] = [];
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
        const t = norm(c.textContent);
        if (t) cells.push(t);
      }
      pushRow(items, cells);
      continue;
    }
    if (!hasBlockChild(el)) {
      const text = norm(el.textContent);
      if (!text) continue;
      if (tag === "LI") pushLine(items, text.slice(0, 400), true);
      else if (text.length <= 60) pushLine(items, text, false);
      else items.push({ kind: "line", text: "" }); // prose: never a date, but it separates
      continue;
    }
    walk(el, items, url, depth + 1);
  }
}

function hasBlockChild(el: Element): boolean {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling)
    if (BLOCK.has(c.tagName.toUpperCase())) return true;
  return false;
}

function headingUrl(el: Element, base: string): string | undefined {
  const a = el.querySelector("a[href]") ?? (el.parentElement?.tagName === "A" ? el.parentElement : null);
  const href = a?.getAttribute("href");
  if (href && !href.startsWith("#")) return absoluteHttpUrl(href, base);
  const id = el.getAttribute("id") ?? (href?.startsWith("#") ? href.slice(1) : null);
  if (id) {
    const u = absoluteHttpUrl(base);
    return u ? `${u}#${encodeURIComponent(id)}` : undefined;
  }
  return undefined;
}

function norm(text: string | null | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

function pushLine(items: Item[], text: string, listItem: boolean): void {
  if (!text) return;
  if (listItem) {
    const found = findDate(text.slice(0, 80));
    // "2025-03-01 — Added SSO" / "March 3, 2025: Added SSO": the date opens the line, a separator follows
    if (
      found &&
      found.index <= 2 &&
      /^\s*[—–\-:|·•]\s*\S/.test(text.slice(found.index + found.text.length))
    ) {
      const title = withoutDate(text, found);
      if (title) {
        items.push({ kind: "entry", title: clip(title, 200), iso: found.iso });
        return;
      }
    }
  }
  const only = dateOnly(text);
  items.push(only ? { kind: "date", iso: only } : { kind: "line", text });
}

function pushRow(items: Item[], cells: string[]): void {
  if (cells.length < 2) return;
  let iso: string | null = null;
  let dateCell = -1;
  for (let i = 0; i < Math.min(cells.length, 3); i++) {
    iso = dateOnly(cells[i]);
    if (iso) {
      dateCell = i;
      break;
    }
  }
  if (!iso) return;
  const title = cells.filter((_, i) => i !== dateCell).find((c) => c.length > 0);
  if (title) items.push({ kind: "entry", title: clip(title, 200), iso });
}

// ---------------------------------------------------------------- PageExtract blocks → items

function itemsFromBlocks(page: BlocksLike): Item[] {
  const items: Item[] = [];
  if (!page || !Array.isArray(page.blocks)) return items;
  for (const b of page.blocks) {
    if (!b || typeof b !== "object") continue;
    switch (b.kind) {
      case "heading":
        if (typeof b.text === "string" && b.text.length <= 200)
          items.push({ kind: "heading", level: Number(b.level) || 2, text: norm(b.text) });
        break;
      case "text":
        if (typeof b.text === "string") {
          const t = norm(b.text);
          if (t.length <= 60) pushLine(items, t, false);
          else items.push({ kind: "line", text: "" });
        }
        break;
      case "list":
        for (const it of b.items ?? []) if (typeof it === "string") pushLine(items, norm(it), true);
        break;
      case "table":
        for (const row of b.rows ?? [])
          if (Array.isArray(row))
            pushRow(
              items,
              row.map((c) => norm(String(c))),
            );
        break;
      case "card":
        if (typeof b.title === "string") items.push({ kind: "heading", level: 6, text: norm(b.title) });
        for (const it of b.items ?? []) if (typeof it === "string") pushLine(items, norm(it), false);
        break;
    }
  }
  return items;
}

// ---------------------------------------------------------------- items → entries

function entriesFrom(items: Item[]): ChangelogEntry[] {
  const out: ChangelogEntry[] = [];
  const seen = new Set<string>();
  const used = new Set<number>();
  const add = (title: string, iso: string, url?: string) => {
    const t = clip(title.trim(), 200);
    if (!t) return;
    const key = `${t.toLowerCase()}|${iso}`;
    if (seen.has(key) || out.length >= MAX_ENTRIES) return;
    seen.add(key);
    out.push(url ? { title: t, date: iso, url } : { title: t, date: iso });
  };
  /** Level of the date-only heading whose date applies to deeper headings below it, and that date. */
  let group: { level: number; iso: string; emitted: boolean; text: string; url?: string } | null = null;
  const closeGroup = () => {
    if (group && !group.emitted) add(group.text, group.iso, group.url);
    group = null;
  };
  const h1Entries: ChangelogEntry[] = [];
  const undatedH1: number[] = [];

  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.kind === "entry") {
      add(it.title, it.iso);
      continue;
    }
    if (it.kind !== "heading") continue;
    if (group && it.level <= group.level) closeGroup();
    const found = it.iso ? null : findDate(it.text);
    const iso = it.iso ?? found?.iso;
    if (iso) {
      const title = found ? withoutDate(it.text, found) : it.text;
      if (title.length >= 2 && !/^[\d\s.,:-]+$/.test(title)) {
        // "v2.3 — March 3, 2025": a whole entry
        if (it.level === 1) h1Entries.push({ title, date: iso, url: it.url });
        else add(title, iso, it.url);
      } else {
        // "March 3, 2025": dates the entries (deeper headings) under it
        closeGroup();
        group = { level: it.level, iso, emitted: false, text: found?.text ?? it.text, url: it.url };
      }
      continue;
    }
    if (group && it.level > group.level) {
      add(it.text, group.iso, it.url);
      group.emitted = true;
      continue;
    }
    if (it.level === 1) {
      undatedH1.push(i); // the page's title, unless nothing else is dated
      continue;
    }
    // A heading without a date: the nearest unused date-only line next to it.
    const pick = adjacentDate(items, i, used);
    if (!pick) continue;
    used.add(pick.index);
    add(it.text, pick.iso, it.url);
  }
  closeGroup();
  // An h1 is the page's own title ("Changelog — updated March 3, 2025") unless it is all there is.
  if (out.length === 0) {
    for (const e of h1Entries) add(e.title, e.date, e.url);
    for (const i of undatedH1) {
      const h = items[i] as Extract<Item, { kind: "heading" }>;
      const pick = adjacentDate(items, i, used);
      if (pick) add(h.text, pick.iso, h.url);
    }
  }
  return out;
}

function adjacentDate(items: Item[], i: number, used: Set<number>): { iso: string; index: number } | null {
  const next = nearestDate(items, i, +1, used);
  const prev = nearestDate(items, i, -1, used);
  return next && prev ? (prev.distance < next.distance ? prev : next) : (next ?? prev);
}

function nearestDate(
  items: Item[],
  from: number,
  step: 1 | -1,
  used: Set<number>,
): { iso: string; index: number; distance: number } | null {
  for (let j = from + step, d = 1; j >= 0 && j < items.length && d <= 3; j += step, d++) {
    const it = items[j];
    if (it.kind === "heading" || it.kind === "entry") return null;
    if (it.kind === "date") return used.has(j) ? null : { iso: it.iso, index: j, distance: d };
  }
  return null;
}

// ---------------------------------------------------------------- cadence

const DAY = 86_400_000;

/**
 * The `release_cadence` read from release dates (changelog entries, feed items): release days in the
 * last 90 days, the newest, and the median gap between consecutive release days. Several entries on one
 * day are one release. Dates after `now` and unparsable ones are ignored; null when none is left.
 */
export function releaseCadence(dates: readonly string[], now: Date, source: string): ReleaseCadence | null {
  const nowMs = now.getTime();
  const days = new Set<number>();
  for (const d of Array.isArray(dates) ? dates : []) {
    if (typeof d !== "string") continue;
    const t = Date.parse(d);
    if (Number.isNaN(t) || t > nowMs + DAY) continue;
    days.add(Math.floor(t / DAY));
  }
  if (days.size === 0) return null;
  const sorted = [...days].sort((a, b) => a - b);
  const last = Math.max(
    ...dates.map((d) => Date.parse(d)).filter((t) => !Number.isNaN(t) && t <= nowMs + DAY),
  );
  const since = nowMs - 90 * DAY;
  const read: ReleaseCadence = {
    releases_last_90_days: sorted.filter((d) => d * DAY + DAY > since).length,
    last_release_at: new Date(last).toISOString(),
    source,
  };
  if (sorted.length >= 2) {
    const gaps = sorted.slice(1).map((d, i) => d - sorted[i]);
    gaps.sort((a, b) => a - b);
    const mid = gaps.length >> 1;
    const median = gaps.length % 2 ? gaps[mid] : (gaps[mid - 1] + gaps[mid]) / 2;
    read.median_days_between = Math.round(median * 10) / 10;
  }
  return read;
}
