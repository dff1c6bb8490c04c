// A competitor's pricing read as a table: one row per plan with its price (free, custom, "from" markers; a yearly
// figure and a yearly-billed alternative beside the monthly one), unit, billing period and features on demand; the
// read's own facts above it with the page it came from. Keys this view does not know stay readable in a collapsed
// "More" section, never as a dump of nested labels.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { formatDay } from "../domain/dates.ts";
import { formatAmount } from "../domain/money.ts";
import { planRead } from "../domain/pricingRead.ts";
import { ExternalLink, Value } from "./components.tsx";
import { Html } from "./layout.tsx";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v : undefined);

/** Plan keys the table shows in its columns. */
const PLAN_KEYS = new Set([
  "name",
  "price",
  "currency",
  "period",
  "unit",
  "features",
  "custom",
  "starting",
  "amount",
  "monthly_equivalent",
  "annual",
  "price_text",
]);
/** Pricing keys shown above the table (or as the table). */
const PRICING_KEYS = new Set([
  "plans",
  "free_tier",
  "has_enterprise",
  "page",
  "model",
  "entry_price_text",
  "discounting",
]);

const BILLED: Record<string, string> = { month: "monthly", year: "yearly", one_time: "once" };

function unknownOf(o: Obj, known: Set<string>): Obj {
  return Object.fromEntries(
    Object.entries(o).filter(([k, v]) => !known.has(k) && v !== undefined && v !== null && v !== ""),
  );
}

/** A collapsed section of keys the page has no view for, written out readably. */
export function More({ value, label = "More" }: { value: Obj; label?: string }): JSX.Element {
  const n = Object.keys(value).length;
  if (n === 0) return "";
  return (
    <details class="more">
      <summary safe>{`${label} (${n})`}</summary>
      <Value value={value} />
    </details>
  );
}

const PER: Record<string, string> = { month: " a month", year: " a year", one_time: " once" };

/** The price as billed (`amount` each `period`), a yearly amount's monthly equivalent labelled beneath it, and
 * the yearly-billed alternative of a monthly plan (domain/pricingRead.ts names these fields). */
function PriceCell({ p: given }: { p: Obj }): JSX.Element {
  // Imported reads may hold a plan in the older shape (a yearly plan's month in `price`): read as the API names it.
  const p = planRead(given);
  const currency = str(p.currency);
  if (p.custom === true) return <span class="badge">Custom</span>;
  const amount = typeof p.amount === "number" ? p.amount : undefined;
  if (amount === undefined) return <span safe>{str(p.price_text) ?? "—"}</span>;
  if (amount === 0) return <span class="badge">Free</span>;
  const annual = isObj(p.annual) ? p.annual : undefined;
  return (
    <>
      {p.starting === true ? <span class="badge">From</span> : ""}{" "}
      <strong safe>{formatAmount(amount, currency)}</strong>
      <span class="muted" safe>
        {PER[String(p.period)] ?? ""}
      </span>
      {typeof p.monthly_equivalent === "number" && p.period === "year" ? (
        <div
          class="muted small"
          safe
        >{`${formatAmount(p.monthly_equivalent, currency)} a month, billed yearly`}</div>
      ) : (
        ""
      )}
      {annual && typeof annual.monthly_equivalent === "number" ? (
        <div
          class="muted small"
          safe
        >{`or ${formatAmount(annual.monthly_equivalent, currency)} a month billed yearly${
          typeof annual.amount === "number" ? ` (${formatAmount(annual.amount, currency)} a year)` : ""
        }`}</div>
      ) : (
        ""
      )}
    </>
  );
}

/** A price signal that names a plan (a rise, a cut, a free tier starting or ending): marked on its row. */
export interface PlanChange {
  title: string;
  url: string;
  at: string;
}

const PRICING_CHANGE_TYPES = new Set(["price_increase", "price_decrease", "free_tier_change"]);
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The newest pricing signal of each plan (signals newest first, as the timeline lists them): a plan is the
 * one a signal's title names ("raises Team plan price from $59 to $69" names Team; a title naming several plans names the
 * first plan it mentions). */
export function lastPlanChanges(plans: readonly string[], signals: readonly Obj[]): Map<string, PlanChange> {
  const out = new Map<string, PlanChange>();
  for (const sig of signals) {
    const title = str(sig.title);
    const url = str(sig.url);
    if (!title || !url || !PRICING_CHANGE_TYPES.has(String(sig.type))) continue;
    const named = plans
      .map((name) => ({ name, at: new RegExp(`\\b${escapeRe(name)}\\b`, "i").exec(title)?.index ?? -1 }))
      .filter((x) => x.at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (named && !out.has(named.name)) out.set(named.name, { title, url, at: str(sig.first_seen_at) ?? "" });
  }
  return out;
}

function PlanRow({ p, change }: { p: Obj; change?: PlanChange }): JSX.Element {
  const features = Array.isArray(p.features) ? p.features.filter((f) => typeof f === "string") : [];
  const extra = unknownOf(p, PLAN_KEYS);
  return (
    <tr>
      <th scope="row" data-label="Plan">
        <span safe>{str(p.name) ?? "Unnamed plan"}</span>
        {change ? (
          <div class="small plan-change">
            <span class="badge sev-medium">Changed</span>{" "}
            <a href={change.url} safe>
              {change.title}
            </a>
            {change.at ? (
              <span class="muted">
                {" "}
                <time datetime={change.at} safe>
                  {formatDay(change.at)}
                </time>
              </span>
            ) : (
              ""
            )}
          </div>
        ) : (
          ""
        )}
        <More value={extra} />
      </th>
      <td data-label="Price">
        <div>
          <PriceCell p={p} />
        </div>
      </td>
      <td data-label="Per" safe>
        {str(p.unit) ?? ""}
      </td>
      <td data-label="Billed" safe>
        {BILLED[String(p.period)] ?? ""}
      </td>
      <td data-label="Features">
        {features.length ? (
          <details>
            <summary safe>{`${features.length} feature${features.length === 1 ? "" : "s"}`}</summary>
            <ul>
              {features.map((f) => (
                <li safe>{f}</li>
              ))}
            </ul>
          </details>
        ) : (
          ""
        )}
      </td>
    </tr>
  );
}

export function PricingView({
  pricing,
  signals = [],
}: {
  pricing: unknown;
  signals?: readonly Obj[];
}): JSX.Element {
  if (!isObj(pricing)) return <Value value={pricing} />;
  const plans = (Array.isArray(pricing.plans) ? pricing.plans : []).filter(isObj);
  const changes = lastPlanChanges(
    plans.map((p) => str(p.name)).filter((n): n is string => !!n),
    signals,
  );
  const facts: [string, JSX.Element | string][] = [];
  if (typeof pricing.free_tier === "boolean") facts.push(["Free tier", pricing.free_tier ? "yes" : "no"]);
  if (typeof pricing.has_enterprise === "boolean")
    facts.push(["Enterprise tier", pricing.has_enterprise ? "yes" : "no"]);
  for (const [k, label] of [
    ["model", "Model"],
    ["entry_price_text", "Entry price"],
    ["discounting", "Discounts"],
  ] as const) {
    const v = str(pricing[k]);
    if (v) facts.push([label, v]);
  }
  const page = str(pricing.page);
  return (
    <div class="pricing">
      {facts.length ? (
        <p class="meta">
          {facts.map(([label, v]) => (
            <span>
              <span class="muted" safe>{`${label}:`}</span> <span safe>{v as string}</span>
            </span>
          ))}
        </p>
      ) : (
        ""
      )}
      {plans.length ? (
        <div class="scroll">
          <table class="stack pricing-table">
            <caption class="muted small">
              {`${plans.length} plan${plans.length === 1 ? "" : "s"}, in the page's order, priced as billed`}
            </caption>
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Price</th>
                <th scope="col">Per</th>
                <th scope="col">Billed</th>
                <th scope="col">Features</th>
              </tr>
            </thead>
            <tbody>
              {plans.map((p) => (
                <PlanRow p={p} change={changes.get(str(p.name) ?? "")} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">No plans were read.</p>
      )}
      {page ? (
        <p class="muted small">
          Read from <ExternalLink href={page} />
        </p>
      ) : (
        ""
      )}
      <More value={unknownOf(pricing, PRICING_KEYS)} />
    </div>
  );
}
