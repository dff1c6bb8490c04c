// classify(changes, ctx) → SignalDraft[]: transparent rules from compare()'s Changes to the taxonomy (docs/engine/classify.md),
// with severity and confidence reasons, deterministic titles and summaries that state the values, evidence
// items and dedup keys (docs/engine/classify.md). Pure and synchronous. Each change goes to the rules whose
// declared `reads` name its kind: a version's bulk edits first, then each change to the first rule that takes it
// (its source kind's own rules first), then the rules that read what is left of the version together. Each rule
// family has its own file; a rule is listed by being routed here (GENERAL_RULES), or with its source kind
// (sources/kinds/), and registry.ts collects both for the rules table.
import { severityRank } from "../../domain/records.ts";
import type { Change } from "../compare/types.ts";
import { entries, feedItem, NEWS_PAGES } from "./announcements.ts";
import { address, offices, people } from "./company.ts";
import { hiring } from "./hiring.ts";
import { certifications, LEGAL_PAGES, legalPage } from "./legalSecurity.ts";
import { copyEdits, hero, meta } from "./marketing.ts";
import { domain, navigationBulk, page, pageGone, pageLink } from "./presence.ts";
import { amounts, numberless, planFeatures, planPresence, planPrice, priceText } from "./pricing.ts";
import { BULK, feature, featuresBulk, integration, renames } from "./product.ts";
import type { RuleInfo, Rules } from "./rule.ts";
import type { ClassifyContext, SignalDraft } from "./types.ts";
import { round2, words } from "./wording.ts";

export { slug } from "./wording.ts";

/** What a rule sees of the version a change belongs to. */
interface Version {
  /** Every change of the version that is not noise. */
  real: Change[];
  metas: Change[];
  heroChange?: Change;
  /** Changes a rule of the whole version already said (or that say nothing). */
  skip: Set<Change>;
  /** Changes left to the rules that read a version's changes together (below). */
  jobs: Change[];
  addressFields: Change[];
  rest: Change[];
}

/** Bulk edits of one version (a redesigned feature grid or navigation) are one signal each, read first. */
const BULK_EDITS: readonly (readonly [{ info: RuleInfo }, (r: Rules, v: Version) => void])[] = [
  [
    featuresBulk,
    (r, v) => {
      const adds = v.real.filter((c) => c.kind === "feature_added" && !v.skip.has(c));
      const rems = v.real.filter((c) => c.kind === "feature_removed" && !v.skip.has(c));
      if (adds.length < BULK && rems.length < BULK) return;
      featuresBulk(r, adds, rems);
      for (const c of [...adds, ...rems]) v.skip.add(c);
    },
  ],
  [
    navigationBulk,
    (r, v) => {
      const minor = v.real.filter(
        (c) => (c.kind === "page_added" || c.kind === "page_removed") && pageLink(c)?.major === false,
      );
      if (minor.length < BULK - 1) return;
      navigationBulk(r, minor);
      for (const c of minor) v.skip.add(c);
    },
  ],
];

/** Whether a rule took a change. */
type Take = (r: Rules, c: Change, v: Version) => boolean;
const took = (_?: unknown): true => true;

/** The rules that read one change at a time, each with what it takes. A change goes to the first rule here whose
 * `reads` names its kind and that takes it (a source kind's own rules, `ctx.rules`, are offered it first); a
 * rule that reads changes together collects it for the end. A change none takes is left to the rules of the
 * version's text (a field no rule reads says nothing). */
const EACH: readonly (readonly [{ info: RuleInfo }, Take])[] = [
  [planPrice, (r, c) => took(planPrice(r, c))],
  [planPresence, (r, c) => took(planPresence(r, c))],
  [planFeatures, (r, c, v) => took(planFeatures(r, c, v.real))],
  [feature, (r, c) => took(feature(r, c))],
  [integration, (r, c) => took(integration(r, c))],
  [hiring, (_, c, v) => took(v.jobs.push(c))],
  [page, (r, c) => took(page(r, c))],
  [feedItem, (r, c) => took(feedItem(r, c))],
  [
    hero,
    (r, c, v) => {
      // a pricing page's lead whose amounts alone changed is a price in its text (priceText), not messaging
      if (r.ctx.pageKind === "pricing" && c.before && c.after && numberless(c.before) === numberless(c.after))
        return false;
      const metas = v.heroChange
        ? v.metas.filter((m) => m.subject === "title" || m.subject === "meta:description")
        : [];
      return took(hero(r, c, metas));
    },
  ],
  [address, (_, c, v) => /address\./.test(c.subject) && took(v.addressFields.push(c))],
  [
    domain,
    (r, c) =>
      (c.kind === "meta_changed" ? /canonical|og:url/ : /(^|\.)(url|final_url)$/i).test(c.subject) &&
      took(domain(r, c)),
  ],
  // with the hero changed, its title and description are said with it
  [meta, (r, c, v) => took(v.heroChange || meta(r, c))],
];

/** Takes the changes a rule used out of what is left of the version. */
function used(v: Version, cs: Iterable<Change>): void {
  const gone = new Set(cs);
  v.rest = v.rest.filter((c) => !gone.has(c));
}

/** The rules that read a version's changes together, in order, each given what the rules before it left. */
const TOGETHER: readonly (readonly [{ info: RuleInfo }, (r: Rules, v: Version) => void])[] = [
  [
    priceText,
    (r, v) => {
      if (r.ctx.pageKind !== "pricing") return;
      // When plans' prices changed, amounts in the text (yearly totals, savings) follow from them: left to the
      // plan changes.
      const planPriced = v.real.some((c) => c.kind === "plan_price_changed");
      const covered = new Set<number>();
      for (const c of v.real)
        if (c.kind.startsWith("plan_"))
          for (const p of [c.price?.before?.price, c.price?.after?.price])
            if (typeof p === "number") covered.add(p).add(p * 12);
      used(
        v,
        [...v.rest, ...v.metas].filter((c) =>
          planPriced
            ? c.before !== null && c.after !== null && amounts(`${c.before} ${c.after}`).length > 0
            : priceText(r, c, covered),
        ),
      );
    },
  ],
  [hiring, (r, v) => v.jobs.length && hiring(r, v.jobs)],
  [address, (r, v) => v.addressFields.length && address(r, v.addressFields)],
  [
    legalPage,
    (r, v) => {
      // a legal page's edits are the policy's, whatever they say
      if (!LEGAL_PAGES.has(r.ctx.pageKind) || !v.rest.length) return;
      legalPage(r, v.rest);
      v.rest = [];
    },
  ],
  [certifications, (r, v) => v.rest.length && used(v, certifications(r, v.rest))],
  [entries, (r, v) => NEWS_PAGES.has(r.ctx.pageKind) && v.rest.length && used(v, entries(r, v.rest))],
  [people, (r, v) => v.rest.length && used(v, people(r, v.rest))],
  [offices, (r, v) => v.rest.length && used(v, offices(r, v.rest))],
  [
    copyEdits,
    (r, v) => {
      if (!v.rest.length) return;
      const planNames = [
        ...(r.ctx.previous?.plans ?? []).map((p) => p.name),
        ...(r.ctx.snapshot?.plans ?? []).map((p) => p.name),
        ...v.real.filter((c) => c.kind.startsWith("plan_")).map((c) => c.subject),
      ];
      copyEdits(
        r,
        v.rest,
        planNames,
        v.real.some((c) => c.kind.startsWith("plan_")),
      );
    },
  ],
];

/** Offers a change to the rules that read its kind, the source kind's own first. */
function route(r: Rules, c: Change, v: Version): void {
  for (const own of r.ctx.rules ?? [])
    if (own.info.reads.includes(c.kind)) {
      own(r, c);
      return;
    }
  for (const [rule, take] of EACH) if (rule.info.reads.includes(c.kind) && take(r, c, v)) return;
  if (c.kind !== "field_changed") v.rest.push(c);
}

/** The rules classify() reaches itself, in its order (a source kind's own rules come with its source). */
export const ROUTED: readonly string[] = [...BULK_EDITS, ...EACH, ...TOGETHER].map(([rule]) => rule.info.id);

/** The general rules' declarations, each once: those routed above, and the one a cycle runs on a source that
 * stopped answering (pageGone). */
export const GENERAL_RULES: readonly RuleInfo[] = [
  ...new Map(
    [...[...BULK_EDITS, ...EACH, ...TOGETHER].map(([rule]) => rule.info), pageGone.info].map((i) => [
      i.id,
      i,
    ]),
  ).values(),
];

/** Drafts for the changes of one source in one cycle. Noise gives nothing: changes made of masked values
 * only, cosmetic edits, and small copy edits outside the key pages. */
export function classify(changes: Change[], ctx: ClassifyContext): SignalDraft[] {
  const r: Rules = { ctx, name: ctx.competitor.name, out: [] };
  const real = changes.filter((c) => {
    if (c.kind === "feed_item_added" || c.kind.startsWith("plan_") || c.kind.startsWith("job_")) return true;
    return words(`${c.before ?? ""} ${c.after ?? ""} ${c.subject}`).length > 0;
  });
  const v: Version = {
    real,
    metas: real.filter((c) => c.kind === "meta_changed"),
    heroChange: real.find((c) => c.kind === "hero_changed"),
    // renamed features and integrations say nothing
    skip: new Set([
      ...renames(real, "feature_added", "feature_removed"),
      ...renames(real, "integration_added", "integration_removed"),
    ]),
    jobs: [],
    addressFields: [],
    rest: [],
  };
  for (const [, read] of BULK_EDITS) read(r, v);
  for (const c of real) if (!v.skip.has(c)) route(r, c, v);
  for (const [, read] of TOGETHER) read(r, v);
  // One draft per key (the same event named twice in one version): the strongest first, evidence merged.
  const byKey = new Map<string, SignalDraft>();
  for (const d of r.out) {
    const have = byKey.get(d.key);
    if (!have) {
      byKey.set(d.key, d);
      continue;
    }
    const [keep, other] = severityRank(d.severity) > severityRank(have.severity) ? [d, have] : [have, d];
    keep.evidence = [...keep.evidence, ...other.evidence];
    keep.confidence = round2(Math.max(keep.confidence, other.confidence));
    byKey.set(d.key, keep);
  }
  return [...byKey.values()];
}
