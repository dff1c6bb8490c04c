// Extraction step: a page's features — the titles of its card grids that are not plans, people, stats, blog
// teasers or events (not on pages that list other things: customers, blog, careers, integrations, docs …).
import type { CardInfo } from "./blocks.ts";
import { type El, findFirst, isTag } from "./dom.ts";

/** A stat's title ("10M+", "99.9%"): a number, not a feature. */
const STAT_TITLE = /^[^\p{L}]*[\d.,]+\s*(%|\+|[kmb]\+?|x|×|million|billion|k\+)?[^\p{L}]*$/iu;
const NO_FEATURES_PATH =
  /(^|\/)(customers?|case-stud(y|ies)|stories|blog|news|press|careers?|jobs|about|company|team|leadership|investors|integrations?|marketplace|legal|privacy|terms|changelog|release-notes|docs|help|support)(\/|$|\.)/;
const NO_FEATURES_SECTION =
  /\b(team|leadership|founders?|investors?|board|people|testimonials?|customers?|case stud|stories|reviews?|press|news|blog|articles?|posts?|jobs?|openings|positions|roles|careers?|faq|questions|events?|webinars?|resources|awards?|offices?|locations?|pricing|plans?|integrations?)\b/i;
const PERSON_ROLE =
  /\b(ceo|cto|cfo|coo|cmo|cpo|founder|co-founder|head of|vp|vice president|director|chief)\b/i;

const READING_TIME = /\b\d+\s*min(ute)?s?\s+read\b/i;
/** The features of the page at `path` (its lower-case path), from its card groups that are no plans. */
export function readFeatures(
  path: string,
  groups: Map<El | null, CardInfo[]>,
  planGroups: Set<CardInfo[]>,
): string[] {
  const features: string[] = [];
  if (!NO_FEATURES_PATH.test(path)) {
    for (const g of groups.values()) {
      if (planGroups.has(g) || g.length < 2) continue;
      const section = g[0]!.block.section ?? "";
      if (NO_FEATURES_SECTION.test(section)) continue;
      if (
        g.some(
          (c) => c.block.title.length > 60 || c.block.items.some((i) => PERSON_ROLE.test(i) && i.length < 60),
        )
      )
        continue;
      if (g.some((c) => findFirst(c.el, isTag("time")))) continue;
      // stats ("10M+ events"), blog teasers ("5 min read") and people are not features
      if (g.filter((c) => STAT_TITLE.test(c.block.title)).length >= g.length / 2) continue;
      if (g.some((c) => c.block.items.some((i) => READING_TIME.test(i)))) continue;
      for (const c of g) if (!features.includes(c.block.title)) features.push(c.block.title);
    }
  }
  return features;
}
