// Extraction step: the hero — the page's headline (its first <h1> in the body, else the heading its content
// opens with) and the sub-headline under it (not a call to action).
import {
  clean,
  descendants,
  type El,
  findFirst,
  HEADING,
  hasOnlyInline,
  hasText,
  isTag,
  leafLines,
  textOf,
} from "./dom.ts";
import { textWithin } from "./groups.ts";
import type { Region } from "./links.ts";
import type { Block, PageExtract } from "./types.ts";

const CTA_ONLY = /^(start|get|try|book|sign|request|contact|watch|see|learn|join|download|explore|talk)\b/i;

function firstHeadline(content: El, regions: Map<El, Region>): El | null {
  return findFirst(content, (h) => h.tagName === "H1" && regions.get(h) === "body" && hasText(h));
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

/** The headline element (null: none) and the hero it gives. */
export function readHero(
  content: El,
  regions: Map<El, Region>,
  blocks: Block[],
): { h1: El | null; hero?: PageExtract["hero"] } {
  let h1 = firstHeadline(content, regions);
  const first = blocks[0];
  if (!h1 && first?.kind === "heading")
    h1 = findFirst(content, (e) => HEADING.has(e.tagName) && textOf(e) === first.text);
  if (!h1) return { h1 };
  const sub = subheadline(h1);
  return { h1, hero: sub ? { headline: textOf(h1), subheadline: sub } : { headline: textOf(h1) } };
}
