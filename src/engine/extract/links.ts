// Extraction step: the page's regions (navigation, footer, body) and its links in each, read once top-down
// (the region of each <h1> too: the headline is the body's first).
import { absoluteUrl, attr, clean, type El, findFirst, textOf } from "./dom.ts";
import type { PageExtract } from "./types.ts";

const FOOTER_TOKEN = /(^|[\s_-])(footer|site-footer|colophon|page-footer|global-footer)([\s_-]|$)/i;
// site-level header/nav containers; a bare "header" only as a whole token (not "card-header")
const HEADER_TOKEN =
  /(^|[\s_-])(navbar|site-header|masthead|global-header|page-header-nav|top-nav|topbar|main-nav|site-nav|global-nav)([\s_-]|$)|(^|\s)(header|nav|navigation)(\s|$)/i;
const IN_CONTENT = new Set(["MAIN", "ARTICLE", "BLOCKQUOTE", "FIGURE"]);

export type Region = "nav" | "footer" | "body";

/** The region of every link and <h1>, in one top-down pass: inside a <footer> (or contentinfo / footer
 *  class) that is not inside main content → footer; inside <nav>, <header>, banner/navigation roles or a
 *  site-header class → nav; otherwise, and anywhere inside <main>/<article>, → body. */
export function regionsOf(root: El): Map<El, Region> {
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

const HEADER_CLASS = /(^|[\s_-])(navbar|site-header|masthead)([\s_-]|$)/i;
export function isRegionRoot(el: El): boolean {
  const tag = el.tagName;
  const role = attr(el, "role");
  if (tag === "NAV" || tag === "HEADER" || tag === "FOOTER") return true;
  if (role === "navigation" || role === "banner" || role === "contentinfo") return true;
  const key = `${attr(el, "id")} ${attr(el, "class")}`;
  return tag === "DIV" && (FOOTER_TOKEN.test(key) || HEADER_CLASS.test(key));
}

function linkText(a: El): string {
  const t = textOf(a);
  if (t) return t.slice(0, 300);
  const label = clean(attr(a, "aria-label") || attr(a, "title"));
  if (label) return label;
  const img = findFirst(a, (e) => e.tagName === "IMG" && e.hasAttribute("alt"));
  return clean(attr(img, "alt"));
}

export function readLinks(regions: Map<El, Region>, base: string): PageExtract["links"] {
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
