// Extraction step: a page's plans — card grids that read as plans (the annual tab panel's as the yearly
// alternative), plan tables, on a pricing page loose plan cards, tiers beside the grid and the offers its
// structured data states — and the metered rates beside them (the readers of one card or table: pricing.ts).

import { type CardInfo, cardsIn, type Walk } from "./blocks.ts";
import { attr, descendants, type El } from "./dom.ts";
import { similarGroups, textWithin } from "./groups.ts";
import { offersFromJsonLd } from "./offers.ts";
import {
  annualFromAttributes,
  customTiersOfTable,
  type HiddenAlternative,
  type Plan,
  planFromCard,
  plansFromTable,
  readUsage,
  tableFeaturesByPlan,
  tiersBesideGrid,
  type UsagePrice,
  withAnnual,
} from "./pricing.ts";
import type { Block } from "./types.ts";

const PRICE_HINT =
  /[$€£¥₹₩₺₽]|\b(?:USD|EUR|GBP|CAD|AUD|CHF|SEK|NOK|DKK|PLN|INR|JPY|kr|zł|free|custom|contact|sales|talk|quote|request|pricing)\b/i;

/** A section heading over other companies' products ("How X compares", "X vs the alternatives", "What you'd
 *  pay elsewhere"), not over the page's own plans ("Compare plans"). */
const OTHER_PRODUCTS =
  /\b(?:vs\.?|versus|alternatives?|elsewhere|competitors?|competition|other\s+(?:tools|products|vendors|apps|providers|companies))\b|\bcompares\b|\bcompared\s+(?:to|with)\b/i;

const CHOSEN_CLASS = /(^|\s)(active|selected|is-active|is-selected|current|checked)(\s|$)/i;
// no closing word boundary: adjacent controls run together in textContent ("MonthlyYearly")
const ANNUAL_WORD = /annual|yearly|\byear/i;
const MONTHLY_WORD = /\bmonth|monthly/i;

/** The option chosen in a monthly/annual selector just before a plan grid (a preceding sibling of the grid or of
 *  its containers, up to three levels up): a pressed, selected or checked control, or one classed active. Null
 *  when there is no selector with both options, or none is marked chosen. */
function selectedBilling(grid: El): "annual" | "monthly" | null {
  let node: El | null = grid;
  for (let level = 0; node && level < 3; level++, node = node.parentElement) {
    for (let sib = node.previousElementSibling, i = 0; sib && i < 3; sib = sib.previousElementSibling, i++) {
      if (!textWithin(sib, 400)) continue;
      const text = sib.textContent ?? "";
      if (!ANNUAL_WORD.test(text) || !MONTHLY_WORD.test(text)) continue;
      for (const el of [sib, ...descendants(sib)]) {
        const chosen =
          attr(el, "aria-pressed") === "true" ||
          attr(el, "aria-selected") === "true" ||
          attr(el, "aria-checked") === "true" ||
          (el.tagName === "INPUT" && el.hasAttribute("checked")) ||
          CHOSEN_CLASS.test(attr(el, "class"));
        if (!chosen) continue;
        // an input is named by its value or its label around it
        const label =
          el.tagName === "INPUT"
            ? `${attr(el, "value")} ${el.parentElement?.textContent ?? ""}`
            : (el.textContent ?? "");
        if (ANNUAL_WORD.test(label) && !MONTHLY_WORD.test(label)) return "annual";
        if (MONTHLY_WORD.test(label) && !ANNUAL_WORD.test(label)) return "monthly";
      }
      return null;
    }
  }
  return null;
}

const PLAN_SECTION = /\b(?:pricing|plans?|prices?|packages?|tiers?|subscriptions?|editions?)\b/i;

/** Outside a pricing page, a card group is plans only when it offers them: a recurring price or a custom tier,
 *  or a section heading about plans ("Simple pricing", "Scheduler plans") — not tiles that say "Free". */
function readsAsOffer(ps: Plan[], section: string | undefined): boolean {
  if (section && PLAN_SECTION.test(section)) return true;
  return ps.some(
    (p) => p.custom || (p.price !== null && p.price > 0 && (p.period === "month" || p.period === "year")),
  );
}

const ANNUAL = /annual|yearly|\byear\b/i;
/** True when a plan card sits in a container marked as the annual alternative (a yearly tab panel). */
function inAnnualPanel(el: El): boolean {
  let e: El | null = el.parentElement;
  for (let i = 0; e && i < 5; i++, e = e.parentElement) {
    const key = `${attr(e, "id")} ${attr(e, "class")} ${attr(e, "aria-labelledby")} ${attr(e, "data-period")} ${attr(e, "data-billing")} ${attr(e, "data-tab")}`;
    if (ANNUAL.test(key)) return true;
  }
  return false;
}

/** Plan cards in utility-class markup (no headings, no title classes): the first group of similar
 *  siblings of which at least two read as plans. Only run on pricing pages that gave no plans otherwise. */
function loosePlans(content: El, hidden: HiddenAlternative[]): { plans: Plan[]; kids: El[] } {
  for (const kids of similarGroups(content, 2)) {
    const ps = kids.map((k) => planFromCard(k, true, hidden)).filter((p): p is Plan => p !== null);
    if (ps.length >= 2 && ps.some((p) => p.price !== null)) return { plans: ps, kids };
  }
  return { plans: [], kids: [] };
}

function isInside(el: El, root: El): boolean {
  for (let e: El | null = el; e; e = e.parentElement) if (e === root) return true;
  return false;
}

/** Sets each plan's yearly-billed alternative from the plans of an annual panel (matched by name). */
function annualFrom(plans: Plan[], annual: Plan[]): void {
  for (const a of annual) {
    const p = plans.find((x) => x.name.toLowerCase() === a.name.toLowerCase());
    if (!p || p.annual || a.price === null) continue;
    withAnnual(p, {
      amount: a.price,
      period: a.period === "one_time" ? undefined : (a.period ?? "year"),
      yearly: a.amount,
    });
  }
}

/** The plans of a detached annual panel (its cards read as the page's cards are). */
function panelPlans(panel: El): Plan[] {
  return cardsIn(panel)
    .map((c) => planFromCard(c.el))
    .filter((p): p is Plan => p !== null);
}

/** Metered rates in the pricing page's text, tables and cards (the card's plan named). */
function usagePrices(blocks: Block[]): UsagePrice[] {
  const out: UsagePrice[] = [];
  const seen = new Set<string>();
  const add = (text: string, plan?: string) => {
    for (const u of readUsage(text, plan)) {
      const k = `${u.plan ?? ""}|${u.price}|${u.per}`;
      if (seen.has(k) || out.length >= 50) continue;
      seen.add(k);
      out.push(u);
    }
  };
  for (const b of blocks) {
    if (b.kind === "text") add(b.text);
    else if (b.kind === "list") for (const i of b.items) add(i);
    else if (b.kind === "table") for (const r of b.rows) add(r.join(" | "));
    else if (b.kind === "card") for (const i of b.items) add(i, b.title);
  }
  return out;
}

export interface PagePlans {
  plans: Plan[];
  /** The card groups read as plans (no features, no integrations). */
  planGroups: Set<CardInfo[]>;
  usage: UsagePrice[];
}

/** The plans of a page; on a pricing page (`isPricing`) also the looser readings and the metered rates. */
export function readPlans(
  w: Walk,
  groups: Map<El | null, CardInfo[]>,
  content: El,
  page: {
    isPricing: boolean;
    jsonLd: Record<string, unknown>[];
    microdata: Plan[];
    hiddenAlts: HiddenAlternative[];
    /** Hidden tab panels that are no billing alternative (plans for another audience a tab reveals). */
    hiddenPanels?: El[];
  },
): PagePlans {
  const { isPricing, jsonLd, microdata, hiddenAlts } = page;
  const plans: Plan[] = [];
  const planGroups = new Set<CardInfo[]>();
  const addPlans = (ps: Plan[]) => {
    for (const p of ps) if (!plans.some((x) => x.name === p.name)) plans.push(p);
  };
  const candidates: { g: CardInfo[]; ps: Plan[]; annual: boolean }[] = [];
  const planEls = new Map<Plan, El>();
  for (const g of groups.values()) {
    // cheap pre-check on the card lines: no currency, "free" or custom wording means no plan
    if (!g.some((c) => PRICE_HINT.test(c.block.title) || c.block.items.some((i) => PRICE_HINT.test(i))))
      continue;
    const ps = g
      .map((c) => {
        const p = planFromCard(c.el, false, hiddenAlts);
        if (p) planEls.set(p, c.el);
        return p;
      })
      .filter((p): p is Plan => p !== null);
    const priced = ps.filter((p) => p.price !== null).length;
    if (
      ((ps.length >= 2 && priced >= 1 && ps.length >= g.length / 2) ||
        (isPricing && ps.length === 1 && g.length <= 2 && priced === 1)) &&
      (isPricing || readsAsOffer(ps, g[0]!.block.section))
    )
      candidates.push({ g, ps, annual: inAnnualPanel(g[0]!.el) });
  }
  // a card group under a heading about other companies' products, beside the page's own plans, is left out
  const own = candidates.filter((c) => !OTHER_PRODUCTS.test(c.g[0]!.block.section ?? ""));
  if (own.length && own.length < candidates.length) candidates.splice(0, candidates.length, ...own);
  // Monthly and annual tab panels both in the page: the annual panel's cards are the alternative.
  const hasMonthly = candidates.some((c) => !c.annual);
  for (const c of candidates) {
    planGroups.add(c.g);
    if (!(c.annual && hasMonthly)) addPlans(c.ps);
  }
  for (const c of candidates) if (c.annual && hasMonthly) annualFrom(plans, c.ps);
  // a hidden annual tab panel: its plans are the yearly-billed alternatives
  for (const h of hiddenAlts)
    if (
      h.mark === "annual" &&
      plans.length &&
      !candidates.some((c) => c.g.some((x) => isInside(h.parent, x.el)))
    )
      annualFrom(plans, panelPlans(h.el));
  for (const t of w.tables)
    if (!(plans.length && OTHER_PRODUCTS.test(t.section ?? ""))) addPlans(plansFromTable(t.rows));
  const grids = candidates.map((c) => c.g.map((x) => x.el));
  if (!plans.length && isPricing) {
    const loose = loosePlans(content, hiddenAlts);
    plans.push(...loose.plans);
    if (loose.kids.length) grids.push(loose.kids);
  }
  // the billing selector above the grid has its annual option chosen: the prices shown are billed annually
  for (const g of grids) {
    const parent = g[0]!.parentElement;
    if (!parent || selectedBilling(parent) !== "annual") continue;
    const names = new Set(g.map((el) => el));
    for (const p of plans) {
      const el = planEls.get(p);
      if (!el || !names.has(el)) continue;
      if (p.price !== null && p.price > 0 && p.period === "month" && !p.annual) {
        p.period = "year";
        p.amount = Math.round(p.price * 12 * 100) / 100;
      }
    }
  }
  if (plans.length && isPricing) {
    // a contact-sales tier outside the grid: a band under it, a table column, a footer row
    const cardEls = grids.flat();
    for (const g of grids) addPlans(tiersBesideGrid(g[0]!.parentElement, cardEls));
    const names = new Set(plans.map((p) => p.name));
    for (const t of w.tables) if (!plansFromTable(t.rows).length) addPlans(customTiersOfTable(t.rows, names));
  }
  if (plans.length) {
    const names = new Set(plans.map((p) => p.name));
    for (const t of w.tables) {
      if (plansFromTable(t.rows).length) continue;
      for (const [name, feats] of tableFeaturesByPlan(t.rows, names)) {
        const p = plans.find((x) => x.name === name)!;
        p.features = [...new Set([...p.features, ...feats])];
      }
    }
  }
  // plans a tab reveals (a hidden panel of another audience's plans): every plan a visitor can choose
  if (plans.length && isPricing)
    for (const panel of page.hiddenPanels ?? []) {
      const ps = panelPlans(panel);
      if (ps.length >= 2 && ps.some((p) => p.price !== null)) addPlans(ps);
    }
  if (plans.length) annualFromAttributes(content, plans);
  // no plan cards or tables: the offers the page states in JSON-LD or microdata
  if (!plans.length && isPricing) addPlans([...offersFromJsonLd(jsonLd), ...microdata]);
  const usage = isPricing ? usagePrices(w.blocks) : [];
  return { plans, planGroups, usage };
}
