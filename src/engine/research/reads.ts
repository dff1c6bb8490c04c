// What one page says for the dossier's reads, read the same way by research (index.ts assembles a whole site)
// and by a monitoring cycle (a changed source, cycle/results.ts): the pricing read of a page listing plans, the
// home page's positioning and summary, features, integrations and the jobs of a careers page or job board.
import type { SourceObservation } from "../../domain/observation.ts";
import { pricingRead } from "../../domain/pricingRead.ts";
import type { Plan } from "../extract/page.ts";
import { positioningOf } from "../extract/profile.ts";
import { hiringRead } from "../sources/jobBoards.ts";
import { sourceKind } from "../sources/kinds/index.ts";
import type { SourceNow } from "../sources/kinds/kind.ts";
import { releaseCadence } from "../sources/releases.ts";
import type { PageRead } from "./pageRead.ts";

function compactObj(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}

/** A plan as the extraction read it (price a month, the yearly figure in `amount`), before the read names its
 * price fields (domain/pricingRead.ts). */
function planFields(p: Plan): Record<string, unknown> {
  return compactObj({
    name: p.name,
    price: p.price,
    currency: p.currency,
    period: p.period,
    unit: p.unit,
    features: p.features,
    ...(p.custom ? { custom: true } : {}),
    ...(p.starting ? { starting: true } : {}),
    amount: p.amount,
    annual: p.annual,
    regular: p.regular,
    sale_term: p.sale_term,
    ...(p.financing ? { financing: true } : {}),
    page: p.page,
  });
}

/** The plans of several pages as one read: the first page's (the pricing page's) as they are, then each plan
 * another page states that no earlier page named, with that page. */
export function plansAcross(
  pages: { url: string; extract: Pick<PageRead, "plans" | "usage"> }[],
): Pick<PageRead, "plans" | "usage"> {
  const [first, ...rest] = pages;
  if (!first) return { plans: [] };
  const plans: Plan[] = [...first.extract.plans];
  const named = new Set(plans.map((p) => p.name.trim().toLowerCase()));
  for (const page of rest)
    for (const p of page.extract.plans) {
      const key = p.name.trim().toLowerCase();
      if (named.has(key)) continue;
      named.add(key);
      plans.push({ ...p, page: page.url });
    }
  return { plans, ...(first.extract.usage?.length ? { usage: first.extract.usage } : {}) };
}

/** The pricing read of a page that lists plans (in its order), or undefined. */
export function pricingOf(
  p: Pick<PageRead, "plans" | "usage">,
  url: string,
): Record<string, unknown> | undefined {
  if (p.plans.length === 0) return undefined;
  return pricingRead({
    plans: p.plans.map(planFields),
    free_tier: p.plans.some((x) => x.price === 0 || /\bfree\b/i.test(x.name)),
    has_enterprise: p.plans.some((x) => x.custom === true || /enterprise/i.test(x.name)),
    ...(p.usage?.length ? { usage: p.usage } : {}),
    page: url,
  }) as Record<string, unknown>;
}

/** The home page's summary as research reads it. */
export function summaryOf(p: Pick<PageRead, "description" | "hero">): string | undefined {
  return p.description ?? p.hero?.subheadline;
}

/** A changed source read now, for the dossier: a page by its kind, a job board by its jobs, a feed by the dates
 * of its items (`at`: now, for the release cadence). */
export function observeSource(
  src: { url: string; kind: string },
  now: { page?: PageRead } & SourceNow,
  at: Date,
): SourceObservation {
  const o: SourceObservation = { url: src.url, kind: src.kind };
  // A kind that is no page says what it says itself (sources/kinds/).
  const own = sourceKind(src.kind).observe;
  if (own) return { ...o, ...own(src, now, at) };
  const p = now.page;
  if (!p) return o;
  if (p.releaseDates?.length) {
    const cadence = releaseCadence(p.releaseDates, at, src.url);
    if (cadence) o.release_cadence = { ...cadence };
  }
  if (src.kind === "security") o.certifications = p.certifications ?? [];
  if (p.profile) o.profile = p.profile;
  if (p.tech) o.tech = p.tech.map((t) => ({ ...t }));
  const pricing = pricingOf(p, src.url);
  if (pricing) o.pricing = pricing;
  if (src.kind === "home") {
    const positioning = positioningOf(p.hero);
    if (positioning) o.positioning = positioning;
    const summary = summaryOf(p);
    if (summary) o.summary = summary;
  }
  if (src.kind === "home" || src.kind === "product") o.features = p.features;
  if (src.kind === "integrations") o.integrations = p.integrations;
  if (src.kind === "careers" && p.jobs.length) o.hiring = { ...hiringRead(p.jobs) };
  return o;
}
