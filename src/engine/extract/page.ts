// Page extraction: one HTML page → the structured read every engine step uses. Pure and synchronous: it runs in
// a Worker. Built for real-world pages: broken HTML, fragments, missing pieces, many pricing layouts. Its steps,
// in order: parse (dom.ts), the head (head.ts), strip what is no content (dom.ts) and overlays (overlays.ts),
// regions and links (links.ts), blocks (blocks.ts), the hero (hero.ts), then by what the page is: plans
// (plans.ts), features (features.ts), integrations (integrations.ts), jobs (jobs.ts); the readable text
// (text.ts); here the page's kind and the assembled extract.
import { cardGroups, walkContent } from "./blocks.ts";
import {
  absoluteUrl,
  attr,
  clean,
  cleanLength,
  contentRoot,
  type Doc,
  type El,
  findFirst,
  parseDocument,
  stripNonContent,
  textOf,
} from "./dom.ts";
import { readFeatures } from "./features.ts";
import { headParts, jsonLdOf, readFeeds, readMeta, readScripts } from "./head.ts";
import { readHero } from "./hero.ts";
import { readIntegrations } from "./integrations.ts";
import { readJobs } from "./jobs.ts";
import { readLinks, regionsOf } from "./links.ts";
import { microdataOffers } from "./offers.ts";
import { stripOverlays } from "./overlays.ts";
import { readPlans } from "./plans.ts";
import { billingMark, type HiddenAlternative } from "./pricing.ts";
import { blocksText, isArticle, readableText } from "./text.ts";
import type { PageExtract } from "./types.ts";

export type { Block, Job, Link, PageExtract, Plan, UsagePrice } from "./types.ts";

const MAX_TEXT = 200_000;

// ---- page kinds ----------------------------------------------------------------------------------------

function pathOf(url: string): string {
  try {
    return new URL(url).pathname.toLowerCase();
  } catch {
    return "";
  }
}

/** A tab panel (role or class): a hidden one holds what its tab reveals. */
const TAB_PANEL = /\btabpanel\b|\btab-?pane\b|\btab-?panel\b|\btabs?__panel\b|\btab-content__item\b/i;
const PRICING_PATH = /(^|\/)(pricing|plans|prices|tarifs|preise|precios|buy|subscribe|upgrade)(\/|$|\.|-)/;
const INTEGRATIONS_PATH =
  /(^|\/)(integrations?|marketplace|apps|app-directory|app-marketplace|connectors|ecosystem|partners\/integrations|extensions|plugins)(\/|$|\.)/;
const CAREERS_PATH =
  /(^|\/)(careers?|jobs|join(-us)?|work-with-us|open-positions|open-roles|vacancies|hiring|team\/jobs)(\/|$|\.)/;

// ---- entry points --------------------------------------------------------------------------------------

/** Extracts the structured read of one page. Never throws: a page that defeats the DOM walk (e.g. nesting
 *  deeper than the parser's stack) gives an extract with its tag-stripped text and nothing structured. */
export function extractPage(html: string, url: string): PageExtract {
  try {
    const page = extractFromDocument(parseDocument(html ?? ""), html, url);
    if (page) return page;
  } catch {
    // the parser gave up: read the page as text
  }
  return fallbackExtract(html ?? "", url);
}

/** The extract of a page already parsed (with parseDocument, from the same `html`; the document is changed),
 *  or null when the DOM walk fails (then fallbackExtract is what extractPage gives). */
export function extractFromDocument(doc: Doc, html: string, url: string): PageExtract | null {
  try {
    return extractPageDom(doc, html ?? "", url);
  } catch {
    return null;
  }
}

/** The extract of a page the DOM walk cannot read: its tag-stripped text and title, nothing structured. */
export function fallbackExtract(html: string, url: string): PageExtract {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html.slice(0, 100_000));
  const text = clean(
    html
      .slice(0, MAX_TEXT * 4)
      .replace(/<(script|style|noscript|template)[^>]*>[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/&nbsp;/g, " ")
      .replace(/&amp;/g, "&")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">"),
  ).slice(0, MAX_TEXT);
  const out: PageExtract = {
    url,
    meta: {},
    jsonLd: [],
    blocks: text ? [{ kind: "text", text: text.slice(0, 20_000) }] : [],
    links: { nav: [], footer: [], body: [] },
    feeds: [],
    scripts: [],
    plans: [],
    features: [],
    integrations: [],
    jobs: [],
    text,
  };
  if (title && clean(title[1])) out.title = clean(title[1]);
  return out;
}

/** A page that may hold microdata: an `itemscope` anywhere in its source. */
const MICRODATA = /itemscope/i;

function extractPageDom(doc: Doc, html: string, url: string): PageExtract {
  let base = url;
  const head = headParts(doc);
  const baseHref = attr(head.base, "href");
  if (baseHref) base = absoluteUrl(baseHref, url) ?? url;

  const titleText = textOf(head.title);
  const lang = clean(doc.documentElement?.getAttribute?.("lang")) || undefined;
  const meta = readMeta(head, base);
  const jsonLd = jsonLdOf(head.scripts);
  const feeds = readFeeds(head, base);
  const scripts = readScripts(head, base);
  const articleText = isArticle(meta, jsonLd) ? readableText(html) : null;

  const root = contentRoot(doc);
  // microdata offers are read before <meta itemprop> and hidden parts go (not looked for on a page without any)
  const microdata = MICRODATA.test(html) ? microdataOffers(root) : [];
  const removed = stripNonContent(root);
  stripOverlays(root);
  const hiddenAlts: HiddenAlternative[] = [];
  const hiddenPanels: El[] = [];
  for (const r of removed) {
    const mark = billingMark(r.el);
    if (mark) hiddenAlts.push({ ...r, mark });
    else if (TAB_PANEL.test(`${attr(r.el, "role")} ${attr(r.el, "class")}`)) hiddenPanels.push(r.el);
  }
  const regions = regionsOf(root);
  const links = readLinks(regions, base);

  // Content: <main> when it holds the page, else the body without header/nav/footer.
  const main = findFirst(root, (e) => e.tagName === "MAIN" || attr(e, "role") === "main");
  const lengths = main ? cleanLength(root, main) : null;
  const useMain = !!lengths && lengths[1] >= lengths[0] * 0.2;
  const content = useMain ? main! : root;
  const w = walkContent(content, useMain);
  const { h1, hero } = readHero(content, regions, w.blocks);

  const path = pathOf(url);
  const h1Text = h1 ? textOf(h1).toLowerCase() : "";
  const isPricing = PRICING_PATH.test(path) || /\b(pricing|plans)\b/.test(h1Text);
  const isIntegrations =
    INTEGRATIONS_PATH.test(path) || /^(integrations?|apps|marketplace|connectors)\b/.test(h1Text);
  const isCareers = CAREERS_PATH.test(path);

  const groups = cardGroups(w.cards);
  const { plans, planGroups, usage } = readPlans(w, groups, content, {
    isPricing,
    jsonLd,
    microdata,
    hiddenAlts,
    hiddenPanels,
  });
  const features = isIntegrations || isCareers ? [] : readFeatures(path, groups, planGroups);
  const { integrations, integrationPages } = isIntegrations
    ? readIntegrations(w, groups, planGroups, { root, content, headLinks: head.links, url })
    : { integrations: [], integrationPages: [] };
  const jobs = isCareers ? readJobs(w, groups, content, base) : [];
  const text = articleText ?? blocksText(w.blocks);

  const out: PageExtract = {
    url,
    meta,
    jsonLd,
    blocks: w.blocks,
    links,
    feeds,
    scripts,
    plans,
    features,
    integrations,
    jobs,
    text: text.slice(0, MAX_TEXT),
  };
  if (titleText) out.title = titleText;
  if (lang) out.lang = lang;
  if (hero) out.hero = hero;
  if (usage.length) out.usage = usage;
  if (integrationPages.length) out.integrationPages = integrationPages;
  return out;
}
