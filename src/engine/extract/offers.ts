// Plans a pricing page states only as structured data (no plan cards or tables in its markup): schema.org
// `Offer` and `AggregateOffer` in JSON-LD (on their own or as a product's `offers`) and in microdata
// (`itemscope itemtype=".../Offer"` with `itemprop` name, price, priceCurrency, `<meta content>`). A
// `UnitPriceSpecification` says the period (`billingDuration` P1M/P1Y, `unitCode` MON/ANN, `unitText`);
// a yearly price is normalised to a monthly figure as card prices are. An AggregateOffer without offers is
// one plan named after the product, priced from its `lowPrice` (a starting price).
import { attr, clean, descendants, type El, textOf } from "./dom.ts";
import { CUSTOM_RE, type Plan } from "./pricing.ts";

type Obj = Record<string, unknown>;

const PRODUCT =
  /^(Product|SoftwareApplication|WebApplication|MobileApplication|Service|ProductGroup|IndividualProduct)$/;

/** A type's vocabulary before its name: "https://schema.org/Offer" → "Offer". */
const TYPE_PREFIX = /^.*[/#]/;

function types(o: Obj): string[] {
  const t = o["@type"];
  return (Array.isArray(t) ? t : [t])
    .filter((x): x is string => typeof x === "string")
    .map((x) => x.replace(TYPE_PREFIX, ""));
}

function list(v: unknown): Obj[] {
  if (Array.isArray(v)) return v.filter((x): x is Obj => !!x && typeof x === "object");
  return v && typeof v === "object" ? [v as Obj] : [];
}

function str(v: unknown): string {
  if (typeof v === "string") return clean(v);
  if (typeof v === "number") return String(v);
  return "";
}

const NOT_NUMBER_CHARS = /[^\d.,-]/g;
const DECIMAL_COMMA_END = /,\d{1,2}$/;
const DOTS = /\./g;
const COMMAS = /,/g;

function num(v: unknown): number | null {
  const s = str(v).replace(NOT_NUMBER_CHARS, "");
  if (!s) return null;
  const n = Number(DECIMAL_COMMA_END.test(s) ? s.replace(DOTS, "").replace(",", ".") : s.replace(COMMAS, ""));
  return Number.isFinite(n) && n >= 0 ? n : null;
}

const MONTHLY_DURATION = /^P(1M|30D|4W)$/;
const MONTH_WORD = /\b(month|monthly|mo)\b/i;
const YEARLY_DURATION = /^P(1Y|12M|365D)$/;
const YEAR_WORD = /\b(year|yearly|annual|annually|yr)\b/i;

/** "month" / "year" from a UnitPriceSpecification's billingDuration, unitCode or unitText. */
function periodOf(spec: Obj | undefined): "month" | "year" | undefined {
  if (!spec) return undefined;
  const d = str(spec.billingDuration).toUpperCase();
  const code = str(spec.unitCode).toUpperCase();
  const text = `${str(spec.unitText)} ${str((spec.referenceQuantity as Obj | undefined)?.unitText)}`;
  if (MONTHLY_DURATION.test(d) || code === "MON" || MONTH_WORD.test(text)) return "month";
  if (YEARLY_DURATION.test(d) || code === "ANN" || YEAR_WORD.test(text)) return "year";
  return undefined;
}

const SEAT_UNIT = /\b(seat|user|member|editor|agent|host|node|license)s?\b/i;
const CURRENCY_CODE = /^[A-Z]{3}$/;

function unitOf(spec: Obj | undefined): string | undefined {
  const text = `${str(spec?.unitText)} ${str((spec?.referenceQuantity as Obj | undefined)?.unitText)}`;
  const m = SEAT_UNIT.exec(text);
  return m ? m[1]!.toLowerCase() : undefined;
}

function planFromOffer(o: Obj, fallbackName: string): Plan | null {
  const name = str(o.name) || fallbackName;
  if (!name || name.length > 60) return null;
  const spec =
    list(o.priceSpecification).find((x) => types(x).includes("UnitPriceSpecification")) ??
    list(o.priceSpecification)[0];
  const price = num(o.price ?? spec?.price);
  const currency = str(o.priceCurrency ?? spec?.priceCurrency).toUpperCase();
  if (price === null) {
    if (CUSTOM_RE.test(`${str(o.price)} ${str(o.description)}`))
      return { name, price: null, features: [], custom: true };
    return null;
  }
  const period = periodOf(spec);
  const plan: Plan = {
    name,
    price: period === "year" ? Math.round((price / 12) * 100) / 100 : price,
    features: [],
  };
  if (CURRENCY_CODE.test(currency)) plan.currency = currency;
  if (period) plan.period = period;
  if (period === "year") plan.amount = price;
  const unit = unitOf(spec);
  if (unit) plan.unit = unit;
  return plan;
}

function fromOfferObject(o: Obj, productName: string, out: Plan[]): void {
  const t = types(o);
  if (t.includes("AggregateOffer")) {
    const inner = list(o.offers);
    if (inner.length) {
      for (const x of inner) fromOfferObject(x, productName, out);
      return;
    }
    const low = num(o.lowPrice ?? o.price);
    if (low === null || !productName) return;
    const plan: Plan = { name: str(o.name) || productName, price: low, features: [], starting: true };
    const currency = str(o.priceCurrency).toUpperCase();
    if (CURRENCY_CODE.test(currency)) plan.currency = currency;
    out.push(plan);
    return;
  }
  const p = planFromOffer(o, productName);
  if (p && !out.some((x) => x.name === p.name)) out.push(p);
}

/** Plans from the page's JSON-LD offers. */
export function offersFromJsonLd(jsonLd: Record<string, unknown>[]): Plan[] {
  const out: Plan[] = [];
  const walk = (o: Obj, depth: number) => {
    if (depth > 4 || out.length >= 30) return;
    const t = types(o);
    if (t.includes("Offer") || t.includes("AggregateOffer")) {
      fromOfferObject(o, "", out);
      return;
    }
    if (t.some((x) => PRODUCT.test(x))) {
      for (const x of list(o.offers)) fromOfferObject(x, str(o.name), out);
      for (const v of list(o.hasVariant)) walk(v, depth + 1);
    }
  };
  for (const o of jsonLd) walk(o, 0);
  return out;
}

// ---- microdata -----------------------------------------------------------------------------------------

const OFFER_TYPE = /schema\.org\/(Offer|AggregateOffer)$/i;
const AGGREGATE_OFFER_TYPE = /AggregateOffer$/i;
const WHITESPACE = /\s+/;

/** An itemprop's value: its `content` attribute, else its text. */
function propValue(el: El): string {
  if (el.hasAttribute("content")) return clean(attr(el, "content"));
  return textOf(el);
}

/** The properties of an item: descendants with `itemprop`, not crossing into nested items; a nested item
 *  (a `UnitPriceSpecification`) is an object of its own properties. */
function itemProps(item: El, depth = 0): Map<string, string | Obj> {
  const out = new Map<string, string | Obj>();
  const stack: El[] = [...item.children];
  while (stack.length) {
    const e = stack.shift()!;
    const prop = attr(e, "itemprop");
    const nested = e.hasAttribute("itemscope");
    if (prop) {
      const value: string | Obj =
        nested && depth < 3
          ? {
              "@type": attr(e, "itemtype").replace(TYPE_PREFIX, ""),
              ...Object.fromEntries(itemProps(e, depth + 1)),
            }
          : propValue(e);
      for (const p of prop.split(WHITESPACE)) if (!out.has(p)) out.set(p, value);
    }
    if (!nested) stack.push(...e.children);
  }
  return out;
}

/** Plans from microdata offers (read before <meta> elements are dropped). */
export function microdataOffers(root: El): Plan[] {
  const out: Plan[] = [];
  for (const item of descendants(root)) {
    if (!item.hasAttribute("itemscope") || !OFFER_TYPE.test(attr(item, "itemtype"))) continue;
    const props = itemProps(item);
    let productName = "";
    for (let e = item.parentElement; e && !productName; e = e.parentElement)
      if (e.hasAttribute("itemscope")) productName = str(itemProps(e).get("name"));
    const o: Obj = {
      "@type": AGGREGATE_OFFER_TYPE.test(attr(item, "itemtype")) ? "AggregateOffer" : "Offer",
    };
    for (const [k, v] of props) o[k] = v;
    fromOfferObject(o, productName, out);
    if (out.length >= 30) break;
  }
  return out;
}
