// A competitor's pricing read as the dossier, the API and the tools hold it: each plan's price in named fields
// that cannot be misread — `amount` as billed for one `period` ("$5k/yr": 5000 a year), the `monthly_equivalent`
// of a yearly amount (416.67), the yearly-billed alternative of a monthly plan alike — and the plans in the order
// the page lists them (a page that only reorders its cards keeps the order already known).
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const cents = (n: number) => Math.round(n * 100) / 100;

/** The yearly-billed alternative of a monthly plan: its yearly amount and what that is a month. Older reads
 * held it as `{ price: <a month>, amount: <a year> }`. */
function annualOf(a: unknown): Obj | undefined {
  if (!isObj(a)) return undefined;
  if (!("price" in a) && num(a.amount) !== undefined) return a;
  const monthly = num(a.price);
  const yearly = num(a.amount) ?? (monthly !== undefined ? cents(monthly * 12) : undefined);
  if (yearly === undefined) return undefined;
  return { amount: yearly, period: "year", monthly_equivalent: monthly ?? cents(yearly / 12) };
}

/** One plan with its price in named fields: `price` and `amount` are the figure billed each `period`,
 * `monthly_equivalent` is a yearly figure divided by 12. A plan read before these fields existed (`price` a month
 * for a yearly plan, its yearly figure in `amount`) is read the same way; a plan already in this shape is kept. */
export function planRead(p: Obj): Obj {
  const { price, amount, annual, monthly_equivalent, ...rest } = p;
  const out: Obj = { ...rest };
  const stated = num(price);
  if (price === null || stated === undefined) {
    if (price === null) out.price = null;
  } else if (p.period === "year") {
    // A read in this shape has its monthly equivalent; an older one held the month in `price` and the yearly
    // figure in `amount` (absent for "$49/mo, billed annually" read before the yearly figure was kept).
    const had = num(monthly_equivalent);
    const total = had !== undefined ? stated : (num(amount) ?? cents(stated * 12));
    out.price = total;
    out.amount = total;
    out.monthly_equivalent = had ?? stated;
    // the regular price beside a sale price is read on the price's basis: a year too
    const regular = num(p.regular);
    if (regular !== undefined && had === undefined) out.regular = cents(regular * 12);
  } else {
    out.price = stated;
    out.amount = stated;
  }
  const alt = annualOf(annual);
  if (alt) out.annual = alt;
  return orderKeys(out);
}

const KEY_ORDER = [
  "name",
  "price",
  "amount",
  "currency",
  "period",
  "monthly_equivalent",
  "unit",
  "starting",
  "custom",
  "annual",
  "regular",
  "sale_term",
  "financing",
  "page",
  "features",
];

function orderKeys(o: Obj): Obj {
  const out: Obj = {};
  for (const k of KEY_ORDER) if (o[k] !== undefined) out[k] = o[k];
  for (const [k, v] of Object.entries(o)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

const nameKey = (p: Obj) => (typeof p.name === "string" ? p.name.trim().toLowerCase() : "");

/** The plans `next` lists, in its order — except that plans both lists hold keep the order of `before` when the
 * page only moved them (card order is no change): each such plan takes the next slot of one. */
export function keepPlanOrder(before: readonly Obj[], next: readonly Obj[]): Obj[] {
  const was = new Map(before.map((p, i) => [nameKey(p), i]));
  const common = next.filter((p) => was.has(nameKey(p)));
  const known = [...common].sort((a, b) => was.get(nameKey(a))! - was.get(nameKey(b))!);
  let i = 0;
  return next.map((p) => (was.has(nameKey(p)) ? known[i++]! : p));
}

const plansOf = (pricing: unknown): Obj[] =>
  isObj(pricing) && Array.isArray(pricing.plans) ? pricing.plans.filter(isObj) : [];

/** The plans of a pricing read after one page was read again (`fresh`: its pricing read now, none when it
 * states no plans). The read's own page (`read.page`) gives the plans without a page; another page (a product page,
 * the home page) the plans named with it, a plan an earlier page names staying that page's. */
export function pagePlans(read: unknown, url: string, fresh: unknown): Obj[] {
  const now = plansOf(fresh).map(({ page: _p, ...p }) => p);
  const all = plansOf(read);
  if (!isObj(read) || url === read.page) {
    const names = new Set(now.map(nameKey));
    return [
      ...now,
      ...all.filter((p) => typeof p.page === "string" && p.page !== url && !names.has(nameKey(p))),
    ];
  }
  const keep = all.filter((p) => p.page !== url);
  const names = new Set(keep.map(nameKey));
  return [...keep, ...now.filter((p) => !names.has(nameKey(p))).map((p) => ({ ...p, page: url }))];
}

/** True when some plan of a pricing read was read from `url` (another page than the read's own). */
export function statesPlans(read: unknown, url: string): boolean {
  return plansOf(read).some((p) => p.page === url);
}

/** A pricing read with its plans in named fields, in the order `before` knew them (see keepPlanOrder). */
export function pricingRead(next: unknown, before?: unknown): unknown {
  if (!isObj(next)) return next;
  const plans = plansOf(next).map(planRead);
  return { ...next, plans: keepPlanOrder(plansOf(before), plans) };
}
