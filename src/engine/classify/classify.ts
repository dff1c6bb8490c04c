// classify(changes, ctx) → SignalDraft[]: transparent rules from compare()'s Changes to ENGINE.md's taxonomy,
// with severity and confidence reasons, deterministic titles and summaries that state the values, evidence
// items and dedup keys (docs/engine.md "Classification and signals"). Pure and synchronous. This file routes
// changes to the rules; each rule family has its own file, and RULES lists every rule's declaration.
import { severityRank } from "../../domain/records.ts";
import type { Change } from "../compare/types.ts";
import { entries, feedItem, NEWS_PAGES } from "./announcements.ts";
import { appStoreApp } from "./apps.ts";
import { newRepository, npmPackage } from "./code.ts";
import { address, offices, people } from "./company.ts";
import { chiefExecutive, secFiling } from "./facts.ts";
import { hiring } from "./hiring.ts";
import { certifications, LEGAL_PAGES, legalPage } from "./legalSecurity.ts";
import { copyEdits, hero, meta } from "./marketing.ts";
import { hackerNewsStory } from "./mentions.ts";
import { domain, navigationBulk, page, pageGone, pageLink } from "./presence.ts";
import { amounts, numberless, planFeatures, planPresence, planPrice, priceText } from "./pricing.ts";
import { BULK, feature, featuresBulk, integration, renames } from "./product.ts";
import type { RuleInfo, Rules } from "./rule.ts";
import type { ClassifyContext, SignalDraft } from "./types.ts";
import { round2, words } from "./wording.ts";

export { slug } from "./wording.ts";

/** Every rule's declaration, family by family (docs/engine.md's rules table is generated from it). */
export const RULES: readonly RuleInfo[] = [
  planPrice,
  planPresence,
  planFeatures,
  priceText,
  feature,
  featuresBulk,
  integration,
  feedItem,
  entries,
  newRepository,
  npmPackage,
  chiefExecutive,
  secFiling,
  hackerNewsStory,
  appStoreApp,
  page,
  navigationBulk,
  domain,
  pageGone,
  hero,
  meta,
  copyEdits,
  address,
  offices,
  people,
  hiring,
  legalPage,
  certifications,
].map((r) => r.info);

/** Drafts for the changes of one source in one cycle. Noise gives nothing: changes made of masked values
 * only, cosmetic edits, and small copy edits outside the key pages. */
export function classify(changes: Change[], ctx: ClassifyContext): SignalDraft[] {
  const r: Rules = { ctx, name: ctx.competitor.name, out: [] };
  const real = changes.filter((c) => {
    if (c.kind === "feed_item_added" || c.kind.startsWith("plan_") || c.kind.startsWith("job_")) return true;
    return words(`${c.before ?? ""} ${c.after ?? ""} ${c.subject}`).length > 0;
  });
  const skipNames = new Set([
    ...renames(real, "feature_added", "feature_removed"),
    ...renames(real, "integration_added", "integration_removed"),
  ]);
  const jobs: Change[] = [];
  const addressFields: Change[] = [];
  const metas = real.filter((c) => c.kind === "meta_changed");
  const heroChange = real.find((c) => c.kind === "hero_changed");
  const rest: Change[] = [];
  // Bulk edits of one version (a redesigned feature grid or navigation) are one signal each.
  const featAdds = real.filter((c) => c.kind === "feature_added" && !skipNames.has(c));
  const featRems = real.filter((c) => c.kind === "feature_removed" && !skipNames.has(c));
  if (featAdds.length >= BULK || featRems.length >= BULK) {
    featuresBulk(r, featAdds, featRems);
    for (const c of [...featAdds, ...featRems]) skipNames.add(c);
  }
  const minorPages = real.filter(
    (c) => (c.kind === "page_added" || c.kind === "page_removed") && pageLink(c)?.major === false,
  );
  if (minorPages.length >= BULK - 1) {
    navigationBulk(r, minorPages);
    for (const c of minorPages) skipNames.add(c);
  }
  for (const c of real) {
    if (skipNames.has(c)) continue;
    // A source kind's own rule takes its changes of the kinds it reads.
    const own = ctx.rules?.find((x) => x.info.reads.includes(c.kind));
    if (own) {
      own(r, c);
      continue;
    }
    switch (c.kind) {
      case "plan_price_changed":
        planPrice(r, c);
        break;
      case "plan_added":
      case "plan_removed":
        planPresence(r, c);
        break;
      case "plan_features_changed":
        planFeatures(r, c, real);
        break;
      case "feature_added":
      case "feature_removed":
        feature(r, c);
        break;
      case "integration_added":
      case "integration_removed":
        integration(r, c);
        break;
      case "job_added":
      case "job_removed":
        jobs.push(c);
        break;
      case "page_added":
      case "page_removed":
        page(r, c);
        break;
      case "feed_item_added":
        feedItem(r, c);
        break;
      case "hero_changed":
        // a pricing page's lead whose amounts alone changed is a price in its text (below), not messaging
        if (
          ctx.pageKind === "pricing" &&
          c.before &&
          c.after &&
          numberless(c.before) === numberless(c.after)
        ) {
          rest.push(c);
          break;
        }
        hero(
          r,
          c,
          heroChange ? metas.filter((m) => m.subject === "title" || m.subject === "meta:description") : [],
        );
        break;
      case "meta_changed":
        if (/canonical|og:url/.test(c.subject)) domain(r, c);
        else if (!heroChange) meta(r, c);
        break;
      case "field_changed":
        if (/address\./.test(c.subject)) addressFields.push(c);
        else if (/(^|\.)(url|final_url)$/i.test(c.subject)) domain(r, c);
        break;
      default:
        rest.push(c);
    }
  }
  if (ctx.pageKind === "pricing") {
    // When plans' prices changed, amounts in the text (yearly totals, savings) follow from them: left to the
    // plan changes.
    const planPriced = real.some((c) => c.kind === "plan_price_changed");
    const covered = new Set<number>();
    for (const c of real)
      if (c.kind.startsWith("plan_"))
        for (const v of [c.price?.before?.price, c.price?.after?.price])
          if (typeof v === "number") covered.add(v).add(v * 12);
    const priced = [...rest, ...metas].filter((c) =>
      planPriced
        ? c.before !== null && c.after !== null && amounts(`${c.before} ${c.after}`).length > 0
        : priceText(r, c, covered),
    );
    for (const c of priced) {
      const i = rest.indexOf(c);
      if (i >= 0) rest.splice(i, 1);
    }
  }
  if (jobs.length) hiring(r, jobs);
  if (addressFields.length) address(r, addressFields);
  if (rest.length) {
    const kind = ctx.pageKind;
    if (LEGAL_PAGES.has(kind)) legalPage(r, rest);
    else {
      const used = new Set<Change>([...certifications(r, rest)]);
      if (NEWS_PAGES.has(kind))
        for (const c of entries(
          r,
          rest.filter((x) => !used.has(x)),
        ))
          used.add(c);
      for (const c of people(
        r,
        rest.filter((x) => !used.has(x)),
      ))
        used.add(c);
      for (const c of offices(
        r,
        rest.filter((x) => !used.has(x)),
      ))
        used.add(c);
      const planNames = [
        ...(ctx.previous?.plans ?? []).map((p) => p.name),
        ...(ctx.snapshot?.plans ?? []).map((p) => p.name),
        ...real.filter((c) => c.kind.startsWith("plan_")).map((c) => c.subject),
      ];
      copyEdits(
        r,
        rest.filter((c) => !used.has(c)),
        planNames,
        real.some((c) => c.kind.startsWith("plan_")),
      );
    }
  }
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
