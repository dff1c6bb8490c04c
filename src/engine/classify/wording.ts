// Wording helpers of the classification rules: keys (slug, path keys), clipped quotes, the words a change
// changed, plan labels, amounts and percentages, evidence text of a change, page words.
import { humanTimes } from "../../domain/dates.ts";
import { formatAmount } from "../../domain/money.ts";
import { fixArticles, possessive, undoubled } from "../../domain/prose.ts";
import { formatPrice } from "../compare/compare.ts";
import type { Originals } from "../compare/normalise.ts";
import { quoted } from "../compare/originals.ts";
import type { Change, PriceValue } from "../compare/types.ts";
import { tokens } from "../compare/words.ts";

export const MASKED = /⟨[a-z]+⟩/g;

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const NOT_SLUG = /[^a-z0-9]+/g;
const EDGE_DASHES = /^-+|-+$/g;
const SPACES = /\s+/g;
const TRAILING_SEPARATORS = /[\s,;:—–-]+$/;
const TRAILING_SLASHES = /\/+$/;
const DIGIT = /\d/;
const PLAN_WORD = /\b(plan|tier|edition|package)$/i;
const URL_IN_PARENTHESES = /\s*\(https?:\/\/[^\s()]+\)/g;
const TRAILING_URL = /\s+https?:\/\/\S+?(?=[.,;]?$)/;
const ENDS_IN_S = /s$/i;
const QUOTATION = /("[^"]*"|“[^”]*”)/;
const TITLE_SEPARATOR = /\s+[|–—·-]\s+/;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** A key part: lower-case words joined by "-" (accents folded). */
export function slug(s: string): string {
  return (
    s
      .normalize("NFKD")
      .replace(COMBINING_MARKS, "")
      .toLowerCase()
      .replace(NOT_SLUG, "-")
      .replace(EDGE_DASHES, "")
      .slice(0, 80) || "x"
  );
}

/** A text cut to exactly `max` characters with "…": for subjects and keys, whose form is a signal's identity
 * across cycles (an open signal's key must not change). */
export function cutExact(s: string, max: number): string {
  const t = s.replace(SPACES, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

/** A text cut to `max` characters with "…", at a word's end when one is near (never mid-word when it can). */
export function clip(s: string, max: number): string {
  const t = s.replace(SPACES, " ").trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  const whole = space > max * 0.6 ? cut.slice(0, space) : cut;
  return `${whole.replace(TRAILING_SEPARATORS, "")}…`;
}

export const q = (s: string) => `"${clip(s, 120)}"`;

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname.replace(TRAILING_SLASHES, "") || "/";
  } catch {
    return url;
  }
}

/** A page's path as a key part: "home" for the root. */
export function pathKey(url: string): string {
  const p = pathOf(url);
  return p === "/" ? "home" : slug(p);
}

export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Words of a text that carry meaning (masked values, punctuation and one-letter tokens left out). */
export function words(s: string | null | undefined): string[] {
  return tokens((s ?? "").replace(MASKED, " ")).filter((w) => w.length > 1 || DIGIT.test(w));
}

/** The words a change added or removed. */
export function changedWords(c: Change): string[] {
  if (c.kind === "list_changed" && (c.added || c.removed)) {
    // Members are whole lines: count the words that differ between what was added and what was removed.
    const left = new Map<string, number>();
    for (const w of words((c.removed ?? []).join(" "))) left.set(w, (left.get(w) ?? 0) + 1);
    const out: string[] = [];
    for (const w of words((c.added ?? []).join(" "))) {
      const n = left.get(w) ?? 0;
      if (n > 0) left.set(w, n - 1);
      else out.push(w);
    }
    for (const [w, n] of left) for (let i = 0; i < n; i++) out.push(w);
    return out;
  }
  if (c.diff) return c.diff.filter((p) => p.op !== "=").flatMap((p) => words(p.text));
  return [...words(c.before), ...words(c.after)];
}

export function planLabel(name: string): string {
  return PLAN_WORD.test(name.trim()) ? name.trim() : `${name.trim()} plan`;
}

export function money(p: PriceValue): string {
  if (p.period === "year" && typeof p.amount === "number") return formatAmount(p.amount, p.currency);
  return typeof p.price === "number" ? formatAmount(p.price, p.currency) : formatPrice(p);
}

/** A price as the page states it, a yearly-only price followed by its monthly equivalent, labelled:
 * "£600 a year (£50 a month, billed yearly)". */
export function withMonthly(p: PriceValue): string {
  const stated = formatPrice(p);
  if (p.period !== "year" || typeof p.amount !== "number" || typeof p.price !== "number" || p.starting)
    return stated;
  return `${stated} (${formatAmount(p.price, p.currency)}${p.unit ? ` per ${p.unit}` : ""} a month, billed yearly)`;
}

export function pct(delta: number): string {
  const p = delta * 100;
  const r = Math.abs(p) < 1 ? Math.round(p * 10) / 10 : Math.round(p);
  return `${r > 0 ? "+" : ""}${r}%`;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

/** A title or summary as a person reads it: the page's own words where the comparison masked them, no link
 * trailing a summary (the evidence carries the page, and pages show it as a link), the company's possessive
 * as its name takes it, no word written twice, "a" or "an" as the next word sounds, times as people write
 * them. */
export function readable(
  text: string,
  name: string,
  originals?: Originals,
  opts: { summary?: boolean } = {},
): string {
  let t = quoted(text, originals);
  if (opts.summary) t = t.replace(URL_IN_PARENTHESES, "").replace(TRAILING_URL, "");
  if (name && ENDS_IN_S.test(name)) t = t.replaceAll(`${name}'s`, possessive(name));
  // Our words are corrected; what the page says, quoted, stays as it wrote it.
  const parts = t.split(QUOTATION);
  return humanTimes(parts.map((p, i) => (i % 2 ? p : fixArticles(undoubled(p)))).join(""))
    .replace(SPACES, " ")
    .trim();
}

/** A text edit in words: what it adds, removes, or says now and said before (never diff marks). */
export function editText(c: Change, max = 160): string {
  if (c.diff?.length) {
    const now = c.diff
      .filter((p) => p.op !== "-")
      .map((p) => p.text)
      .join("")
      .trim();
    const was = c.diff
      .filter((p) => p.op !== "+")
      .map((p) => p.text)
      .join("")
      .trim();
    if (!was || c.kind === "text_added") return `adds ${q(clip(now, max))}`;
    if (!now || c.kind === "text_removed") return `removes ${q(clip(was, max))}`;
    return `now says ${q(clip(now, max))} where it said ${q(clip(was, max))}`;
  }
  if (c.after !== null && c.before === null) return `adds ${q(clip(c.after, max))}`;
  if (c.before !== null && c.after === null) return `removes ${q(clip(c.before, max))}`;
  return `now says ${q(clip(c.after ?? "", max))} where it said ${q(clip(c.before ?? "", max))}`;
}

/** A page's title without the site's name after it ("Privacy notice — Northwind Analytics" → "Privacy
 * notice"). */
export function pageName(title: string): string {
  return title.split(TITLE_SEPARATOR)[0]?.trim() || title;
}

/** Evidence text of a change: the new text with context, and what it was. */
export function changeText(c: Change): string {
  if (c.kind === "list_changed" && (c.added?.length || c.removed?.length)) {
    const parts = [
      c.added?.length ? `added ${c.added.join("; ")}` : "",
      c.removed?.length ? `removed ${c.removed.join("; ")}` : "",
    ].filter(Boolean);
    return `${c.subject || c.section || "List"}: ${parts.join("; ")} (now: ${clip(c.after ?? "", 240)})`;
  }
  if (c.before !== null && c.after !== null) {
    const now = c.context && c.context.length > (c.after?.length ?? 0) ? c.context : c.after;
    return `${now} (was: ${clip(c.before, 240)})`;
  }
  if (c.after !== null) return c.context ?? c.after;
  return `Removed: ${c.before ?? c.excerpt}`;
}

export const KEY_PAGES = new Set(["home", "pricing", "product", "features", "platform"]);

export const pageWord = (kind: string) =>
  kind === "home" ? "home page" : kind === "feed" ? "feed" : kind === "jobs" ? "job board" : `${kind} page`;

/** A text with case and punctuation folded away: two texts that differ only cosmetically compare equal. */
export const cosmetic = (s: string) => s.toLowerCase().replace(NOT_WORD, "");
