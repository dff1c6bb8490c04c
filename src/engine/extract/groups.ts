// Groups of similar siblings (same tag and first class): the card grids, tile walls and job rows of a page.
import { attr, clean, descendants, type El, type Node } from "./dom.ts";

const FIRST_CLASS = /\S+/;
const STATE_MODIFIER = /--(active|popular|featured|highlight|selected|current|primary)\b.*/;
export function signature(el: El): string {
  const cls = FIRST_CLASS.exec(attr(el, "class"))?.[0] ?? "";
  return `${el.tagName}.${cls.includes("--") ? cls.replace(STATE_MODIFIER, "") : cls}`;
}

const sigCache = new WeakMap<El, Map<string, number>>();

export function siblingSignatures(parent: El): Map<string, number> {
  let m = sigCache.get(parent);
  if (!m) {
    m = new Map();
    for (const s of parent.children) {
      const k = signature(s);
      m.set(k, (m.get(k) ?? 0) + 1);
    }
    sigCache.set(parent, m);
  }
  return m;
}

const NOT_SPACE = /\S/;
/** True when the element has some non-space text and at most `limit` characters of it (stops early). */
export function textWithin(el: El, limit: number): boolean {
  let len = 0;
  let seen = false;
  const stack: Node[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === 3) {
      const v = n.nodeValue ?? "";
      len += v.length;
      if (len > limit) return false;
      if (!seen && NOT_SPACE.test(v)) seen = true;
      continue;
    }
    for (let c = (n as El).lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return seen;
}

const TABLE_PARTS = new Set([
  "TR",
  "TD",
  "TH",
  "TBODY",
  "THEAD",
  "TFOOT",
  "CAPTION",
  "COLGROUP",
  "COL",
  "LI",
]);

/** Groups of ≥ `min` similar siblings (same tag and first class) under one parent, in document order. */
export function similarGroups(content: El, min: number): El[][] {
  const out: El[][] = [];
  const seen = new Set<El>();
  for (const el of descendants(content)) {
    const parent = el.parentElement;
    if (!parent || seen.has(parent) || TABLE_PARTS.has(el.tagName)) continue;
    seen.add(parent);
    for (const [sig, n] of siblingSignatures(parent)) {
      if (n < min) continue;
      const kids = parent.children.filter((k) => signature(k) === sig);
      if (kids.every((k) => textWithin(k, 2000) || !clean(k.textContent))) out.push(kids);
    }
  }
  return out;
}
