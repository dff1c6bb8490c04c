// Integration names as a visitor sees them on an integrations page: card titles, link tiles (`<a><img alt>
// <span>Name</span></a>`), table rows, list items and, when the markup is too broken for cards, the page's
// repeated item headings. A category filter (links or buttons that narrow the directory) is not a list of
// integrations; its category pages and the directory's next pages are handed back to be followed.

import type { CardInfo, Walk } from "./blocks.ts";
import {
  absoluteUrl,
  attr,
  clean,
  descendants,
  type El,
  findFirst,
  HEADING,
  isTag,
  leafLines,
  textOf,
} from "./dom.ts";
import { similarGroups } from "./groups.ts";

const CTA =
  /^(learn more|view all|see all|show all|show more|load more|request|browse|explore|all|more|read more|install|connect|get started|details|view|see details|try it|add|next|previous|prev)\b/i;

const LOGO_SUFFIX = /\s+(logo|icon)$/i;
const WHITESPACE = /\s+/;
const SENTENCE_OR_LABEL_END = /[.!?:]$/;
const ALL_DIGITS = /^\d+$/;
const PAGE_NUMBER = /^page \d+$/i;

/** A name as an integration's: short, not a sentence, not a call to action. */
export function integrationName(raw: string): string | null {
  const n = clean(raw.replace(LOGO_SUFFIX, ""));
  if (!n || n.length > 40 || n.split(WHITESPACE).length > 5 || SENTENCE_OR_LABEL_END.test(n)) return null;
  if (CTA.test(n) || ALL_DIGITS.test(n) || PAGE_NUMBER.test(n)) return null;
  return n;
}

const FILTER_CONTAINER =
  /(^|[\s_-])(filters?|categor(y|ies)|facets?|tabs?|sidebar|taxonom(y|ies)|refine|sort)([\s_-]|$)/i;
const FILTER_ROLE = new Set(["tablist", "navigation", "search", "radiogroup", "menu", "toolbar"]);
const ALL_FIRST = /^all\b/i;

/** True when a list is a category filter of the directory: its items narrow the list (links to category
 *  pages or `?category=`, toggles), it sits in a filter/sidebar/tab container, or it opens with "All". */
export function isFilterList(list: El, pageUrl: string): boolean {
  const items = list.children.filter((c) => c.tagName === "LI");
  const first = clean(textOf(items[0]));
  if (ALL_FIRST.test(first)) return true;
  for (let e: El | null = list, i = 0; e && i < 4; e = e.parentElement, i++) {
    if (FILTER_ROLE.has(attr(e, "role")) || e.tagName === "ASIDE" || e.tagName === "NAV") return true;
    if (FILTER_CONTAINER.test(`${attr(e, "class")} ${attr(e, "id")} ${attr(e, "aria-label")}`)) return true;
  }
  let narrowing = 0;
  for (const li of items) {
    const c = findFirst(li, isTag("a", "button")) ?? li;
    if (
      c.tagName === "BUTTON" ||
      attr(c, "role") === "tab" ||
      c.hasAttribute("aria-pressed") ||
      c.hasAttribute("data-filter") ||
      c.hasAttribute("data-category") ||
      isCategoryLink(attr(c, "href"), pageUrl)
    )
      narrowing++;
  }
  return items.length > 0 && narrowing >= items.length * 0.6;
}

const CATEGORY_PATH = /\/(categor(y|ies)|collections?|tags?|type)\/[^/]+\/?$/i;
const FRAGMENT = /^#/;
const CATEGORY_QUERY = /[?&](category|categories|cat|type|tag|filter)=/i;

/** A link to a category page of the directory (`/integrations/category/crm`, `?category=crm`). */
function isCategoryLink(href: string, pageUrl: string): boolean {
  const u = absoluteUrl(href, pageUrl);
  if (!u) return FRAGMENT.test(href.trim()) && href.trim().length > 1;
  const url = new URL(u);
  const page = new URL(pageUrl);
  if (url.host !== page.host) return false;
  if (CATEGORY_QUERY.test(url.search)) return true;
  return url.pathname.startsWith(directoryRoot(page.pathname)) && CATEGORY_PATH.test(url.pathname);
}

const DIRECTORY_PATH =
  /^(.*?\/(?:integrations?|apps|marketplace|connectors|app-directory|ecosystem|extensions|plugins))(?:\/|$)/i;
const TRAILING_SLASH = /\/$/;

/** The directory's root path: `/integrations/` for `/integrations/category/crm` or `/integrations`. */
function directoryRoot(path: string): string {
  const m = DIRECTORY_PATH.exec(path);
  return `${(m ? m[1]! : path).replace(TRAILING_SLASH, "")}/`;
}

/** The text of a link without the links nested in it (an unclosed `<a>` swallows the tiles after it). */
function ownText(a: El): string {
  let out = "";
  const walk = (e: El) => {
    for (let c = e.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out += c.nodeValue;
      else if (c.nodeType === 1 && (c as El).tagName !== "A") {
        out += " ";
        walk(c as El);
      }
    }
  };
  walk(a);
  return clean(out);
}

/** The logo of a link, not of the links nested in it. */
function ownImage(a: El): El | null {
  const stack: El[] = [...a.children];
  while (stack.length) {
    const e = stack.shift()!;
    if (e.tagName === "IMG") return e;
    if (e.tagName !== "A") stack.push(...e.children);
  }
  return null;
}

const TWO_SPACES = /\s{2,}/;

/** Names of link tiles: ≥ 3 similar siblings, each a link (or holding one) named by its text or its
 *  logo's alt text. Links nested by broken markup are tiles of their own. */
export function tileNames(content: El): string[] {
  const out: string[] = [];
  for (const kids of similarGroups(content, 3)) {
    const names: string[] = [];
    let tiles = 0;
    for (const k of kids) {
      const links =
        k.tagName === "A" ? [k, ...descendants(k).filter(isTag("a"))] : descendants(k).filter(isTag("a"));
      // a tile is one link (links nested in it by broken markup aside) with a name and a short description
      const top = links.filter((a) => a === k || !isNested(a, k));
      if (top.length !== 1 || leafLines(k).length > 3 * links.length) continue;
      tiles++;
      for (const a of links) {
        const n =
          integrationName(ownText(a).split(TWO_SPACES)[0] ?? "") ?? integrationName(attr(ownImage(a), "alt"));
        if (n) names.push(n);
      }
    }
    if (names.length >= 3 && tiles >= kids.length * 0.8) out.push(...names);
  }
  return [...new Set(out)];
}

/** True when the link sits inside another link of the tile (broken markup). */
function isNested(a: El, tile: El): boolean {
  for (let e = a.parentElement; e && e !== tile.parentElement; e = e.parentElement)
    if (e.tagName === "A") return true;
  return false;
}

const NAME_COLUMN =
  /^(integrations?|apps?|name|connectors?|tools?|platforms?|partners?|carriers?|providers?|sources?|destinations?)$/i;

/** Names from a table whose header names the integration column ("Integration", "App", "Connector"). */
export function tableNames(rows: string[][]): string[] {
  if (rows.length < 2) return [];
  const col = rows[0]!.findIndex((h) => NAME_COLUMN.test(clean(h)));
  if (col < 0) return [];
  const out: string[] = [];
  for (const r of rows.slice(1)) {
    const n = integrationName(r[col] ?? "");
    if (n) out.push(n);
  }
  return out;
}

/** Broken markup (cards that never close nest inside each other): the most repeated item heading level
 *  below the page's section headings, each a short name. */
export function headingNames(content: El): string[] {
  const byLevel = new Map<string, string[]>();
  for (const h of descendants(content)) {
    if (!HEADING.has(h.tagName) || h.tagName === "H1" || h.tagName === "H2") continue;
    const n = integrationName(textOf(h));
    if (!n) continue;
    const list = byLevel.get(h.tagName) ?? [];
    list.push(n);
    byLevel.set(h.tagName, list);
  }
  let best: string[] = [];
  for (const names of byLevel.values()) if (names.length > best.length) best = names;
  return best.length >= 3 ? [...new Set(best)] : [];
}

const REL_NEXT = /(^|\s)next(\s|$)/i;
const PAGE_QUERY = /[?&](page|p|pg)=\d+/i;
const PAGE_PATH = /\/page\/\d+\/?$/i;

/** Further pages of the directory: `rel=next` links, pagination links (`?page=2`, `/page/2`) and the
 *  category pages its filter links, absolute, same host, without the page itself. */
export function directoryPages(root: El, headLinks: El[], pageUrl: string, filterLists: El[]): string[] {
  const out = new Set<string>();
  const page = new URL(pageUrl);
  const add = (href: string) => {
    const u = absoluteUrl(href, pageUrl);
    if (!u) return;
    const url = new URL(u);
    if (url.host !== page.host || url.href === page.href) return;
    out.add(url.href);
  };
  for (const l of headLinks) if (REL_NEXT.test(attr(l, "rel"))) add(attr(l, "href"));
  for (const a of descendants(root)) {
    if (a.tagName !== "A") continue;
    const href = attr(a, "href");
    if (REL_NEXT.test(attr(a, "rel"))) add(href);
    else if (PAGE_QUERY.test(href) || PAGE_PATH.test(href)) {
      const u = absoluteUrl(href, pageUrl);
      if (u && new URL(u).pathname.startsWith(directoryRoot(page.pathname).replace(TRAILING_SLASH, "")))
        add(href);
    }
  }
  for (const list of filterLists)
    for (const a of descendants(list))
      if (
        a.tagName === "A" &&
        isCategoryLink(attr(a, "href"), pageUrl) &&
        !FRAGMENT.test(attr(a, "href").trim())
      )
        add(attr(a, "href"));
  return [...out].slice(0, 50);
}

function textIn(el: El, name: string): boolean {
  return clean(el.textContent).includes(name);
}

const SENTENCE_END = /[.!?]$/;

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
      if (n && n.length <= 40 && n.split(WHITESPACE).length <= 5 && !SENTENCE_END.test(n)) names.push(n);
    }
    if (names.length >= 3 && names.length >= kids.length * 0.8) return [...new Set(names)];
  }
  return [];
}

const FAQ_SECTION = /\b(faq|question)/i;

/** The integrations an integrations directory names, and its further pages to follow (`root`: the whole page,
 *  `content`: its content, `headLinks`: the <link> elements of its head). */
export function readIntegrations(
  w: Walk,
  groups: Map<El | null, CardInfo[]>,
  planGroups: Set<CardInfo[]>,
  page: { root: El; content: El; headLinks: El[]; url: string },
): { integrations: string[]; integrationPages: string[] } {
  const { root, content, headLinks, url } = page;
  const integrations: string[] = [];
  const add = (name: string) => {
    const n = integrationName(name);
    if (n && !integrations.includes(n)) integrations.push(n);
  };
  const filters = w.lists.filter((l) => isFilterList(l.el, url)).map((l) => l.el);
  for (const g of groups.values())
    if (g.length >= 2 && !planGroups.has(g)) for (const c of g) add(c.block.title);
  for (const l of w.lists)
    if (l.items.length >= 2 && !filters.includes(l.el) && !FAQ_SECTION.test(l.section ?? ""))
      for (const i of l.items) add(i);
  for (const t of w.tables) for (const n of tableNames(t.rows)) add(n);
  for (const n of tileNames(content)) if (!filters.some((f) => textIn(f, n))) add(n);
  const byHeading = headingNames(content);
  if (byHeading.length > integrations.length) for (const n of byHeading) add(n);
  if (integrations.length < 3) for (const n of looseNames(content)) add(n);
  return { integrations, integrationPages: directoryPages(root, headLinks, url, filters) };
}
