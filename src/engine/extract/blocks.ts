// Extraction step: the content as blocks, in reading order — headings, text runs, lists, tables and cards (one
// of a group of similar siblings with one title) — each under the section heading it follows; the cards,
// tables and lists are kept with their elements for the plan, feature, integration and job readers.
import {
  attr,
  clean,
  descendants,
  type El,
  findFirst,
  HEADING,
  hasOnlyInline,
  hasText,
  isInline,
  isTag,
  leafLines,
  type Node,
  nodesText,
  textOf,
} from "./dom.ts";
import { siblingSignatures, signature, textWithin } from "./groups.ts";
import { isRegionRoot } from "./links.ts";
import { cardTitle } from "./pricing.ts";
import type { Block } from "./types.ts";

const MAX_BLOCKS = 4000;

export interface CardInfo {
  el: El;
  parent: El | null;
  block: Extract<Block, { kind: "card" }>;
}

export interface Walk {
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
    if (hasText(h)) n++;
    if (n > limit) break;
  }
  return n;
}

const NOT_IN_CARD = new Set(["TABLE", "MAIN", "ARTICLE"]);

/** The headings with text inside a would-be card, or -1 when it cannot be one (a table, a main or an article
 *  inside, or more than three such headings); every heading's level, with text or not, goes to `levels`, in the
 *  same walk. */
function cardHeadings(el: El, levels: number[]): number {
  let n = 0;
  const stack: El[] = [];
  for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  while (stack.length) {
    const e = stack.pop()!;
    if (NOT_IN_CARD.has(e.tagName)) return -1;
    if (HEADING.has(e.tagName)) {
      levels.push(Number(e.tagName[1]));
      if (hasText(e) && ++n > 3) return -1;
    }
    for (let c = e.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
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
  const levels: number[] = [];
  const h = cardHeadings(el, levels);
  if (h < 0) return false;
  // a title heading with deeper sub-headings ("Includes") is still one card
  if (h > 1) return levels.slice(1).every((l) => l > levels[0]!);
  if (h === 1) return leadingText(el) <= 40;
  for (const c of descendants(el)) {
    if (TITLE_CLASS.test(attr(c, "class")) && hasText(c)) return true;
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

export function handleElement(w: Walk, el: El): void {
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

export function walkChildren(w: Walk, el: El): void {
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

/** The blocks of the page's content: `<main>` walked whole, or the body's children without its header, navigation
 *  and footer. */
export function walkContent(content: El, isMain: boolean): Walk {
  const w: Walk = { blocks: [], cards: [], tables: [], lists: [], skipRegions: !isMain, depth: 0 };
  if (isMain) handleElement(w, content);
  else walkChildren(w, content);
  return w;
}

/** The cards of a detached part of the page (read as the page's cards are). */
export function cardsIn(el: El): CardInfo[] {
  const w: Walk = { blocks: [], cards: [], tables: [], lists: [], depth: 0 };
  walkChildren(w, el);
  return w.cards;
}

/** The cards grouped by their parent element (a group is a grid of plans, features, integrations or jobs). */
export function cardGroups(cards: CardInfo[]): Map<El | null, CardInfo[]> {
  const groups = new Map<El | null, CardInfo[]>();
  for (const c of cards) {
    const g = groups.get(c.parent) ?? [];
    g.push(c);
    groups.set(c.parent, g);
  }
  return groups;
}
