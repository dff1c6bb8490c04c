// Pricing plans from plan cards and comparison tables.
//
// The price rule (documented in docs/engine.md, "Extraction"): `price` is a monthly figure.
// - "$59 / month", "$59/mo", "$59 per seat per month": price 59, period "month".
// - A monthly figure the card says is "billed annually" ("$49/mo, billed annually") stays 49; period "year".
// - A yearly figure ("$24,000 / year", "$588 billed annually", "per annum") is divided by 12 (rounded to
//   cents); period "year". Only an explicit yearly marker triggers the division.
// - "one-time", "lifetime", "once": the amount as is, period "one_time".
// - No period stated: the amount as is, no period ("$0 forever" is a free plan: price 0).
// - "Free" as the price, or $0: price 0. "Custom", "Contact sales", "Let's talk", "Get a quote" with no
//   amount: price null, custom true.
// - When a page toggles monthly/annual prices, the visible (default) price is read; hidden alternatives are
//   dropped with other hidden elements before this runs.
import {
  attr,
  clean,
  descendants,
  type El,
  findFirst,
  HEADING,
  isInline,
  isTag,
  leafLines,
  type Node,
  textOf,
} from "./dom.ts";

export interface Plan {
  name: string;
  price: number | null;
  currency?: string;
  period?: "month" | "year" | "one_time";
  unit?: string;
  features: string[];
  custom?: boolean;
}

export interface PriceRead {
  amount: number | null;
  currency?: string;
  period?: "month" | "year" | "one_time";
  unit?: string;
  custom?: boolean;
  /** The matched price text, for evidence. */
  text?: string;
}

const CURRENCY_SYMBOLS: [RegExp, string][] = [
  [/^US\$$/i, "USD"],
  [/^(CA\$|C\$|CAD\$)$/i, "CAD"],
  [/^(A\$|AU\$)$/i, "AUD"],
  [/^NZ\$$/i, "NZD"],
  [/^(S\$|SG\$)$/i, "SGD"],
  [/^HK\$$/i, "HKD"],
  [/^MX\$$/i, "MXN"],
  [/^R\$$/i, "BRL"],
  [/^\$$/, "USD"],
  [/^€$/, "EUR"],
  [/^£$/, "GBP"],
  [/^¥$/, "JPY"],
  [/^₹$/, "INR"],
  [/^₩$/, "KRW"],
  [/^₺$/, "TRY"],
  [/^₽$/, "RUB"],
  [/^zł$/i, "PLN"],
  [/^(kr|SEK)$/i, "SEK"],
  [/^(Fr\.?|CHF)$/i, "CHF"],
];
const CODES = new Set([
  "USD",
  "EUR",
  "GBP",
  "CAD",
  "AUD",
  "NZD",
  "JPY",
  "INR",
  "CHF",
  "SEK",
  "NOK",
  "DKK",
  "PLN",
  "BRL",
  "MXN",
  "SGD",
  "HKD",
  "ZAR",
  "CNY",
  "KRW",
]);

function currencyOf(sym: string): string | undefined {
  const s = sym.trim();
  if (CODES.has(s.toUpperCase())) return s.toUpperCase();
  for (const [re, code] of CURRENCY_SYMBOLS) if (re.test(s)) return code;
  return undefined;
}

const SYM = String.raw`(?:US\$|CA\$|CAD\$|C\$|AU\$|A\$|NZ\$|SG\$|S\$|HK\$|MX\$|R\$|\$|€|£|¥|₹|₩|₺|₽|zł|kr|CHF|Fr\.|USD|EUR|GBP|CAD|AUD|NZD|JPY|INR|SEK|NOK|DKK|PLN|BRL|MXN|SGD|HKD|ZAR)`;
// a third decimal ("$0.002 per event") is a metered rate, not a plan price: no match
const NUM = String.raw`(?:[1-9]\d{0,2}(?:[,.\u202F\u00A0]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?!\d|[.,]\d)`;
// "$1,234.50", "US$24,000", "€ 29", "29,99 €", "29 EUR", "$49k" is not handled as a price (k/M suffixes are
// volumes on pricing pages, e.g. "10k sessions").
// before the symbol, a plain space may also group thousands ("1 200 €")
const NUM_SPACED = String.raw`(?:[1-9]\d{0,2}(?:[ ,.\u202F\u00A0]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?!\d|[.,]\d)`;
const PRICE_RE = new RegExp(
  String.raw`(?:(${SYM})\s?(${NUM})(?![\d.,]*\s?(?:k|K|m|M|%|x)\b)|(?<![\d.,])(${NUM_SPACED})\s?(${SYM})(?![A-Za-z]))`,
  "u",
);

function parseNumber(raw: string): number {
  let s = raw.replace(/[\u202F\u00A0 ]/g, "");
  // "1.234,56" or "29,99" (decimal comma) vs "1,234.56" / "24,000"
  if (/,\d{1,2}$/.test(s) && !/\.\d{1,2}$/.test(s)) s = s.replace(/\./g, "").replace(",", ".");
  else s = s.replace(/,/g, "");
  if (/^\d{1,3}(\.\d{3})+$/.test(s)) s = s.replace(/\./g, ""); // "24.000" European thousands
  return Number(s);
}

const MONTH_RE =
  /(?:\/|\bper\b|\ba\b|\beach\b|\bevery\b)\s*(?:seat|user|member|editor|agent|host|node|license|licence|employee|creator|admin|contact)?\s*\/?\s*(?:month|mo|mth|mon|monat|mois|mes|mese|maand)\b|\bmonthly\b|\bmonatlich\b|\bmensuel\b|\/\s*m\b/i;
const YEAR_RE =
  /(?:\/|\bper\b|\ba\b|\beach\b|\bevery\b)\s*(?:seat|user|member|editor|agent|host|node|license|licence|employee|creator|admin|contact)?\s*\/?\s*(?:year|yr|annum|jahr|año|anno|jaar)\b|\/\s*y\b|\byearly\b|\bannually\b|\bannual\b|\bper annum\b/i;
const BILLED_YEARLY_RE =
  /\bbilled\s+(?:annually|yearly|per year|once a year|every year)\b|\bpaid\s+(?:annually|yearly)\b/i;
const ONE_TIME_RE = /\bone[- ]time\b|\blifetime\b|\bonce\b|\bpay once\b/i;
const UNIT_RE =
  /(?:\/|\bper\b|\beach\b|\ba\b)\s*(seat|user|member|editor|agent|host|node|license|licence|employee|creator|admin|contact|workspace|project|site|server|device|location|builder|learner)s?\b/i;
const CUSTOM_RE =
  /\b(custom(?:\s+pricing|\s+price|\s+quote)?|contact\s+(?:us|sales|our sales team)|talk\s+to\s+(?:us|sales)|let'?s\s+talk|get\s+(?:a\s+)?quote|request\s+(?:a\s+)?(?:quote|pricing|demo)|on\s+request|call\s+us|book\s+a\s+(?:call|demo)|tailored|bespoke|pricing\s+upon\s+request|speak\s+to\s+sales)\b/i;
const FREE_RE = /^(?:free|free forever|\$0|0|gratis|free plan)$/i;

/** Reads a price from the text of a plan card or table cell (see the rule at the top of this file). */
export function readPrice(text: string): PriceRead | null {
  const t = clean(text);
  if (!t) return null;
  const m = PRICE_RE.exec(t);
  if (m) {
    const sym = m[1] ?? m[4] ?? "";
    const amount = parseNumber(m[2] ?? m[3] ?? "");
    if (!Number.isFinite(amount)) return null;
    const currency = currencyOf(sym);
    const after = t.slice(m.index + m[0].length, m.index + m[0].length + 48);
    const around = t.slice(Math.max(0, m.index - 20), m.index + m[0].length + 60);
    const read: PriceRead = { amount };
    if (currency) read.currency = currency;
    const unit = UNIT_RE.exec(after);
    if (unit) read.unit = unit[1]!.toLowerCase().replace("licence", "license");
    const mo = MONTH_RE.exec(after);
    const yr = YEAR_RE.exec(after);
    const billedYearly = BILLED_YEARLY_RE.test(around);
    if (mo && (!yr || mo.index <= yr.index)) {
      read.period = billedYearly ? "year" : "month";
    } else if (yr) {
      read.amount = Math.round((amount / 12) * 100) / 100;
      read.period = "year";
    } else if (ONE_TIME_RE.test(after)) {
      read.period = "one_time";
    }
    read.text = clean(t.slice(m.index, m.index + m[0].length + Math.min(after.length, 40)));
    return read;
  }
  if (t.length <= 24 && (FREE_RE.test(t) || /^free(\s+(forever|plan|tier|for ever))?!?$/i.test(t)))
    return { amount: 0, text: t };
  if (t.length <= 60 && CUSTOM_RE.test(t)) return { amount: null, custom: true, text: t };
  return null;
}

// ---- plan cards ----------------------------------------------------------------------------------------

const TITLE_CLASS =
  /(^|[\s_-])(plan|tier|package|pricing|price-card|card)?[-_]?(name|title|heading|label)([\s_-]|$)/i;
const PRICE_CLASS = /(^|[\s_-])(price|pricing|amount|cost|fee)/i;
const CTA_RE =
  /^(start|get|try|buy|sign ?up|subscribe|choose|select|upgrade|book|contact|talk|request|join|create|go|learn more|see|compare)\b/i;

/** The plan name of a card: its first heading (document order), or an element whose class says
 *  title/name. */
export function cardTitle(card: El): { el: El; text: string } | null {
  // an element classed as the plan's name beats a heading (which may be a tagline)
  const named = findFirst(card, (e) => PLAN_NAME_CLASS.test(attr(e, "class")) && !!textOf(e));
  if (named && textOf(named).length <= 60) return { el: named, text: textOf(named) };
  const h = findFirst(card, (e) => HEADING.has(e.tagName) && !!textOf(e));
  if (h) return { el: h, text: textOf(h) };
  for (const el of descendants(card)) {
    const cls = attr(el, "class");
    if (cls && TITLE_CLASS.test(cls) && !PRICE_CLASS.test(cls)) {
      const t = textOf(el);
      if (t && t.length <= 60) return { el, text: t };
    }
  }
  return null;
}

const PLAN_NAME_CLASS = /(plan|tier|package|product)[-_]*(name|title)\b|(plan|tier)[-_]?(name|title)/i;

const BADGE_RE =
  /^(most popular|popular|recommended|best value|best deal|new|save \d+%?.*|\d+% off|limited offer|most chosen|top pick)$/i;

/** Without a heading or title class (utility-class markup): the first short line before the price. */
function looseTitle(card: El): string | null {
  for (const line of leafLines(card)) {
    if (BADGE_RE.test(line)) continue;
    if (line.length > 40 || readPrice(line) || CTA_RE.test(line)) return null;
    return line;
  }
  return null;
}

function stripBadges(name: string): string {
  return clean(name.replace(/\b(most popular|recommended|best value|popular|new)\b/gi, "")) || name;
}

const CURRENCY_ONLY = new RegExp(`^${SYM}$`, "u");
const PERIOD_NOTE =
  /^(?:\/|per\b|a\s|each\b|billed|paid|monthly|yearly|annually|annual|mo\b|month|year|user|seat|one[- ]time|excl|incl|\+ ?vat|vat|usd|eur|gbp)/i;

/** The price read of a card: the first line (leaf text) that holds a price, "free" or a custom marker,
 *  read together with the short period/billing notes that follow it ("/ year", "Billed annually"). */
function cardPrice(card: El, titleEl: El | null, titleText?: string): PriceRead | null {
  const ls = leafLines(card, titleEl).filter((l) => l !== titleText);
  for (let i = 0; i < ls.length; i++) {
    let line = ls[i]!;
    if (line.length > 160) continue;
    let next = i + 1;
    // a currency symbol in its own element: "$" | "29" | "/mo"
    if (CURRENCY_ONLY.test(line) && next < ls.length && /^\d/.test(ls[next]!)) {
      line = `${line}${ls[next]}`;
      next++;
    }
    let ctx = line;
    for (let j = next; j < Math.min(ls.length, next + 2); j++) {
      if (ls[j]!.length <= 40 && PERIOD_NOTE.test(ls[j]!)) ctx += ` ${ls[j]}`;
      else break;
    }
    const r = readPrice(ctx);
    if (r) return r;
  }
  return null;
}

/** textContent with a space between block children (so "US$24,000" and "/ year" in two divs stay apart). */
export function spacedText(el: El): string {
  const parts: string[] = [];
  const walk = (n: Node) => {
    if (n.nodeType === 3) {
      parts.push(n.nodeValue ?? "");
      return;
    }
    if (n.nodeType !== 1) return;
    const e = n as El;
    const block = !isInline(e);
    if (block) parts.push(" ");
    for (const c of e.childNodes) walk(c);
    if (block) parts.push(" ");
  };
  walk(el);
  return clean(parts.join(""));
}

/** Plan features of a card: its list items; without lists, short lines after the price that are not CTAs. */
function cardFeatures(card: El, name: string): string[] {
  const out: string[] = [];
  const all = descendants(card);
  for (const li of all) {
    if (li.tagName !== "LI" || findFirst(li, isTag("li"))) continue;
    const t = textOf(li);
    if (t && t.length <= 200 && t !== name) out.push(t);
  }
  if (out.length) return dedupe(out);
  // Webflow-style: repeated divs with a "feature"/"list-item" class
  for (const el of all) {
    const cls = attr(el, "class");
    if (
      /(feature|list-item|benefit|include|check)/i.test(cls) &&
      !findFirst(el, (e) => /(feature|list-item)/i.test(attr(e, "class")))
    ) {
      const t = textOf(el);
      if (t && t.length <= 200 && !CTA_RE.test(t)) out.push(t);
    }
  }
  return dedupe(out);
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}

const BILLING_ATTRS = [
  "class",
  "data-period",
  "data-billing",
  "data-frequency",
  "data-interval",
  "data-cycle",
  "data-term",
  "data-billing-period",
  "x-show",
  "v-show",
  "v-if",
  "data-show",
];

/** Which billing alternative an element is marked as (class, data-* or a toggle's show condition). */
function billingMark(el: El): "annual" | "monthly" | null {
  for (const name of BILLING_ATTRS) {
    const v = attr(el, name);
    if (!v) continue;
    const neg = name !== "class" && name.startsWith("data-") === false && /^\s*!/.test(v);
    if (/annual|yearly|\byear\b|\byr\b/i.test(v)) return neg ? "monthly" : "annual";
    if (/monthly|\bmonth\b|\bmo\b/i.test(v)) return neg ? "annual" : "monthly";
  }
  return null;
}

/** When a card carries both a monthly and an annual price (a billing toggle), keeps the monthly one. */
function withoutAlternatives(card: El): El {
  const all = descendants(card);
  const marks = all.map((e) => billingMark(e));
  if (!marks.includes("annual") || !marks.includes("monthly")) return card;
  const copy = card.cloneNode(true);
  for (const e of descendants(copy)) if (billingMark(e) === "annual") e.remove();
  return copy;
}

/** Removes struck-through prices (the "was" price of a discount) before reading a card. */
function withoutStruck(card: El): El {
  const struck = isTag("del", "s", "strike");
  if (!findFirst(card, struck)) return card;
  const copy = card.cloneNode(true);
  for (const el of descendants(copy).filter(struck)) el.remove();
  return copy;
}

/** A plan from a card element, or null when the card carries no price, free or custom marker. `loose`:
 *  accept a card without heading or title class, named by its first short line. */
export function planFromCard(cardIn: El, loose = false): Plan | null {
  const card = withoutAlternatives(withoutStruck(cardIn));
  let title = cardTitle(card);
  if (!title && loose) {
    const t = looseTitle(card);
    if (t) title = { el: null as unknown as El, text: t };
  }
  if (!title) return null;
  const name = stripBadges(title.text);
  if (name.length > 60 || (/\d/.test(name) && PRICE_RE.test(name))) return null;
  let read = title.el ? cardPrice(card, title.el) : cardPrice(card, null, title.text);
  if (!read && /^free\b/i.test(name)) read = { amount: 0 };
  if (!read) return null;
  const plan: Plan = { name, price: read.amount, features: cardFeatures(card, title.text) };
  if (read.currency) plan.currency = read.currency;
  if (read.period) plan.period = read.period;
  if (read.unit) plan.unit = read.unit;
  if (read.custom) plan.custom = true;
  return plan;
}

// ---- comparison tables -----------------------------------------------------------------------------------

const YES = /^(✓|✔|✔️|☑|yes|included|✅|●|•)$/i;
const NO = /^(—|–|-|✗|✕|×|no|not included|n\/a|❌|)$/i;
const PRICE_LABEL =
  /^(price|pricing|cost|monthly|per month|billed monthly|monthly price|price per month|\$|plan price)\b/i;

/** Plans from a comparison table: plan names across the header row, one row holding prices. Also the
 *  transposed layout (plans down the first column, a "Price" column). Rows are cell texts. */
export function plansFromTable(rows: string[][]): Plan[] {
  if (rows.length < 2) return [];
  const header = rows[0]!;
  // Layout 0: prices inside the header cells ("Pro $29/mo")
  const headPlans: Plan[] = [];
  for (let c = 1; c < header.length; c++) {
    const cell = clean(header[c]);
    const m = PRICE_RE.exec(cell) ?? CUSTOM_RE.exec(cell);
    const name = m ? stripBadges(clean(cell.slice(0, m.index))) : "";
    if (!name || name.length > 60) continue;
    const read = readPrice(cell.slice(m!.index));
    if (!read) continue;
    const plan: Plan = { name, price: read.amount, features: [] };
    if (read.currency) plan.currency = read.currency;
    if (read.period) plan.period = read.period;
    if (read.unit) plan.unit = read.unit;
    if (read.custom) plan.custom = true;
    for (let r = 1; r < rows.length; r++) {
      const label = clean(rows[r]![0] ?? "");
      const v = clean(rows[r]![c] ?? "");
      if (!label) continue;
      if (YES.test(v)) plan.features.push(label);
      else if (!NO.test(v) && !CTA_RE.test(v)) plan.features.push(`${label}: ${v}`);
    }
    headPlans.push(plan);
  }
  if (headPlans.length >= 2) return headPlans;
  // Layout 1: header = [label?, plan, plan, …]
  const priceRowIdx = rows.findIndex(
    (r, i) =>
      i > 0 &&
      r.length >= 2 &&
      (PRICE_LABEL.test(r[0] ?? "") || r.slice(1).filter((c) => readPrice(c)?.amount != null).length >= 2),
  );
  if (priceRowIdx > 0 && header.length >= 3) {
    const priceRow = rows[priceRowIdx]!;
    const offset = header.length === priceRow.length ? 1 : header.length + 1 === priceRow.length ? 0 : 1;
    const plans: Plan[] = [];
    for (let c = 1; c < priceRow.length; c++) {
      const name = stripBadges(clean(header[c - 1 + offset] ?? ""));
      if (!name || name.length > 60) continue;
      const read = readPrice(priceRow[c] ?? "") ?? (/^free\b/i.test(name) ? { amount: 0 } : null);
      if (!read) continue;
      const plan: Plan = { name, price: read.amount, features: [] };
      if (read.currency) plan.currency = read.currency;
      if (read.period) plan.period = read.period;
      if (read.unit) plan.unit = read.unit;
      if (read.custom) plan.custom = true;
      for (let r = 1; r < rows.length; r++) {
        if (r === priceRowIdx) continue;
        const label = clean(rows[r]![0] ?? "");
        const cell = clean(rows[r]![c] ?? "");
        if (!label || rows[r]!.length < 2) continue;
        if (YES.test(cell)) plan.features.push(label);
        else if (!NO.test(cell) && !CTA_RE.test(cell)) plan.features.push(`${label}: ${cell}`);
      }
      plans.push(plan);
    }
    if (plans.length >= 2) return plans;
  }
  // Layout 2: header = [Plan, Price, …], one plan per row
  const priceCol = header.findIndex((h) => PRICE_LABEL.test(clean(h)));
  if (priceCol > 0) {
    const plans: Plan[] = [];
    for (const r of rows.slice(1)) {
      const name = clean(r[0] ?? "");
      const read = readPrice(r[priceCol] ?? "");
      if (!name || !read) continue;
      const plan: Plan = { name, price: read.amount, features: [] };
      if (read.currency) plan.currency = read.currency;
      if (read.period) plan.period = read.period;
      if (read.unit) plan.unit = read.unit;
      if (read.custom) plan.custom = true;
      r.forEach((cell, i) => {
        if (i === 0 || i === priceCol) return;
        const label = clean(header[i] ?? "");
        if (label && YES.test(cell)) plan.features.push(label);
        else if (label && !NO.test(clean(cell))) plan.features.push(`${label}: ${clean(cell)}`);
      });
      plans.push(plan);
    }
    if (plans.length >= 2) return plans;
  }
  return [];
}

/** Feature rows of a comparison table without prices, keyed by plan name (merged into card plans). */
export function tableFeaturesByPlan(rows: string[][], names: Set<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (rows.length < 2) return out;
  const header = rows[0]!.map((h) => stripBadges(clean(h)));
  const cols = header.map((h, i) => (names.has(h) ? i : -1)).filter((i) => i >= 0);
  if (cols.length < 2) return out;
  for (const r of rows.slice(1)) {
    const label = clean(r[0] ?? "");
    if (!label) continue;
    for (const c of cols) {
      const idx = r.length === header.length ? c : c - (header.length - r.length);
      const cell = clean(r[idx] ?? "");
      const list = out.get(header[c]!) ?? [];
      if (YES.test(cell)) list.push(label);
      else if (!NO.test(cell) && !CTA_RE.test(cell)) list.push(`${label}: ${cell}`);
      out.set(header[c]!, list);
    }
  }
  return out;
}
