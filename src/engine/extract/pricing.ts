// Pricing plans from plan cards and comparison tables.
//
// The price rule (documented in docs/engine/extract.md): `price` is a monthly figure.
// - "$59 / month", "$59/mo", "$59 per seat per month": price 59, period "month".
// - A monthly figure the card says is "billed annually" ("$49/mo, billed annually") stays 49; period "year".
// - A yearly figure ("$24,000 / year", "$588 billed annually", "per annum") is divided by 12 (rounded to
//   cents); period "year". Only an explicit yearly marker triggers the division.
// - "one-time", "lifetime", "once": the amount as is, period "one_time".
// - No period stated: the amount as is, no period ("$0 forever" is a free plan: price 0).
// - "Free" as the price, or $0: price 0. "Custom", "Contact sales", "Let's talk" (any apostrophe), "Get in
//   touch", "Call for pricing", "Get a quote" with no amount: price null, custom true.
// - "From $29", "Starting at $29": the price, starting true (the lowest price of the plan, not its only one).
// - A yearly figure keeps what the page states: `amount` is the yearly figure ("$5k/yr" → 5000, price 416.67).
// - A metered rate ("$0.50 per 1,000 events", "$0.02 / GB") is no plan price: readUsage reads it.
// - When a page toggles monthly/annual prices, the monthly-billed price is the plan's price and the yearly-
//   billed one its `annual` alternative (hidden alternatives are handed over by stripNonContent). Both terms
//   stated in words ("$12/mo billed annually, or $15/mo billed monthly", "Pay annually $300/year") read the same.
// - A sale or introductory price is the price in force; the price it replaces (struck through, "Usually $25",
//   "Renews at $9.99/mo") is `regular`, on the same basis as `price`, and the offer's term ("for 3 months")
//   `sale_term`.
// - A purchase price offered with monthly financing ("Monthly financing available") has no period:
//   `financing` true.
import {
  attr,
  clean,
  descendants,
  type El,
  findFirst,
  HEADING,
  hasText,
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
  /** "From $X" / "Starting at $X": the plan's lowest price. */
  starting?: boolean;
  /** The yearly figure the page states when `period` is "year" (price is that figure / 12). */
  amount?: number;
  /** The same plan billed yearly, when the page offers both (a monthly/annual toggle): its monthly figure
   *  and yearly total. Set only when `price` is the monthly-billed one. */
  annual?: { price: number; amount: number };
  /** The regular price beside a sale or introductory one (same basis as `price`). */
  regular?: number;
  /** The term of the sale or introductory price, as the page states it ("for 3 months"). */
  sale_term?: string;
  /** A purchase price the page offers with monthly financing. */
  financing?: boolean;
  /** The page the plan was read from, when a pricing read gathers plans from several pages. */
  page?: string;
}

export interface PriceRead {
  amount: number | null;
  currency?: string;
  period?: "month" | "year" | "one_time";
  unit?: string;
  custom?: boolean;
  starting?: boolean;
  /** The yearly figure as stated, for a yearly price. */
  yearly?: number;
  /** The matched price text, for evidence. */
  text?: string;
  regular?: number;
  saleTerm?: string;
  financing?: boolean;
}

/** A metered rate beside the plans ("$0.50 per 1,000 events"): not a plan price. */
export interface UsagePrice {
  price: number;
  currency?: string;
  /** What one price unit buys: "1,000 events", "GB". */
  per: string;
  /** The plan or row it belongs to, when the page says. */
  plan?: string;
  text: string;
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

const NUMBER_SPACES = /[\u202F\u00A0 ]/g;
const DECIMAL_COMMA_END = /,\d{1,2}$/;
const DECIMAL_POINT_END = /\.\d{1,2}$/;
const DOTS = /\./g;
const COMMAS = /,/g;
const DOT_THOUSANDS = /^\d{1,3}(\.\d{3})+$/;

function parseNumber(raw: string): number {
  let s = raw.replace(NUMBER_SPACES, "");
  // "1.234,56" or "29,99" (decimal comma) vs "1,234.56" / "24,000"
  if (DECIMAL_COMMA_END.test(s) && !DECIMAL_POINT_END.test(s)) s = s.replace(DOTS, "").replace(",", ".");
  else s = s.replace(COMMAS, "");
  if (DOT_THOUSANDS.test(s)) s = s.replace(DOTS, ""); // "24.000" European thousands
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
export const CUSTOM_RE =
  /\b(custom(?:\s+pricing|\s+price|\s+quote|\s+plan)?|contact\s+(?:us|sales|our\s+sales(?:\s+team)?|for\s+(?:pricing|a\s+quote))|talk\s+to\s+(?:us|sales|an?\s+expert|our\s+(?:sales\s+)?team)|let[’'‘`]?s\s+(?:talk|chat)|get\s+in\s+touch|reach\s+out|get\s+(?:a\s+)?quote|request\s+(?:a\s+)?(?:quote|pricing|demo)|on\s+request|call\s+(?:us|for\s+(?:pricing|a\s+quote))|book\s+a\s+(?:call|demo)|schedule\s+a\s+(?:call|demo)|tailored|bespoke|pricing\s+(?:upon|on)\s+request|price\s+on\s+request|speak\s+(?:to|with)\s+(?:sales|us|an?\s+expert|our\s+team))\b/i;
const FREE_RE = /^(?:free|free forever|\$0|0|gratis|free plan)$/i;

const STARTING_BEFORE =
  /\b(?:from|starting\s+(?:at|from)|starts\s+at|as\s+low\s+as|ab|dès|à\s+partir\s+de|a\s+partir\s+de|desde|vanaf|da)\s*:?\s*$/i;
/** "$5k/yr", "$1.2k per year": a k-figure is a price only with a period right after it. */
const K_PRICE_RE = new RegExp(
  String.raw`(${SYM})\s?(\d{1,3}(?:[.,]\d{1,2})?)\s?[kK](?=\s*(?:\/|per\b|a\b|billed\b|paid\b)\s*(?:year|yr|annum|annually|yearly|month|mo)\b)`,
  "u",
);
const PERIOD_WORD =
  /^(?:month|mo|mth|mon|year|yr|annum|week|wk|day|monat|mois|mes|mese|maand|jahr|año|anno|jaar)s?$/i;
const PLAN_UNITS =
  /^(?:seat|user|member|editor|agent|host|node|license|licence|employee|creator|admin|contact|workspace|project|site|server|device|location|builder|learner|team|organization|organisation|account|brand|store|domain)s?$/i;
// after the amount: "per 1,000 events", "/ GB", "/1k requests", "for every 100 credits"
const USAGE_AFTER =
  /^\s*(?:\/|per\b|for\s+(?:each|every)\b|each\b)\s*(?:(\d[\d.,]*\s?[kKmM]?|one|an?|each|every|additional|extra)\s+)?([A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*)?)/;

const WHITESPACE = /\s+/;
const NOT_A_UNIT_NOUN = /^(the|a|an|and|or|with|billed|paid|plus|excl|incl|vat|tax)$/i;
const NOT_A_UNIT_WORD =
  /^(and|or|with|for|per|plus|on|in|of|after|over|beyond|billed|paid|each|a|an|the|to|then|monthly|extra|stored|sent|used|processed)$/i;
const ONE_OF = /^(one|an?|each|every)$/i;

/** The metered unit after an amount ("1,000 events", "GB"), or null when the amount is not a metered rate. */
function usageUnit(after: string): string | null {
  if (MONTH_RE.test(after.slice(0, 40)) || YEAR_RE.test(after.slice(0, 40))) return null;
  const m = USAGE_AFTER.exec(after);
  if (!m) return null;
  const words = m[2]!.split(WHITESPACE);
  // "API call", but "GB" of "GB stored" or "GB and …"
  const noun = words[0]!;
  if (PERIOD_WORD.test(noun) || PLAN_UNITS.test(noun)) return null;
  if (NOT_A_UNIT_NOUN.test(noun)) return null;
  const second = words[1];
  const unit = second && !NOT_A_UNIT_WORD.test(second) ? `${noun} ${second}` : noun;
  const per = m[1] && !ONE_OF.test(m[1]) ? `${m[1]} ${unit}` : unit;
  return clean(per);
}

function readAmount(t: string): { index: number; length: number; sym: string; amount: number } | null {
  const k = K_PRICE_RE.exec(t);
  const m = PRICE_RE.exec(t);
  if (k && (!m || k.index <= m.index))
    return { index: k.index, length: k[0].length, sym: k[1]!, amount: parseNumber(k[2]!) * 1000 };
  if (!m) return null;
  return {
    index: m.index,
    length: m[0].length,
    sym: m[1] ?? m[4] ?? "",
    amount: parseNumber(m[2] ?? m[3] ?? ""),
  };
}

const STARTING_PRICE_AFTER = /^\s*starting\s+price\b/i;
const FREE_WORDS = /^free(\s+(forever|plan|tier|for ever))?!?$/i;
const QUESTION_END = /\?$/;

/** Reads a price from the text of a plan card or table cell (see the rule at the top of this file). */
export function readPrice(text: string): PriceRead | null {
  const t = clean(text);
  if (!t) return null;
  const m = readAmount(t);
  if (m) {
    const amount = m.amount;
    if (!Number.isFinite(amount)) return null;
    const end = m.index + m.length;
    const after = t.slice(end, end + 48);
    if (usageUnit(after)) return readPrice(t.slice(end)); // a metered rate: the plan price may follow
    const currency = currencyOf(m.sym);
    const around = t.slice(Math.max(0, m.index - 20), end + 60);
    const read: PriceRead = { amount };
    if (currency) read.currency = currency;
    if (STARTING_BEFORE.test(t.slice(Math.max(0, m.index - 24), m.index)) || STARTING_PRICE_AFTER.test(after))
      read.starting = true;
    const unit = UNIT_RE.exec(after);
    if (unit) read.unit = unit[1]!.toLowerCase().replace("licence", "license");
    const mo = MONTH_RE.exec(after);
    const yr = YEAR_RE.exec(after);
    const billedYearly = BILLED_YEARLY_RE.test(around);
    if (mo && (!yr || mo.index <= yr.index)) {
      read.period = billedYearly ? "year" : "month";
      if (billedYearly) read.yearly = Math.round(amount * 12 * 100) / 100;
    } else if (yr) {
      read.amount = Math.round((amount / 12) * 100) / 100;
      read.period = "year";
      read.yearly = amount;
    } else if (ONE_TIME_RE.test(after)) {
      read.period = "one_time";
    }
    read.text = clean(t.slice(m.index, end + Math.min(after.length, 40)));
    return read;
  }
  if (t.length <= 24 && (FREE_RE.test(t) || FREE_WORDS.test(t))) return { amount: 0, text: t };
  // a marker, not a sentence that mentions one ("Yes. Talk to us and we will size a plan")
  if (t.length <= 40 && !QUESTION_END.test(t) && CUSTOM_RE.test(t))
    return { amount: null, custom: true, text: t };
  return null;
}

// an amount with any number of decimals ("$0.002"), for metered rates
const RATE_RE = new RegExp(
  String.raw`(?:(${SYM})\s?(\d+(?:[.,]\d+)?|[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?)(?![\d.,])|(?<![\d.,])(\d+(?:[.,]\d+)?)\s?(${SYM})(?![A-Za-z]))`,
  "gu",
);

const DIGIT = /\d/;
const LEADING_ZERO_DECIMAL = /^0[.,]/;

/** Metered rates in a line of text ("$0.50 per 1,000 events", "$0.02 / GB", "€0,002 per call"). */
export function readUsage(text: string, plan?: string): UsagePrice[] {
  const t = clean(text);
  if (!t || t.length > 400 || !DIGIT.test(t)) return [];
  const out: UsagePrice[] = [];
  for (const m of t.matchAll(RATE_RE)) {
    const end = m.index + m[0].length;
    const per = usageUnit(t.slice(end, end + 48));
    if (!per) continue;
    const raw = (m[2] ?? m[3] ?? "").replace(NUMBER_SPACES, "");
    // a rate's decimals ("0.002", "0,002") are never a thousands group
    const price = LEADING_ZERO_DECIMAL.test(raw) ? Number(raw.replace(",", ".")) : parseNumber(raw);
    if (!Number.isFinite(price)) continue;
    const u: UsagePrice = { price, per, text: clip(t, 200) };
    const currency = currencyOf(m[1] ?? m[4] ?? "");
    if (currency) u.currency = currency;
    if (plan) u.plan = plan;
    out.push(u);
  }
  return out;
}

function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}

// ---- plan cards ----------------------------------------------------------------------------------------

const TITLE_CLASS =
  /(^|[\s_-])(plan|tier|package|pricing|price-card|card)?[-_]?(name|title|heading|label)([\s_-]|$)/i;
const PRICE_CLASS = /(^|[\s_-])(price|pricing|amount|cost|fee)/i;
const CTA_RE =
  /^(start|get|try|buy|sign ?up|subscribe|choose|select|upgrade|book|contact|talk|request|join|create|go|learn more|see|compare)\b/i;
const LEADING_DIGIT = /^\d/;

/** The plan name of a card: its first heading (document order), or an element whose class says
 *  title/name. */
export function cardTitle(card: El): { el: El; text: string } | null {
  // an element classed as the plan's name beats a heading (which may be a tagline)
  const named = findFirst(card, (e) => PLAN_NAME_CLASS.test(attr(e, "class")) && hasText(e));
  // a name element that also holds a tagline ("Standard Hosting" + "On sale"): its heading is the name
  const namedHeading = named && findFirst(named, (e) => HEADING.has(e.tagName) && hasText(e));
  if (namedHeading) return { el: namedHeading, text: textOf(namedHeading) };
  if (named && textOf(named).length <= 60) return { el: named, text: textOf(named) };
  const h = findFirst(card, (e) => HEADING.has(e.tagName) && hasText(e));
  // a plan form's fieldset legend names it ahead of a heading that states a quota ("50 Runs/mo")
  if (!h || LEADING_DIGIT.test(textOf(h))) {
    const legend = findFirst(card, (e) => e.tagName === "LEGEND" && hasText(e));
    if (legend && textOf(legend).length <= 60) return { el: legend, text: textOf(legend) };
  }
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
const FREE_WORD = /^free$/i;

/** Without a heading or title class (utility-class markup): the first short line before the price. */
function looseTitle(card: El): string | null {
  for (const line of leafLines(card)) {
    if (BADGE_RE.test(line)) continue;
    if (FREE_WORD.test(line)) return line; // the Free plan, its price on a later line
    if (line.length > 40 || readPrice(line) || CTA_RE.test(line)) return null;
    return line;
  }
  return null;
}

const BADGE_WORDS = /\b(most popular|recommended|best value|popular|new)\b/gi;

function stripBadges(name: string): string {
  return clean(name.replace(BADGE_WORDS, "")) || name;
}

const CURRENCY_ONLY = new RegExp(`^${SYM}$`, "u");
const PERIOD_NOTE =
  /^(?:\/|per\b|a\s|each\b|billed|paid|monthly|yearly|annually|annual|mo\b|month|year|user|seat|one[- ]time|excl|incl|\+ ?vat|vat|usd|eur|gbp|starting\s+price\b)/i;
/** A note that the price may be paid over time: not the price's period. */
const FINANCING_RE = /\bfinanc(?:ing|e)\b|\binstal?lments?\b|\bpay\s+over\s+time\b/i;
/** The price a sale or introductory price replaces, named before its amount. */
const REGULAR_RE = new RegExp(
  String.raw`\b(?:usually|normally|regularly|originally|was|regular(?:\s+price)?|list\s+price|renews\s+at|renewing\s+at)\s*:?\s*(${SYM}\s?${NUM}(?:\s*(?:\/\s*|per\s+)(?:mo|month|yr|year)\b\.?)?)`,
  "iu",
);
const REGULAR_HINT = /usually|normally|regular|originally|\bwas\b|list\s+price|renew/i;
/** The term of a sale or introductory price ("for 3 months", "for the first year", "first month"). */
const SALE_TERM_RE =
  /^(?:for\s+(?:the\s+)?(?:first\s+)?(?:\d+|one|two|three|six|twelve)?\s*(?:months?|years?|term)|(?:the\s+)?first\s+(?:\d+\s+)?(?:months?|years?|term))\b[^.]{0,20}$/i;
/** "Starting at" as a line of its own. */
const STARTING_LINE = /^(?:from|starting\s+(?:at|from)|starts\s+at|as\s+low\s+as)\s*:?$/i;

/** The price read of a card: the first line (leaf text) that holds a price, "free" or a custom marker,
 *  read together with the short period/billing notes that follow it ("/ year", "Billed annually"). */
function cardPrice(card: El, titleEl: El | null, titleText?: string): PriceRead | null {
  const ls = leafLines(card, titleEl).filter((l) => l !== titleText);
  let regular: number | undefined;
  for (let i = 0; i < ls.length; i++) {
    let line = ls[i]!;
    if (line.length > 160) continue;
    // "Usually $25/mo": the regular price; the price in force follows
    const reg = REGULAR_HINT.test(line) ? REGULAR_RE.exec(line) : null;
    if (reg) {
      const r = readPrice(reg[1]!);
      if (r?.amount != null) regular = r.amount;
      line = clean(`${line.slice(0, reg.index)} ${line.slice(reg.index + reg[0].length)}`);
      if (!line || !readAmount(line)) continue;
    }
    let next = i + 1;
    // a currency symbol in its own element: "$" | "29" | "/mo"
    if (CURRENCY_ONLY.test(line) && next < ls.length && LEADING_DIGIT.test(ls[next]!)) {
      line = `${line}${ls[next]}`;
      next++;
    }
    let ctx = line;
    // "Starting at" in its own element before the amount
    if (i > 0 && STARTING_LINE.test(ls[i - 1]!)) ctx = `${ls[i - 1]} ${ctx}`;
    for (let j = next; j < Math.min(ls.length, next + 2); j++) {
      if (ls[j]!.length <= 40 && PERIOD_NOTE.test(ls[j]!) && !FINANCING_RE.test(ls[j]!)) ctx += ` ${ls[j]}`;
      else break;
    }
    const r = readPrice(ctx);
    if (!r) continue;
    if (r.amount !== null) {
      // after the price: its term and the regular price it replaces ("for the first year", "Renews at $9.99/mo")
      let term: string | undefined;
      for (let j = i + 1; j < Math.min(ls.length, i + 5); j++) {
        const l = ls[j]!;
        const rr = REGULAR_HINT.test(l) ? REGULAR_RE.exec(l) : null;
        if (rr && regular === undefined) {
          const v = readPrice(rr[1]!);
          if (v?.amount != null) regular = v.amount;
        } else if (!term && SALE_TERM_RE.test(l)) term = l;
      }
      if (regular !== undefined && regular !== r.amount) {
        r.regular = regular;
        if (term) r.saleTerm = term;
      }
      if ((r.period === undefined || r.period === "one_time") && ls.some((l) => FINANCING_RE.test(l)))
        r.financing = true;
    }
    return r;
  }
  return null;
}

const FEATURE_CLASS = /(feature|list-item|benefit|include|check)/i;
const FEATURE_ITEM_CLASS = /(feature|list-item)/i;

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
    if (FEATURE_CLASS.test(cls) && !findFirst(el, (e) => FEATURE_ITEM_CLASS.test(attr(e, "class")))) {
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
  "id",
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

const NEGATED = /^\s*!/;
const ANNUAL_MARK = /annual|yearly|\byear\b|\byr\b/i;
const MONTHLY_MARK = /monthly|\bmonth\b|\bmo\b/i;

/** Which billing alternative an element is marked as (class, data-* or a toggle's show condition). */
export function billingMark(el: El): "annual" | "monthly" | null {
  for (const name of BILLING_ATTRS) {
    const v = attr(el, name);
    if (!v) continue;
    const neg = name !== "class" && name.startsWith("data-") === false && NEGATED.test(v);
    if (ANNUAL_MARK.test(v)) return neg ? "monthly" : "annual";
    if (MONTHLY_MARK.test(v)) return neg ? "annual" : "monthly";
  }
  return null;
}

/** A hidden element marked as a billing alternative (the annual price behind a toggle), removed from the
 *  tree with the other hidden elements; `parent` and `next` say where it was. */
export interface HiddenAlternative {
  el: El;
  parent: El;
  next: Node | null;
  mark: "annual" | "monthly";
}

function within(el: El, root: El): boolean {
  for (let e: El | null = el; e; e = e.parentElement) if (e === root) return true;
  return false;
}

/** The card as a visitor sees it with the other billing period chosen: hidden alternatives inside it put
 *  back, the visible ones of the shown period left out. */
function otherPeriodView(card: El, hidden: HiddenAlternative[], show: "annual" | "monthly"): El | null {
  const inside = hidden.filter((h) => h.mark === show && within(h.parent, card));
  const visible = descendants(card).map((e) => billingMark(e));
  const shownAnnual = visible.includes("annual");
  const shownMonthly = visible.includes("monthly");
  if (!inside.length && !(shownAnnual && shownMonthly)) return null;
  for (const h of inside)
    h.parent.insertBefore(h.el, h.next && h.next.parentNode === h.parent ? h.next : null);
  let copy: El;
  try {
    copy = card.cloneNode(true);
  } finally {
    for (const h of inside) h.el.remove();
  }
  // what the chosen period shows: its own marked parts, never the other period's
  for (const e of descendants(copy))
    if (billingMark(e) === (show === "annual" ? "monthly" : "annual")) e.remove();
  return copy;
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

/** The first struck-through price of a card (the "was" price of a discount). */
function struckPrice(card: El): PriceRead | null {
  if (!findFirst(card, isTag("del", "s", "strike"))) return null;
  for (const el of descendants(card).filter(isTag("del", "s", "strike"))) {
    const r = readPrice(textOf(el));
    if (r?.amount != null) return r;
  }
  return null;
}

/** Removes struck-through prices (the "was" price of a discount) before reading a card. */
function withoutStruck(card: El): El {
  const struck = isTag("del", "s", "strike");
  if (!findFirst(card, struck)) return card;
  const copy = card.cloneNode(true);
  for (const el of descendants(copy).filter(struck)) el.remove();
  return copy;
}

/** A plan read from a price read. */
export function planOf(name: string, read: PriceRead, features: string[] = []): Plan {
  const plan: Plan = { name, price: read.amount, features };
  if (read.currency) plan.currency = read.currency;
  if (read.period) plan.period = read.period;
  if (read.yearly !== undefined && read.period === "year") plan.amount = read.yearly;
  if (read.unit) plan.unit = read.unit;
  if (read.custom) plan.custom = true;
  if (read.starting) plan.starting = true;
  if (read.regular !== undefined) plan.regular = read.regular;
  if (read.saleTerm) plan.sale_term = read.saleTerm;
  if (read.financing) plan.financing = true;
  return plan;
}

/** Sets the yearly-billed alternative of a monthly-billed plan from the read of the other period. */
export function withAnnual(plan: Plan, alt: PriceRead | null): Plan {
  if (!alt || alt.amount === null || plan.price === null || plan.period === "year") return plan;
  if (plan.period === "one_time" || alt.period === "one_time") return plan;
  // a figure shown under the annual choice without its own period is per month, billed yearly
  const monthly = alt.amount;
  if (monthly === plan.price && alt.period !== "year") return plan;
  plan.annual = { price: monthly, amount: alt.yearly ?? Math.round(monthly * 12 * 100) / 100 };
  return plan;
}

const STARTS_FREE = /^free\b/i;

/** A plan from a card element, or null when the card carries no price, free or custom marker. `loose`:
 *  accept a card without heading or title class, named by its first short line. `hidden`: the page's hidden
 *  billing alternatives (read as the plan's other period). */
export function planFromCard(cardIn: El, loose = false, hidden: HiddenAlternative[] = []): Plan | null {
  const struck = struckPrice(cardIn);
  const card = withoutAlternatives(withoutStruck(cardIn));
  // a container of several priced cards is not one plan
  if (loose && leafLines(card).filter((l) => l.length <= 60 && readPrice(l)?.amount != null).length > 2)
    return null;
  let title = cardTitle(card);
  if (!title && loose) {
    const t = looseTitle(card);
    if (t) title = { el: null as unknown as El, text: t };
  }
  if (!title) return null;
  const name = stripBadges(title.text);
  if (name.length > 60 || (DIGIT.test(name) && PRICE_RE.test(name))) return null;
  let read = title.el ? cardPrice(card, title.el) : cardPrice(card, null, title.text);
  if (!read && STARTS_FREE.test(name)) read = { amount: 0 };
  if (!read) return null;
  if (struck && read.amount !== null && read.regular === undefined && struck.amount !== read.amount)
    read.regular = struck.amount!;
  const readView = (v: El | null): PriceRead | null => {
    if (!v) return null;
    const o = withoutStruck(v);
    const t = cardTitle(o);
    return t ? cardPrice(o, t.el) : cardPrice(o, null, title.text);
  };
  // the page shows the yearly-billed price and hides the monthly one: the monthly one is the plan's price
  if (read.amount !== null && read.period === "year") {
    const monthly = readView(otherPeriodView(cardIn, hidden, "monthly"));
    if (monthly && monthly.amount !== null && monthly.period !== "year" && monthly.amount !== read.amount) {
      const yearly = read;
      read = monthly;
      return withAnnual(planOf(name, read, cardFeatures(card, title.text)), yearly);
    }
  }
  // both billing terms stated in words: the monthly-billed price is the plan's, the yearly-billed its alternative
  // the card's lines, read only when it names another billing term at all
  let lines: string | undefined;
  const text = () => {
    lines ??= BILLING_WORDS.test(card.textContent ?? "") ? leafLines(card, title.el ?? null).join(" | ") : "";
    return lines;
  };
  if (read.amount !== null && read.period === "year" && read.yearly !== undefined) {
    const monthly = billedMonthlyIn(text(), read.amount);
    if (monthly !== null) {
      const yearly = read;
      const m: PriceRead = { ...read, amount: monthly, period: "month" };
      delete m.yearly;
      delete m.regular;
      delete m.saleTerm;
      return withAnnual(planOf(name, m, cardFeatures(card, title.text)), yearly);
    }
  }
  const plan = planOf(name, read, cardFeatures(card, title.text));
  if (read.amount !== null && read.period !== "year" && read.period !== "one_time") {
    withAnnual(plan, readView(otherPeriodView(cardIn, hidden, "annual")));
    if (!plan.annual && read.period === "month") withAnnual(plan, billedYearlyIn(text(), read.amount));
  }
  return plan;
}

const BILLING_WORDS = /annual|yearly|monthly|month-to-month|\/\s*y(?:ea)?r\b|per\s+year/i;
const BILLED_MONTHLY_AFTER =
  /^\s*(?:(?:\/\s*|per\s+)(?:mo|month)\b\.?)?\s*,?\s*(?:(?:when|if)\s+)?(?:(?:billed|paid|charged)\s+monthly|month[- ]to[- ]month|monthly\s+billing)/i;
const BILLED_MONTHLY_BEFORE = /(?:pay|billed|paid)\s+monthly\s*:?\s*\|?\s*$/i;
const BILLED_YEARLY_BEFORE = /(?:pay|billed|paid)\s+(?:annually|yearly)\s*:?\s*\|?\s*$/i;
const PRICE_ALL = new RegExp(PRICE_RE.source, "gu");

/** The monthly-billed price a card states in words beside its yearly-billed one ("or $15/mo billed monthly",
 *  "$4 month-to-month", "Pay monthly | $30/month"), or null. */
function billedMonthlyIn(text: string, yearlyMonthly: number): number | null {
  for (const m of text.matchAll(PRICE_ALL)) {
    const end = m.index + m[0].length;
    if (
      !BILLED_MONTHLY_AFTER.test(text.slice(end, end + 40)) &&
      !BILLED_MONTHLY_BEFORE.test(text.slice(Math.max(0, m.index - 24), m.index))
    )
      continue;
    const v = parseNumber(m[2] ?? m[3] ?? "");
    if (Number.isFinite(v) && v !== yearlyMonthly && v > 0) return v;
  }
  return null;
}

/** The yearly-billed alternative a card states in words beside its monthly price ("Pay annually | $300/year",
 *  "$24/mo billed annually"), read as readPrice reads it, or null. */
function billedYearlyIn(text: string, monthly: number): PriceRead | null {
  for (const m of text.matchAll(PRICE_ALL)) {
    const end = m.index + m[0].length;
    const labelled = BILLED_YEARLY_BEFORE.test(text.slice(Math.max(0, m.index - 24), m.index));
    const r = readPrice(text.slice(m.index, end + 48).split(" | ")[0]!);
    if (!r || r.amount === null || r.amount === monthly || r.period !== "year") continue;
    if (labelled || BILLED_YEARLY_RE.test(text.slice(end, end + 40))) return r;
  }
  return null;
}

// ---- comparison tables -----------------------------------------------------------------------------------

const YES = /^(✓|✔|✔️|☑|yes|included|✅|●|•)$/i;
const NO = /^(—|–|-|✗|✕|×|no|not included|n\/a|❌|)$/i;
const PRICE_LABEL =
  /^(price|pricing|cost|monthly|per month|billed monthly|monthly price|price per month|\$|plan price)\b/i;
const STARTING_AT_END = /(?:from|starting\s+(?:at|from)|starts\s+at)\s*:?\s*$/i;

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
    // "Regular Starting at $18/Month": the name before "Starting at", which belongs to the price
    const before = m ? cell.slice(0, m.index) : "";
    const lead = STARTING_AT_END.exec(before);
    const name = m ? stripBadges(clean(before.slice(0, lead ? lead.index : undefined))) : "";
    if (!name || name.length > 60) continue;
    const read = readPrice(cell.slice(lead ? lead.index : m!.index));
    if (!read) continue;
    const plan = planOf(name, read);
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
    // a priced column without a name (an empty cell or a logo): the page's own product beside other companies'
    // products, not a list of its plans
    for (let c = 1; c < priceRow.length; c++)
      if (!clean(header[c - 1 + offset] ?? "") && readPrice(priceRow[c] ?? "")?.amount != null) return [];
    const plans: Plan[] = [];
    for (let c = 1; c < priceRow.length; c++) {
      const name = stripBadges(clean(header[c - 1 + offset] ?? ""));
      if (!name || name.length > 60) continue;
      const read = readPrice(priceRow[c] ?? "") ?? (STARTS_FREE.test(name) ? { amount: 0 } : null);
      if (!read) continue;
      const plan = planOf(name, read);
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
      const plan = planOf(name, read);
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

// ---- tiers outside the grid ----------------------------------------------------------------------------

const TIER_WORD =
  /\b(enterprise|custom|scale|business|corporate|organi[sz]ations?|unlimited|premium|ultimate|dedicated|volume|agency|agencies|government|education|nonprofit|platform|plus|max|elite|private)\b/i;
const NOT_TIER =
  /\?|\b(faq|questions?|help|support|need|ready|looking|get started|still|contact us|talk to|why|how)\b/i;

/** A tier name as a band or table states it: short, a name rather than a question or a call to action. */
function tierName(name: string): boolean {
  return (
    name.length <= 40 && name.split(WHITESPACE).length <= 4 && !NOT_TIER.test(name) && !CTA_RE.test(name)
  );
}

/** Tiers shown beside a plan grid rather than in it (an Enterprise band under the cards): the blocks that
 *  follow the grid (or its containers, up to three levels up) and read as one plan — a name and "Contact
 *  sales"/"Custom" (or a price, for a name that says it is a tier). */
export function tiersBesideGrid(grid: El | null, cards: El[]): Plan[] {
  const out: Plan[] = [];
  let node: El | null = grid;
  for (let level = 0; node && level < 3; level++, node = node.parentElement) {
    if (node.tagName === "MAIN" || node.tagName === "BODY") break;
    let sib = node.nextElementSibling;
    for (let i = 0; sib && i < 3; i++, sib = sib.nextElementSibling) {
      if (cards.some((c) => within(c, sib!) || within(sib!, c))) continue;
      if (findFirst(sib, isTag("table")) || (sib.textContent?.length ?? 0) > 1500) continue;
      const plan = planFromCard(sib);
      if (!plan || !tierName(plan.name) || out.some((p) => p.name === plan.name)) continue;
      if (plan.custom || (plan.price !== null && TIER_WORD.test(plan.name))) out.push(plan);
    }
  }
  return out;
}

const CUSTOM_WORD = /^custom$/i;

/** Contact-sales tiers of a feature table beside the cards: a column named by a tier whose cells say
 *  "Contact sales"/"Let's talk", or a footer row "Enterprise | Contact us". `names`: the card plans. */
export function customTiersOfTable(rows: string[][], names: Set<string>): Plan[] {
  if (rows.length < 2) return [];
  const out: Plan[] = [];
  const header = rows[0]!.map((h) => stripBadges(clean(h)));
  if (header.filter((h) => names.has(h)).length >= 2) {
    for (let c = 1; c < header.length; c++) {
      const name = header[c]!;
      if (!name || names.has(name) || !tierName(name)) continue;
      const off = (r: string[]) => (r.length === header.length ? c : c - (header.length - r.length));
      const custom = rows
        .slice(1)
        .some((r) => readPrice(clean(r[off(r)] ?? ""))?.custom && !CUSTOM_WORD.test(clean(r[off(r)])));
      if (!custom) continue;
      const plan: Plan = { name, price: null, features: [], custom: true };
      for (const r of rows.slice(1)) {
        const label = clean(r[0] ?? "");
        const v = clean(r[off(r)] ?? "");
        if (!label || (CUSTOM_RE.test(v) && CTA_RE.test(v))) continue;
        if (YES.test(v)) plan.features.push(label);
        else if (!NO.test(v) && !CTA_RE.test(v)) plan.features.push(`${label}: ${v}`);
      }
      out.push(plan);
    }
  }
  // the table's last row: "Enterprise | Contact us"
  const cells = rows[rows.length - 1]!.map((x) => clean(x)).filter((x) => x);
  if (cells.length === 2) {
    const [name, v] = cells as [string, string];
    if (
      !names.has(name) &&
      tierName(name) &&
      TIER_WORD.test(name) &&
      !CUSTOM_WORD.test(v) &&
      readPrice(v)?.custom
    )
      if (!out.some((p) => p.name === name)) out.push({ name, price: null, features: [], custom: true });
  }
  return out;
}

// ---- toggle prices kept in attributes ------------------------------------------------------------------

const MONTHLY_ATTRS = ["data-monthly", "data-price-monthly", "data-monthly-price"];
/** The data-* attributes a toggle keeps the other period's price in (also listed for the page signature). */
export const PRICE_DATA_ATTRS = [
  ...MONTHLY_ATTRS,
  "data-yearly",
  "data-annual",
  "data-annually",
  "data-price-yearly",
  "data-price-annual",
  "data-yearly-price",
  "data-annual-price",
];

const NOT_NUMBER_CHARS = /[^\d.,]/g;

function attrNumber(v: string): number | null {
  const s = v.replace(NOT_NUMBER_CHARS, "");
  if (!s) return null;
  const n = Number(DECIMAL_COMMA_END.test(s) ? s.replace(DOTS, "").replace(",", ".") : s.replace(COMMAS, ""));
  return Number.isFinite(n) ? n : null;
}

/** The yearly-billed alternative of plans whose price element keeps both periods in data attributes
 *  (`data-monthly="39" data-yearly="390"`): matched by the monthly figure shown. A yearly figure over three
 *  monthly ones is a yearly total (divided by 12); a smaller one is a monthly figure billed yearly. */
export function annualFromAttributes(content: El, plans: Plan[]): void {
  for (const el of descendants(content)) {
    const mAttr = MONTHLY_ATTRS.find((a) => el.hasAttribute(a));
    if (!mAttr) continue;
    const yAttr = PRICE_DATA_ATTRS.slice(MONTHLY_ATTRS.length).find((a) => el.hasAttribute(a));
    if (!yAttr) continue;
    const monthly = attrNumber(attr(el, mAttr));
    const yearly = attrNumber(attr(el, yAttr));
    if (monthly === null || yearly === null || monthly <= 0) continue;
    const matches = plans.filter(
      (p) => p.price === monthly && p.period !== "year" && p.period !== "one_time",
    );
    if (matches.length !== 1 || matches[0]!.annual) continue;
    const total = yearly > monthly * 3;
    matches[0]!.annual = total
      ? { price: Math.round((yearly / 12) * 100) / 100, amount: yearly }
      : { price: yearly, amount: Math.round(yearly * 12 * 100) / 100 };
  }
}
