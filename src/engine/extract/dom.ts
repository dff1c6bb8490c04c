// DOM helpers for extraction: parsing (litedom.ts: htmlparser2, robust to fragments and broken HTML), text
// normalisation, and the rules that decide what is not content (scripts, hidden elements; overlays are
// overlays.ts). Pure and synchronous.
import { parseHTML } from "linkedom";
import {
  type LDocument,
  type LElement,
  type LNode,
  observeParse,
  type ParseObserver,
  treeChanges,
} from "./litedom.ts";
import { parseStandard } from "./standardTree.ts";

export type El = LElement;
export type Doc = LDocument;
export type Node = LNode;

/** A fragment or a page without <html> is wrapped first: the first element would be the document element
 *  otherwise, and the page would have no <body>. */
function wrapped(html: string): string {
  const src = html.replace(/^\uFEFF/, "");
  return /<html[\s>]/i.test(src.slice(0, 4096))
    ? src
    : `<!DOCTYPE html><html><head></head><body>${src}</body></html>`;
}

/** Parses HTML into a document as a browser builds it (the HTML standard's tree construction, parse5). */
export function parseDocument(html: string): Doc {
  return parseStandard(html.replace(/^\uFEFF/, ""));
}

/** The page's tokens for an observer (the page signature), without building a tree. */
export function observeDocument(html: string, observe: ParseObserver): void {
  observeParse(wrapped(html), observe);
}

/** Parses HTML into a full linkedom document, for Readability (it needs the whole DOM API and edits the tree). */
export function parseFullDocument(html: string): Document {
  return parseHTML(wrapped(html)).document as unknown as Document;
}

/** The element that holds the page content: <body>, or the document element when <body> is absent or empty. */
export function contentRoot(doc: Doc): El {
  const body = doc.body;
  if (body?.firstElementChild || body?.textContent?.trim()) return body;
  return doc.documentElement!;
}

/** Collapses whitespace (incl. NBSP and zero-width) to single spaces and trims. */
const INVISIBLE = /[\u200B-\u200D\uFEFF\u00AD]/;
const INVISIBLE_G = /[\u200B-\u200D\uFEFF\u00AD]/g;
// \s covers NBSP, the figure space and the narrow NBSP already: they are listed so that a reader sees them.
const SPACES = /[\s\u00A0\u2007\u202F]+/g;

/** Whitespace a collapse would change: a space that is not " ", or two in a row. */
const UNCOLLAPSED = /[^\S ]|\s\s/;

/** Runs of whitespace as one space, trimmed. A text already collapsed (most texts read off a page, read again)
 * is returned as it is: a replace of every single space by itself builds a new string all the same. */
export function collapseSpaces(t: string): string {
  return (UNCOLLAPSED.test(t) ? t.replace(SPACES, " ") : t).trim();
}

export function clean(s: string | null | undefined): string {
  if (!s) return "";
  return collapseSpaces(INVISIBLE.test(s) ? s.replace(INVISIBLE_G, "") : s);
}

/** `clean(el.textContent).length`, counted over the text nodes without building the text; with `inner` (a
 *  descendant), also `clean(inner.textContent).length`, from the same pass. */
export function cleanLength(el: El, inner?: El): [number, number] {
  let count = 0;
  let space = false;
  let innerCount = 0;
  let innerSpace = false;
  let innerEnd: Node | null = null;
  let inside = false;
  const stack: Node[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (inside && n === innerEnd) inside = false;
    if (n === inner) {
      inside = true;
      innerEnd = stack.length ? stack[stack.length - 1]! : null;
    }
    if (n.nodeType === 3) {
      const v = n.nodeValue!;
      for (let i = 0; i < v.length; i++) {
        const c = v.charCodeAt(i);
        if (isInvisible(c)) continue;
        if (isSpace(c)) {
          if (count) space = true;
          if (inside && innerCount) innerSpace = true;
        } else {
          if (space) count++;
          space = false;
          count++;
          if (inside) {
            if (innerSpace) innerCount++;
            innerSpace = false;
            innerCount++;
          }
        }
      }
      continue;
    }
    for (let c = (n as El).lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return [count, innerCount];
}

/** Whether `textOf(el)` is not empty: some text below it that is neither a space nor invisible (stops at the
 *  first such character, builds no text). */
export function hasText(el: El | null | undefined): boolean {
  if (!el) return false;
  const stack: Node[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === 3) {
      const v = n.nodeValue!;
      for (let i = 0; i < v.length; i++) {
        const c = v.charCodeAt(i);
        if (!isInvisible(c) && !isSpace(c)) return true;
      }
      continue;
    }
    for (let c = (n as El).lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return false;
}

/** The code units clean() drops (INVISIBLE). */
function isInvisible(c: number): boolean {
  return c === 0x200b || c === 0x200c || c === 0x200d || c === 0xfeff || c === 0xad;
}

/** The code units `\s` matches (the ones clean() collapses). */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The element's text as a reader sees it: block boundaries become spaces, and two adjacent inline
 *  elements with no space between them (flex rows of spans: "Engineer" "Berlin") are kept apart unless the
 *  join is typographic ("$" "25", "25" "/mo"). */
export function textOf(el: El | null | undefined): string {
  if (!el) return "";
  const at = treeChanges();
  if (el.textAt !== at) {
    el.text = nodesText(el.childNodes);
    el.textAt = at;
  }
  return el.text!;
}

const NO_GAP_AFTER = /[\s$€£¥₹₩([/'"“‘#@+-]$/u;
const NO_GAP_BEFORE = /^[\s/,.;:!?%)\]'"”’*-]/u;

/** Text of a run of sibling nodes (see textOf). */
export function nodesText(nodes: Iterable<Node>): string {
  let out = "";
  let gap: "" | "block" | "inline" = "";
  const append = (t: string) => {
    if (!t) return;
    if (out && gap === "block") out += " ";
    else if (out && gap === "inline" && !NO_GAP_AFTER.test(out) && !NO_GAP_BEFORE.test(t)) out += " ";
    gap = "";
    out += t;
  };
  const walk = (list: Iterable<Node>, depth: number) => {
    let prevElement = false;
    for (const n of list) {
      if (n.nodeType === 3) {
        append(n.nodeValue ?? "");
        prevElement = false;
        continue;
      }
      if (n.nodeType !== 1) continue;
      const e = n as El;
      const inline = isInline(e) && e.tagName !== "BR";
      if (!inline) gap = "block";
      else if (prevElement && !gap) gap = "inline";
      if (depth > 200) append(e.textContent ?? "");
      else walk(e.childNodes, depth + 1);
      if (!inline) gap = "block";
      prevElement = true;
    }
  };
  walk(nodes, 0);
  return clean(out);
}

export const HEADING = new Set(["H1", "H2", "H3", "H4", "H5", "H6"]);

/** Elements whose content is never page text. */
export const DROP_TAGS = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "SVG",
  "TEMPLATE",
  "IFRAME",
  "OBJECT",
  "EMBED",
  "CANVAS",
  "LINK",
  "META",
  "BASE",
  "HEAD",
  "DIALOG",
  "VIDEO",
  "AUDIO",
  "MAP",
  "SELECT",
  "OPTION",
  "DATALIST",
  "TEXTAREA",
  "INPUT",
  "PICTURE",
  "SOURCE",
  "TRACK",
  "MATH",
]);

const HIDDEN_CLASS =
  /(^|\s)(hidden|d-none|is-hidden|hide|invisible|sr-only|visually-hidden|screen-reader-text|screenreader|u-hidden|visuallyhidden|skip-link)(\s|$)/i;
const RESPONSIVE_SHOW =
  /(^|\s)[a-z0-9]+:(block|flex|grid|inline|inline-block|inline-flex|table|contents|visible)(\s|$)/;

/** An attribute's value ("" when absent). */
export function attr(el: El | null | undefined, name: string): string {
  return el?.getAttribute(name) ?? "";
}

const HIDDEN_STYLE = /(display\s*:\s*none|visibility\s*:\s*hidden)/i;
/** True when the element is hidden from readers: `hidden`, aria-hidden, inline display:none, hidden classes. */
export function isHidden(el: El): boolean {
  if (el.hasAttribute("hidden")) return true;
  if (attr(el, "aria-hidden") === "true") return true;
  const style = attr(el, "style");
  if (style && HIDDEN_STYLE.test(style)) return true;
  const cls = attr(el, "class");
  if (cls && HIDDEN_CLASS.test(cls) && !RESPONSIVE_SHOW.test(cls)) return true;
  if (el.tagName === "INPUT" && attr(el, "type").toLowerCase() === "hidden") return true;
  return false;
}

/** A hidden element removed by stripNonContent, and where it was (a hidden billing alternative is read
 *  as a plan's other period). */
export interface Removed {
  el: El;
  parent: El;
  next: Node | null;
}

/** Removes what is not content (non-content tags, hidden elements), in place; returns the hidden elements
 *  it removed with their places. Overlays are removed by overlays.ts. */
export function stripNonContent(root: El): Removed[] {
  const doomed: El[] = [];
  const hidden = new Set<El>();
  const stack: El[] = [];
  for (let c = root.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  while (stack.length) {
    const el = stack.pop()!;
    if (DROP_TAGS.has(el.tagName)) {
      doomed.push(el);
      continue;
    }
    if (isHidden(el)) {
      doomed.push(el);
      hidden.add(el);
      continue;
    }
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  const removed: Removed[] = [];
  for (const el of doomed) {
    if (hidden.has(el) && el.parentElement)
      removed.push({ el, parent: el.parentElement, next: el.nextSibling });
    el.remove();
  }
  return removed;
}

const NOT_A_PAGE_SCHEME = /^(javascript|mailto|tel|sms|data|blob|about):/i;
/** Resolves a URL against a base; null for non-http(s) targets or garbage. Fragment removed. */
export function absoluteUrl(href: string | null | undefined, base: string): string | null {
  if (!href) return null;
  const h = href.trim();
  if (!h || h.startsWith("#") || NOT_A_PAGE_SCHEME.test(h)) return null;
  try {
    const u = new URL(h, base);
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    u.hash = "";
    return u.href;
  } catch {
    return null;
  }
}

const INLINE_TAGS = new Set([
  "A",
  "ABBR",
  "B",
  "BDI",
  "BDO",
  "CITE",
  "CODE",
  "DATA",
  "DFN",
  "EM",
  "I",
  "KBD",
  "MARK",
  "Q",
  "S",
  "SAMP",
  "SMALL",
  "SPAN",
  "STRONG",
  "SUB",
  "SUP",
  "TIME",
  "U",
  "VAR",
  "IMG",
  "BR",
  "WBR",
  "LABEL",
  "DEL",
  "INS",
  "FONT",
  "BUTTON",
  "OUTPUT",
  "METER",
  "PROGRESS",
]);

export function isInline(el: El): boolean {
  return INLINE_TAGS.has(el.tagName);
}

/** True when every descendant element is inline (so the element reads as one run of text). Memoised on the
 *  element. */
export function hasOnlyInline(el: El, depth = 0): boolean {
  const m = el.onlyInline;
  if (m !== undefined) return m;
  if (depth > 200) return false; // absurd nesting: treat as a container (no deeper recursion)
  let r = true;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (!isInline(c) || !hasOnlyInline(c, depth + 1)) {
      r = false;
      break;
    }
  }
  el.onlyInline = r;
  return r;
}

/** The element's text as lines: one per run of inline content, in document order. `skip` (and what it
 *  contains) is left out. */
export function leafLines(el: El, skip: El | null = null): string[] {
  const out: string[] = [];
  let run: Node[] = [];
  const flush = () => {
    const t = run.length ? nodesText(run) : "";
    if (t) out.push(t);
    run = [];
  };
  const walk = (n: Node, depth: number) => {
    if (n.nodeType === 3) {
      run.push(n);
      return;
    }
    if (n.nodeType !== 1) return;
    const e = n as El;
    if (skip && e === skip) return;
    if (depth > 200 || (isInline(e) && hasOnlyInline(e))) {
      run.push(n);
      return;
    }
    flush();
    for (const c of e.childNodes) walk(c, depth + 1);
    flush();
  };
  for (const c of el.childNodes) walk(c, 0);
  flush();
  return out;
}

/** Descendant elements in document order (no selector parsing: linkedom compiles a selector per call). */
export function descendants(el: El): El[] {
  const out: El[] = [];
  const stack: El[] = [];
  for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  while (stack.length) {
    const e = stack.pop()!;
    out.push(e);
    for (let c = e.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  return out;
}

/** The first descendant matching `pred`, in document order. */
export function findFirst(el: El, pred: (e: El) => boolean): El | null {
  const stack: El[] = [];
  for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  while (stack.length) {
    const e = stack.pop()!;
    if (pred(e)) return e;
    for (let c = e.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  return null;
}

/** The element itself or its nearest ancestor matching `pred` (as `closest` does with a selector). */
export function ancestorOrSelf(el: El, pred: (e: El) => boolean): El | null {
  for (let e: El | null = el; e; e = e.parentElement) if (pred(e)) return e;
  return null;
}

export function isTag(...tags: string[]): (e: El) => boolean {
  const set = new Set(tags.map((t) => t.toUpperCase()));
  return (e) => set.has(e.tagName);
}
