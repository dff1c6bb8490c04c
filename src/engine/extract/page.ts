// Page extraction: one HTML page → the structured read every engine step uses (blocks, links, structured
// data, hero, plans, features, integrations, careers-page jobs, readable text). Pure and synchronous: it runs
// in a Worker. Built for real-world pages: broken HTML, fragments, missing pieces, many pricing layouts.
import { Readability } from "@mozilla/readability";
import {
  absoluteUrl,
  ancestorOrSelf,
  attr,
  clean,
  cleanLength,
  contentRoot,
  type Doc,
  descendants,
  type El,
  findFirst,
  HEADING,
  hasOnlyInline,
  isInline,
  isTag,
  leafLines,
  type Node,
  nodesText,
  parseDocument,
  parseFullDocument,
  stripNonContent,
  textOf,
} from "./dom.ts";
import { siblingSignatures, signature, similarGroups, textWithin } from "./groups.ts";
import {
  directoryPages,
  headingNames,
  integrationName,
  isFilterList,
  tableNames,
  tileNames,
} from "./integrations.ts";
import { microdataOffers, offersFromJsonLd } from "./offers.ts";
import { stripOverlays } from "./overlays.ts";
import {
  annualFromAttributes,
  billingMark,
  cardTitle,
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

export type { Plan, UsagePrice } from "./pricing.ts";

export type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "text"; text: string; section?: string }
  | { kind: "list"; items: string[]; section?: string }
  | { kind: "table"; rows: string[][]; section?: string }
  | { kind: "card"; title: string; items: string[]; section?: string };

export interface Link {
  url: string;
  text: string;
}

export interface Job {
  title: string;
  department?: string;
  location?: string;
  url?: string;
}

export interface PageExtract {
  url: string;
  title?: string;
  lang?: string;
  meta: Record<string, string>;
  jsonLd: Record<string, unknown>[];
  hero?: { headline: string; subheadline?: string };
  blocks: Block[];
  links: { nav: Link[]; footer: Link[]; body: Link[] };
  feeds: { url: string; type: string; title?: string }[];
  scripts: string[];
  plans: Plan[];
  /** Metered rates beside the plans ("$0.50 per 1,000 events"), on pricing pages. */
  usage?: UsagePrice[];
  features: string[];
  integrations: string[];
  /** An integrations directory's further pages (next pages, category pages), to be followed. */
  integrationPages?: string[];
  jobs: Job[];
  text: string;
}

const MAX_BLOCKS = 4000;
const MAX_TEXT = 200_000;

// ---- structured data from <head> -------------------------------------------------------------------------

/** The elements the head readers need, collected in one pass over the document. */
interface HeadParts {
  metas: El[];
  links: El[];
  scripts: El[];
  base?: El;
  title?: El;
}

function headParts(doc: Doc): HeadParts {
  const parts: HeadParts = { metas: [], links: [], scripts: [] };
  const rootEl = doc.documentElement;
  if (!rootEl) return parts;
  for (const e of [rootEl, ...descendants(rootEl)]) {
    const tag = e.tagName;
    if (tag === "META") parts.metas.push(e);
    else if (tag === "LINK") parts.links.push(e);
    else if (tag === "SCRIPT") parts.scripts.push(e);
    else if (tag === "BASE" && !parts.base && attr(e, "href")) parts.base = e;
    else if (tag === "TITLE" && !parts.title && !ancestorOrSelf(e, (x) => x.tagName === "SVG"))
      parts.title = e;
  }
  return parts;
}

function readMeta(head: HeadParts, base: string): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const m of head.metas) {
    const key = (attr(m, "property") || attr(m, "name") || attr(m, "itemprop") || "").trim().toLowerCase();
    const content = clean(attr(m, "content"));
    if (key && content && !(key in meta)) meta[key] = content.slice(0, 2000);
  }
  const canonical = head.links.find((l) => attr(l, "rel").toLowerCase().split(/\s+/).includes("canonical"));
  const href = absoluteUrl(attr(canonical, "href"), base);
  if (href && !("canonical" in meta)) meta.canonical = href;
  return meta;
}

/** JSON-LD objects of the page: arrays and @graph flattened, unparseable blocks repaired or skipped. */
export function readJsonLd(doc: Doc): Record<string, unknown>[] {
  return jsonLdOf(headParts(doc).scripts);
}

function jsonLdOf(scripts: El[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const push = (v: unknown, context?: unknown) => {
    if (out.length >= 100) return;
    if (Array.isArray(v)) {
      for (const x of v) push(x, context);
      return;
    }
    if (!v || typeof v !== "object") return;
    const o = v as Record<string, unknown>;
    const ctx = o["@context"] ?? context;
    if (Array.isArray(o["@graph"])) {
      for (const x of o["@graph"] as unknown[]) push(x, ctx);
      const rest = Object.keys(o).filter((k) => k !== "@graph" && k !== "@context");
      if (rest.length && o["@type"]) out.push(o);
      return;
    }
    out.push(ctx && !o["@context"] ? { "@context": ctx, ...o } : o);
  };
  for (const s of scripts) {
    const type = attr(s, "type").toLowerCase().trim();
    if (type !== "application/ld+json") continue;
    const raw = s.textContent ?? "";
    const parsed = parseJsonLoose(raw);
    if (parsed !== undefined) push(parsed);
  }
  return out;
}

/** Control characters (raw newlines/tabs inside JSON strings are common in hand-written JSON-LD) → spaces. */
function stripControl(s: string): string {
  let out = "";
  for (const ch of s) out += ch.charCodeAt(0) < 32 ? " " : ch;
  return out;
}

function parseJsonLoose(raw: string): unknown {
  const src = raw
    .trim()
    .replace(/^<!\[CDATA\[|\]\]>$/g, "")
    .replace(/^\/\*<!\[CDATA\[\*\/|\/\*\]\]>\*\/$/g, "")
    .replace(/^<!--|-->$/g, "")
    .trim();
  if (!src) return undefined;
  try {
    return JSON.parse(src);
  } catch {
    // control characters inside strings, trailing commas, several objects in a row
    const repaired = stripControl(src).replace(/,\s*([}\]])/g, "$1");
    try {
      return JSON.parse(repaired);
    } catch {
      try {
        return JSON.parse(`[${repaired.replace(/}\s*{/g, "},{")}]`);
      } catch {
        return undefined;
      }
    }
  }
}

const FEED_TYPES =
  /^(application\/(rss|atom|feed|rdf)\+(xml|json)|application\/json|application\/xml|text\/xml)$/i;

function readFeeds(head: HeadParts, base: string): PageExtract["feeds"] {
  const out: PageExtract["feeds"] = [];
  const seen = new Set<string>();
  for (const l of head.links) {
    const rel = attr(l, "rel").toLowerCase().split(/\s+/);
    const type = attr(l, "type").toLowerCase().trim();
    if (!rel.includes("alternate") || !FEED_TYPES.test(type)) continue;
    if (type === "application/json" && !/feed/i.test(`${attr(l, "href")} ${attr(l, "title")}`)) continue;
    const url = absoluteUrl(attr(l, "href"), base);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    const title = clean(attr(l, "title"));
    out.push(title ? { url, type, title } : { url, type });
  }
  return out;
}

function readScripts(head: HeadParts, base: string): string[] {
  const out = new Set<string>();
  for (const s of head.scripts) {
    if (!attr(s, "src")) continue;
    const u = absoluteUrl(attr(s, "src"), base);
    if (u) out.add(u);
  }
  for (const l of head.links) {
    if (attr(l, "as") !== "script") continue;
    const u = absoluteUrl(attr(l, "href"), base);
    if (u) out.add(u);
  }
  return [...out];
}

// ---- regions and links -----------------------------------------------------------------------------------

const FOOTER_TOKEN = /(^|[\s_-])(footer|site-footer|colophon|page-footer|global-footer)([\s_-]|$)/i;
// site-level header/nav containers; a bare "header" only as a whole token (not "card-header")
const HEADER_TOKEN =
  /(^|[\s_-])(navbar|site-header|masthead|global-header|page-header-nav|top-nav|topbar|main-nav|site-nav|global-nav)([\s_-]|$)|(^|\s)(header|nav|navigation)(\s|$)/i;
const IN_CONTENT = new Set(["MAIN", "ARTICLE", "BLOCKQUOTE", "FIGURE"]);

type Region = "nav" | "footer" | "body";

/** The region of every link and <h1>, in one top-down pass: inside a <footer> (or contentinfo / footer
 *  class) that is not inside main content → footer; inside <nav>, <header>, banner/navigation roles or a
 *  site-header class → nav; otherwise, and anywhere inside <main>/<article>, → body. */
function regionsOf(root: El): Map<El, Region> {
  const out = new Map<El, Region>();
  const stack: { e: El; region: Region; content: boolean }[] = [];
  const push = (parent: El, region: Region, content: boolean) => {
    for (let c = parent.lastElementChild; c; c = c.previousElementSibling)
      stack.push({ e: c, region, content });
  };
  push(root, "body", false);
  while (stack.length) {
    let { e, region, content } = stack.pop()!;
    const tag = e.tagName;
    if (IN_CONTENT.has(tag) || attr(e, "role") === "main") {
      content = true;
      if (region === "nav") region = "body";
    } else if (!content && region !== "footer") {
      const role = attr(e, "role");
      const key = `${attr(e, "id")} ${attr(e, "class")}`;
      if (tag === "FOOTER" || role === "contentinfo" || (tag !== "A" && FOOTER_TOKEN.test(key)))
        region = "footer";
      else if (tag === "NAV" || tag === "HEADER" || role === "navigation" || role === "banner")
        region = "nav";
      else if (tag === "DIV" && HEADER_TOKEN.test(key)) region = "nav";
    }
    if (tag === "A" || tag === "H1") out.set(e, region);
    push(e, region, content);
  }
  return out;
}

function isRegionRoot(el: El): boolean {
  const tag = el.tagName;
  const role = attr(el, "role");
  if (tag === "NAV" || tag === "HEADER" || tag === "FOOTER") return true;
  if (role === "navigation" || role === "banner" || role === "contentinfo") return true;
  const key = `${attr(el, "id")} ${attr(el, "class")}`;
  return (
    tag === "DIV" &&
    (FOOTER_TOKEN.test(key) || /(^|[\s_-])(navbar|site-header|masthead)([\s_-]|$)/i.test(key))
  );
}

function linkText(a: El): string {
  const t = textOf(a);
  if (t) return t.slice(0, 300);
  const label = clean(attr(a, "aria-label") || attr(a, "title"));
  if (label) return label;
  const img = findFirst(a, (e) => e.tagName === "IMG" && e.hasAttribute("alt"));
  return clean(attr(img, "alt"));
}

function readLinks(regions: Map<El, Region>, base: string): PageExtract["links"] {
  const out: PageExtract["links"] = { nav: [], footer: [], body: [] };
  const seen = { nav: new Set<string>(), footer: new Set<string>(), body: new Set<string>() };
  for (const [a, region] of regions) {
    if (a.tagName !== "A") continue;
    const url = absoluteUrl(attr(a, "href"), base);
    if (!url) continue;
    if (seen[region].has(url)) continue;
    seen[region].add(url);
    out[region].push({ url, text: linkText(a) });
    if (out[region].length > 2000) break;
  }
  return out;
}

// ---- blocks -------------------------------------------------------------------------------------------

interface CardInfo {
  el: El;
  parent: El | null;
  block: Extract<Block, { kind: "card" }>;
}

interface Walk {
  blocks: Block[];
  cards: CardInfo[];
  tables: { el: El; rows: string[][]; section?: string }[];
  lists: { el: El; items: string[]; section?: string }[];
  section?: string;
  /** Walking the body (no <main>): leave header, nav and footer out. */
  skipRegions?: boolean;
  /** Current element depth: past MAX_DEPTH a subtree is read as one run of text (no deeper recursion). */
  depth: number;
}

const MAX_DEPTH = 300;

const CARD_TAGS = new Set(["DIV", "ARTICLE", "LI", "SECTION", "A", "ASIDE"]);
const TITLE_CLASS = /(^|[\s_-])(title|name|heading|headline)([\s_-]|$)|(title|name|heading)(--|__)/i;

function headingCount(el: El, limit: number): number {
  let n = 0;
  for (const h of descendants(el)) {
    if (!HEADING.has(h.tagName)) continue;
    if (textOf(h)) n++;
    if (n > limit) break;
  }
  return n;
}

/** A card: one of ≥ 2 similar siblings, with exactly one title (a heading or a title-classed element). */
function isCard(el: El): boolean {
  if (!CARD_TAGS.has(el.tagName)) return false;
  const parent = el.parentElement;
  if (!parent) return false;
  if ((siblingSignatures(parent).get(signature(el)) ?? 0) < 2) return false;
  if (!textWithin(el, 1500)) return false;
  if (findFirst(el, isTag("table", "main", "article"))) return false;
  const h = headingCount(el, 3);
  if (h > 3) return false;
  if (h > 1) {
    // a title heading with deeper sub-headings ("Includes") is still one card
    const levels = descendants(el)
      .filter((e) => HEADING.has(e.tagName))
      .map((e) => Number(e.tagName[1]));
    return levels.slice(1).every((l) => l > levels[0]!);
  }
  if (h === 1) return leadingText(el) <= 40;
  for (const c of descendants(el)) {
    if (TITLE_CLASS.test(attr(c, "class")) && textOf(c)) return true;
  }
  return false;
}

/** The length of the text before the element's first heading (a badge or eyebrow at most, for a card: a
 *  section whose heading follows a whole grid is not one card). */
function leadingText(el: El): number {
  let len = 0;
  const stack: Node[] = [];
  for (let c = el.lastChild; c; c = c.previousSibling) stack.push(c);
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === 3) {
      len += clean(n.nodeValue).length;
      if (len > 40) return len;
      continue;
    }
    if (n.nodeType !== 1) continue;
    if (HEADING.has((n as El).tagName)) return len;
    for (let c = (n as El).lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return len;
}

function tableRows(table: El): string[][] {
  const rows: string[][] = [];
  // the parser adds no implied <tbody>: select rows directly
  const trs: El[] = [];
  const collect = (e: El) => {
    for (let c = e.firstElementChild; c; c = c.nextElementSibling) {
      if (c.tagName === "TR") trs.push(c);
      else if (c.tagName !== "TABLE") collect(c);
    }
  };
  collect(table);
  for (const tr of trs) {
    const cells: string[] = [];
    for (const c of tr.children) {
      if (c.tagName === "TD" || c.tagName === "TH")
        cells.push(hasOnlyInline(c) && !findFirst(c, isTag("br")) ? textOf(c) : leafLines(c).join(" "));
    }
    if (cells.some((c) => c)) rows.push(cells);
    if (rows.length >= 500) break;
  }
  return rows;
}

function pushText(w: Walk, text: string): void {
  const t = clean(text);
  if (!t || w.blocks.length >= MAX_BLOCKS) return;
  w.blocks.push(w.section ? { kind: "text", text: t, section: w.section } : { kind: "text", text: t });
}

function withSection<T extends Block>(w: Walk, b: T): T {
  if (w.section) (b as { section?: string }).section = w.section;
  return b;
}

function cardBlock(w: Walk, el: El): void {
  const title = cardTitle(el);
  if (!title) {
    walkChildren(w, el);
    return;
  }
  const items = leafLines(el, title.el).filter((t) => t !== title.text);
  const block = withSection(w, { kind: "card" as const, title: title.text, items });
  w.blocks.push(block);
  w.cards.push({ el, parent: el.parentElement, block });
}

function handleElement(w: Walk, el: El): void {
  if (w.blocks.length >= MAX_BLOCKS) return;
  const tag = el.tagName;
  if (HEADING.has(tag)) {
    const text = textOf(el);
    if (text) {
      w.blocks.push({ kind: "heading", level: Number(tag[1]), text });
      w.section = text;
    }
    return;
  }
  if (tag === "TABLE") {
    const rows = tableRows(el);
    if (rows.length) {
      w.blocks.push(withSection(w, { kind: "table" as const, rows }));
      w.tables.push({ el, rows, section: w.section });
    }
    return;
  }
  if (tag === "UL" || tag === "OL" || tag === "MENU") {
    const lis = el.children.filter((c) => c.tagName === "LI");
    if (lis.length >= 2 && lis.filter((li) => headingCount(li, 1) === 1).length >= 2) {
      for (const li of lis) cardBlock(w, li);
      return;
    }
    const items = lis.map((li) => textOf(li)).filter((t) => t);
    if (items.length) {
      w.blocks.push(withSection(w, { kind: "list" as const, items }));
      w.lists.push({ el, items, section: w.section });
    } else if (!lis.length) walkChildren(w, el);
    return;
  }
  if (tag === "DL") {
    const rows: string[][] = [];
    let term = "";
    for (const c of descendants(el).filter(isTag("dt", "dd"))) {
      if (c.tagName === "DT") term = textOf(c);
      else if (term) rows.push([term, textOf(c)]);
    }
    if (rows.length) {
      w.blocks.push(withSection(w, { kind: "table" as const, rows }));
      w.tables.push({ el, rows, section: w.section });
    }
    return;
  }
  if (isCard(el)) {
    cardBlock(w, el);
    return;
  }
  if (hasOnlyInline(el)) {
    pushText(w, textOf(el));
    return;
  }
  walkChildren(w, el);
}

function walkChildren(w: Walk, el: El): void {
  if (w.depth > MAX_DEPTH) {
    pushText(w, el.textContent ?? "");
    return;
  }
  w.depth++;
  try {
    walkChildrenAt(w, el);
  } finally {
    w.depth--;
  }
}

function walkChildrenAt(w: Walk, el: El): void {
  let run: Node[] = [];
  const flush = () => {
    if (run.length) pushText(w, nodesText(run));
    run = [];
  };
  for (const n of el.childNodes) {
    if (n.nodeType === 3) {
      run.push(n);
      continue;
    }
    if (n.nodeType !== 1) continue;
    const c = n as El;
    if (isInline(c) && hasOnlyInline(c)) {
      run.push(n);
      continue;
    }
    flush();
    if (w.skipRegions && isRegionRoot(c)) continue;
    handleElement(w, c);
  }
  flush();
}

// ---- hero ---------------------------------------------------------------------------------------------

const CTA_ONLY = /^(start|get|try|book|sign|request|contact|watch|see|learn|join|download|explore|talk)\b/i;

function firstHeadline(content: El, regions: Map<El, Region>): El | null {
  return findFirst(content, (h) => h.tagName === "H1" && regions.get(h) === "body" && !!textOf(h));
}

function subheadline(h1: El): string | undefined {
  let node: El | null = h1;
  for (let depth = 0; depth < 3 && node; depth++) {
    let sib = node.nextElementSibling;
    for (let i = 0; sib && i < 4; i++, sib = sib.nextElementSibling) {
      if (!textWithin(sib, 3000)) continue; // a whole section, not a sub-headline
      const t = textOf(sib);
      if (!t) continue;
      const tag = sib.tagName;
      if (tag === "H1") return undefined;
      const ctas = descendants(sib).filter(isTag("a", "button"));
      const onlyCta =
        (ctas.length > 0 && clean(ctas.map(textOf).join(" ")) === t) || tag === "A" || tag === "BUTTON";
      if (onlyCta || (CTA_ONLY.test(t) && t.length < 40)) continue;
      if ((HEADING.has(tag) || tag === "P" || hasOnlyInline(sib)) && t.length >= 15) return t.slice(0, 400);
      if (!hasOnlyInline(sib)) {
        const first = leafLines(sib)[0];
        if (first && first.length >= 15 && !CTA_ONLY.test(first)) return first.slice(0, 400);
      }
    }
    node = node.parentElement;
    if (node && (node.tagName === "MAIN" || node.tagName === "BODY")) break;
  }
  return undefined;
}

/** Plan cards in utility-class markup (no headings, no title classes): the first group of similar
 *  siblings of which at least two read as plans. Only run on pricing pages that gave no plans otherwise. */
const STAT_TITLE = /^[^\p{L}]*[\d.,]+\s*(%|\+|[kmb]\+?|x|×|million|billion|k\+)?[^\p{L}]*$/iu;

const PRICE_HINT =
  /[$€£¥₹₩₺₽]|\b(?:USD|EUR|GBP|CAD|AUD|CHF|SEK|NOK|DKK|PLN|INR|JPY|kr|zł|free|custom|contact|sales|talk|quote|request|pricing)\b/i;

/** True when a plan card sits in a container marked as the annual alternative (a yearly tab panel). */
function inAnnualPanel(el: El): boolean {
  let e: El | null = el.parentElement;
  for (let i = 0; e && i < 5; i++, e = e.parentElement) {
    const key = `${attr(e, "id")} ${attr(e, "class")} ${attr(e, "aria-labelledby")} ${attr(e, "data-period")} ${attr(e, "data-billing")} ${attr(e, "data-tab")}`;
    if (/annual|yearly|\byear\b/i.test(key)) return true;
  }
  return false;
}

function loosePlans(content: El, hidden: HiddenAlternative[]): { plans: Plan[]; kids: El[] } {
  for (const kids of similarGroups(content, 2)) {
    const ps = kids.map((k) => planFromCard(k, true, hidden)).filter((p): p is Plan => p !== null);
    if (ps.length >= 2 && ps.some((p) => p.price !== null)) return { plans: ps, kids };
  }
  return { plans: [], kids: [] };
}

/** Job rows without headings or title classes: similar siblings that each hold a link naming a role. */
function looseJobs(content: El, base: string): Job[] {
  for (const kids of similarGroups(content, 2)) {
    const jobs: Job[] = [];
    for (const k of kids) {
      const a = k.tagName === "A" ? k : findFirst(k, (e) => e.tagName === "A" && e.hasAttribute("href"));
      const lines = a ? leafLines(a) : [];
      const title = lines[0] ?? (a ? textOf(a) : "");
      if (!a || !title || title.length > 120 || !ROLE_RE.test(title)) continue;
      const items = partsOf(k).filter((l) => l !== title);
      const job = jobFromParts(k, title, items, base);
      if (job) jobs.push(job);
    }
    if (jobs.length >= 2 && jobs.length >= kids.length / 2) return jobs;
  }
  return [];
}

/** Integration tiles without headings or title classes: ≥ 3 similar siblings named by a short first line
 *  (or their logo's alt text). */
function looseNames(content: El): string[] {
  for (const kids of similarGroups(content, 3)) {
    const names: string[] = [];
    for (const k of kids) {
      const first =
        leafLines(k)[0] ??
        attr(
          findFirst(k, (e) => e.tagName === "IMG"),
          "alt",
        );
      const n = clean(first);
      if (n && n.length <= 40 && n.split(/\s+/).length <= 5 && !/[.!?]$/.test(n)) names.push(n);
    }
    if (names.length >= 3 && names.length >= kids.length * 0.8) return [...new Set(names)];
  }
  return [];
}

// ---- pricing helpers -----------------------------------------------------------------------------------

function isInside(el: El, root: El): boolean {
  for (let e: El | null = el; e; e = e.parentElement) if (e === root) return true;
  return false;
}

function textIn(el: El, name: string): boolean {
  return clean(el.textContent).includes(name);
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
  const w: Walk = { blocks: [], cards: [], tables: [], lists: [], depth: 0 };
  walkChildren(w, panel);
  return w.cards.map((c) => planFromCard(c.el)).filter((p): p is Plan => p !== null);
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

// ---- page kinds ----------------------------------------------------------------------------------------

function pathOf(url: string): string {
  try {
    return new URL(url).pathname.toLowerCase();
  } catch {
    return "";
  }
}

const PRICING_PATH = /(^|\/)(pricing|plans|prices|tarifs|preise|precios|buy|subscribe|upgrade)(\/|$|\.|-)/;
const INTEGRATIONS_PATH =
  /(^|\/)(integrations?|marketplace|apps|app-directory|app-marketplace|connectors|ecosystem|partners\/integrations|extensions|plugins)(\/|$|\.)/;
const CAREERS_PATH =
  /(^|\/)(careers?|jobs|join(-us)?|work-with-us|open-positions|open-roles|vacancies|hiring|team\/jobs)(\/|$|\.)/;
const NO_FEATURES_PATH =
  /(^|\/)(customers?|case-stud(y|ies)|stories|blog|news|press|careers?|jobs|about|company|team|leadership|investors|integrations?|marketplace|legal|privacy|terms|changelog|release-notes|docs|help|support)(\/|$|\.)/;
const NO_FEATURES_SECTION =
  /\b(team|leadership|founders?|investors?|board|people|testimonials?|customers?|case stud|stories|reviews?|press|news|blog|articles?|posts?|jobs?|openings|positions|roles|careers?|faq|questions|events?|webinars?|resources|awards?|offices?|locations?|pricing|plans?|integrations?)\b/i;
const PERSON_ROLE =
  /\b(ceo|cto|cfo|coo|cmo|cpo|founder|co-founder|head of|vp|vice president|director|chief)\b/i;

// ---- jobs ---------------------------------------------------------------------------------------------

const ROLE_RE =
  /\b(engineer|engineering manager|developer|designer|manager|scientist|analyst|architect|executive|director|lead|head of|specialist|representative|rep|advocate|marketer|recruiter|consultant|intern|internship|officer|coordinator|writer|administrator|associate|counsel|accountant|controller|vp|vice president|chief|strategist|researcher|technician|operator|agent|owner|editor|sre|devops|programmer|tester|qa|partner|producer|assistant|generalist|principal|staff|senior|junior)\b/i;
const LOCATION_WORDS =
  /\b(remote|hybrid|on-?site|onsite|in-office|anywhere|worldwide|global|emea|apac|americas|europe|north america|latam|usa?|uk|united states|united kingdom|canada|germany|france|spain|portugal|netherlands|ireland|india|australia|singapore|japan|brazil|mexico|poland|sweden|denmark|norway|finland|switzerland|austria|italy|israel|london|new york|san francisco|berlin|paris|amsterdam|dublin|toronto|austin|boston|seattle|chicago|lisbon|madrid|barcelona|munich|zurich|stockholm|copenhagen|tel aviv|bangalore|sydney|tokyo|singapore)\b/i;
const LOCATION_SHAPE = /,\s*[A-Z]{2}\b|,\s*[A-Z][a-z]+/;
const LOCATION_RE = { test: (s: string) => LOCATION_WORDS.test(s) || LOCATION_SHAPE.test(s) };

function splitMeta(lines: string[]): string[] {
  return lines
    .flatMap((l) => l.split(/\s+[·•|—–]\s+|\s*[·•|]\s*/))
    .map(clean)
    .filter((x) => x);
}

function jobFromCard(info: CardInfo, base: string): Job | null {
  const title = info.block.title;
  return jobFromParts(
    info.el,
    title,
    partsOf(info.el).filter((t) => t !== title),
    base,
  );
}

/** The texts of an element's leaf pieces (each text node and each element without element children). */
function partsOf(el: El): string[] {
  const out: string[] = [];
  const walk = (e: El, depth: number) => {
    for (let n = e.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) {
        const t = clean(n.nodeValue);
        if (t) out.push(t);
      } else if (n.nodeType === 1) {
        const c = n as El;
        if (!c.firstElementChild || depth > 50 || HEADING.has(c.tagName)) {
          const t = textOf(c);
          if (t) out.push(t);
        } else walk(c, depth + 1);
      }
    }
  };
  walk(el, 0);
  return out;
}

function jobFromParts(el: El, title: string, items: string[], base: string): Job | null {
  if (title.length > 120 || !ROLE_RE.test(title)) return null;
  const job: Job = { title };
  for (const c of descendants(el)) {
    const cls = attr(c, "class");
    if (!cls) continue;
    const t = textOf(c);
    if (!t || t === title || t.length > 80) continue;
    if (!job.department && /(dept|department|team|category|function)/i.test(cls)) job.department = t;
    else if (!job.location && /(loc|location|office|city|place|region|where)/i.test(cls)) job.location = t;
  }
  for (const part of splitMeta(items)) {
    if (part.length > 80 || part === job.department || part === job.location) continue;
    if (/^(apply|view|learn|see|read)\b/i.test(part)) continue;
    if (!job.location && LOCATION_RE.test(part)) job.location = part;
    else if (!job.department && part.split(/\s+/).length <= 4 && !/\d/.test(part) && !LOCATION_RE.test(part))
      job.department = part;
  }
  const a =
    el.tagName === "A"
      ? el
      : (findFirst(el, (e) => e.tagName === "A" && e.hasAttribute("href")) ??
        ancestorOrSelf(el, (e) => e.tagName === "A" && e.hasAttribute("href")));
  const url = absoluteUrl(attr(a, "href"), base);
  if (url) job.url = url;
  return job;
}

function jobsFromTable(rows: string[][]): Job[] {
  const header = rows[0]!.map((h) => h.toLowerCase());
  const ti = header.findIndex((h) => /\b(title|role|position|job|opening)\b/.test(h));
  if (ti < 0) return [];
  const di = header.findIndex((h) => /\b(department|team|function|category)\b/.test(h));
  const li = header.findIndex((h) => /\b(location|office|city|where)\b/.test(h));
  const out: Job[] = [];
  for (const r of rows.slice(1)) {
    const title = clean(r[ti]);
    if (!title) continue;
    const job: Job = { title };
    if (di >= 0 && clean(r[di])) job.department = clean(r[di]);
    if (li >= 0 && clean(r[li])) job.location = clean(r[li]);
    out.push(job);
  }
  return out;
}

// ---- text ----------------------------------------------------------------------------------------------

/** Readable text of the blocks: one line per heading, text run, list item, table row (cells joined with
 *  " | ") and card (title, then its lines); a blank line before each heading. The same reading
 *  html-to-text gives (no wrapping, no uppercasing), without parsing the page a second time. */
export function blocksText(blocks: Block[]): string {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.kind === "heading") {
      if (out.length) out.push("");
      out.push(b.text);
    } else if (b.kind === "text") out.push(b.text);
    else if (b.kind === "list") out.push(...b.items);
    else if (b.kind === "table") for (const r of b.rows) out.push(r.filter((c) => c).join(" | "));
    else out.push(b.title, ...b.items);
  }
  return out.join("\n").trim();
}

function isArticle(meta: Record<string, string>, jsonLd: Record<string, unknown>[]): boolean {
  if (meta["og:type"] === "article") return true;
  return jsonLd.some((o) => {
    const t = o["@type"];
    const types = Array.isArray(t) ? t : [t];
    return types.some(
      (x) => typeof x === "string" && /^(Article|BlogPosting|NewsArticle|TechArticle|Report)$/.test(x),
    );
  });
}

function readableText(html: string): string | null {
  try {
    const doc = parseFullDocument(html);
    const art = new Readability(doc, { charThreshold: 200 }).parse();
    const t = art?.textContent;
    return t
      ? t
          .replace(/[ \t\u00A0]+/g, " ")
          .replace(/\s*\n\s*/g, "\n")
          .trim()
      : null;
  } catch {
    return null;
  }
}

// ---- main ----------------------------------------------------------------------------------------------

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
  const article = isArticle(meta, jsonLd);
  const articleText = article ? readableText(html) : null;

  const root = contentRoot(doc);
  // microdata offers are read before <meta itemprop> and hidden parts go
  const microdata = microdataOffers(root);
  const removed = stripNonContent(root);
  stripOverlays(root);
  const hiddenAlts: HiddenAlternative[] = [];
  for (const r of removed) {
    const mark = billingMark(r.el);
    if (mark) hiddenAlts.push({ ...r, mark });
  }
  const regions = regionsOf(root);
  const links = readLinks(regions, base);

  // Content: <main> when it holds the page, else the body without header/nav/footer.
  const main = findFirst(root, (e) => e.tagName === "MAIN" || attr(e, "role") === "main");
  const useMain = main && cleanLength(main) >= cleanLength(root) * 0.2;
  const content = useMain ? main! : root;
  const w: Walk = { blocks: [], cards: [], tables: [], lists: [], skipRegions: !useMain, depth: 0 };
  if (useMain) handleElement(w, content);
  else walkChildren(w, content);

  // The headline: the first <h1>; a page without one whose content opens with a heading uses that.
  let h1 = firstHeadline(content, regions);
  if (!h1 && w.blocks[0]?.kind === "heading")
    h1 = findFirst(
      content,
      (e) => HEADING.has(e.tagName) && textOf(e) === (w.blocks[0] as { text: string }).text,
    );
  let hero: PageExtract["hero"];
  if (h1) {
    const sub = subheadline(h1);
    hero = sub ? { headline: textOf(h1), subheadline: sub } : { headline: textOf(h1) };
  }

  const path = pathOf(url);
  const h1Text = h1 ? textOf(h1).toLowerCase() : "";
  const isPricing = PRICING_PATH.test(path) || /\b(pricing|plans)\b/.test(h1Text);
  const isIntegrations =
    INTEGRATIONS_PATH.test(path) || /^(integrations?|apps|marketplace|connectors)\b/.test(h1Text);
  const isCareers = CAREERS_PATH.test(path);

  // Card groups by parent
  const groups = new Map<El | null, CardInfo[]>();
  for (const c of w.cards) {
    const g = groups.get(c.parent) ?? [];
    g.push(c);
    groups.set(c.parent, g);
  }

  const plans: Plan[] = [];
  const planGroups = new Set<CardInfo[]>();
  const addPlans = (ps: Plan[]) => {
    for (const p of ps) if (!plans.some((x) => x.name === p.name)) plans.push(p);
  };
  const candidates: { g: CardInfo[]; ps: Plan[]; annual: boolean }[] = [];
  for (const g of groups.values()) {
    // cheap pre-check on the card lines: no currency, "free" or custom wording means no plan
    if (!g.some((c) => PRICE_HINT.test(c.block.title) || c.block.items.some((i) => PRICE_HINT.test(i))))
      continue;
    const ps = g.map((c) => planFromCard(c.el, false, hiddenAlts)).filter((p): p is Plan => p !== null);
    const priced = ps.filter((p) => p.price !== null).length;
    if (
      (ps.length >= 2 && priced >= 1 && ps.length >= g.length / 2) ||
      (isPricing && ps.length === 1 && g.length <= 2 && priced === 1)
    )
      candidates.push({ g, ps, annual: inAnnualPanel(g[0]!.el) });
  }
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
  for (const t of w.tables) addPlans(plansFromTable(t.rows));
  const grids = candidates.map((c) => c.g.map((x) => x.el));
  if (!plans.length && isPricing) {
    const loose = loosePlans(content, hiddenAlts);
    plans.push(...loose.plans);
    if (loose.kids.length) grids.push(loose.kids);
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
  if (plans.length) annualFromAttributes(content, plans);
  // no plan cards or tables: the offers the page states in JSON-LD or microdata
  if (!plans.length && isPricing) addPlans([...offersFromJsonLd(jsonLd), ...microdata]);
  const usage = isPricing ? usagePrices(w.blocks) : [];

  const features: string[] = [];
  if (!NO_FEATURES_PATH.test(path) && !isIntegrations && !isCareers) {
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
      if (g.some((c) => c.block.items.some((i) => /\b\d+\s*min(ute)?s?\s+read\b/i.test(i)))) continue;
      for (const c of g) if (!features.includes(c.block.title)) features.push(c.block.title);
    }
  }

  const integrations: string[] = [];
  let integrationPages: string[] = [];
  if (isIntegrations) {
    const add = (name: string) => {
      const n = integrationName(name);
      if (n && !integrations.includes(n)) integrations.push(n);
    };
    const filters = w.lists.filter((l) => isFilterList(l.el, url)).map((l) => l.el);
    for (const g of groups.values())
      if (g.length >= 2 && !planGroups.has(g)) for (const c of g) add(c.block.title);
    for (const l of w.lists)
      if (l.items.length >= 2 && !filters.includes(l.el) && !/\b(faq|question)/i.test(l.section ?? ""))
        for (const i of l.items) add(i);
    for (const t of w.tables) for (const n of tableNames(t.rows)) add(n);
    for (const n of tileNames(content)) if (!filters.some((f) => textIn(f, n))) add(n);
    const byHeading = headingNames(content);
    if (byHeading.length > integrations.length) for (const n of byHeading) add(n);
    if (integrations.length < 3) for (const n of looseNames(content)) add(n);
    integrationPages = directoryPages(root, head.links, url, filters);
  }

  const jobs: Job[] = [];
  if (isCareers) {
    for (const g of groups.values()) {
      for (const c of g) {
        const j = jobFromCard(c, base);
        if (j && !jobs.some((x) => x.title === j.title && x.location === j.location)) jobs.push(j);
      }
    }
    for (const t of w.tables) if (t.rows.length >= 2) jobs.push(...jobsFromTable(t.rows));
    // plain lists of job links under an "open roles" heading
    for (const l of w.lists) {
      if (
        !/\b(open|current)?\s*(roles|positions|openings|jobs|vacancies|opportunities)\b/i.test(
          l.section ?? "",
        )
      )
        continue;
      for (const li of descendants(l.el).filter(isTag("li"))) {
        const a = findFirst(li, (e) => e.tagName === "A" && e.hasAttribute("href"));
        const t = textOf(a ?? li);
        if (!t || t.length > 120 || !ROLE_RE.test(t) || jobs.some((j) => j.title === t)) continue;
        const u = absoluteUrl(attr(a, "href"), base);
        jobs.push(u ? { title: t, url: u } : { title: t });
      }
    }
    if (!jobs.length) jobs.push(...looseJobs(content, base));
  }

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
