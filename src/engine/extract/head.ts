// Extraction step: what the page's <head> states — its title element, meta tags (Open Graph, Twitter, the
// canonical link), JSON-LD (read leniently: real pages ship broken JSON), feed links and script sources.
import { absoluteUrl, ancestorOrSelf, attr, clean, type Doc, type El } from "./dom.ts";
import type { PageExtract } from "./types.ts";

/** The elements the head readers need, collected in one pass over the document. */
export interface HeadParts {
  metas: El[];
  links: El[];
  scripts: El[];
  base?: El;
  title?: El;
}

export function headParts(doc: Doc): HeadParts {
  const parts: HeadParts = { metas: [], links: [], scripts: [] };
  const rootEl = doc.documentElement;
  if (!rootEl) return parts;
  // in document order, without a list of the page's every element
  const stack: El[] = [rootEl];
  while (stack.length) {
    const e = stack.pop()!;
    for (let c = e.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
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

const SPACES = /\s+/;
export function readMeta(head: HeadParts, base: string): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const m of head.metas) {
    const key = (attr(m, "property") || attr(m, "name") || attr(m, "itemprop") || "").trim().toLowerCase();
    const content = clean(attr(m, "content"));
    if (key && content && !(key in meta)) meta[key] = content.slice(0, 2000);
  }
  const canonical = head.links.find((l) => attr(l, "rel").toLowerCase().split(SPACES).includes("canonical"));
  const href = absoluteUrl(attr(canonical, "href"), base);
  if (href && !("canonical" in meta)) meta.canonical = href;
  return meta;
}

/** JSON-LD objects of the page: arrays and @graph flattened, unparseable blocks repaired or skipped. */
export function jsonLdOf(scripts: El[]): Record<string, unknown>[] {
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

export function readFeeds(head: HeadParts, base: string): PageExtract["feeds"] {
  const out: PageExtract["feeds"] = [];
  const seen = new Set<string>();
  for (const l of head.links) {
    const rel = attr(l, "rel").toLowerCase().split(SPACES);
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

export function readScripts(head: HeadParts, base: string): string[] {
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
