/**
 * sitemap.xml reader (sitemaps.org): `<urlset>` page URLs and `<sitemapindex>` child sitemaps, with
 * or without namespace prefixes, CDATA and entities; plain-text sitemaps (one URL per line) too.
 * Bounded: at most MAX_URLS entries and MAX_CHARS of input are read. Pure; bad input gives empty lists.
 * (sitemapper is not used: it fetches by itself, around our fetcher and its guard.)
 */
import { absoluteHttpUrl, decodeEntities } from "./util.ts";

export interface Sitemap {
  urls: string[];
  sitemaps: string[];
}

export const SITEMAP_MAX_URLS = 50_000;
const MAX_CHARS = 20 * 1024 * 1024;

export function parseSitemap(xml: string, base?: string): Sitemap {
  const out: Sitemap = { urls: [], sitemaps: [] };
  if (typeof xml !== "string") return out;
  const text = xml.length > MAX_CHARS ? xml.slice(0, MAX_CHARS) : xml;
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (!body) return out;
  if (!body.startsWith("<")) return plainTextSitemap(body, base, out);
  const seenUrls = new Set<string>();
  const seenMaps = new Set<string>();
  // <url>…</url> and <sitemap>…</sitemap>, any namespace prefix; <loc> inside each.
  const entry = /<(?:[A-Za-z_][\w.-]*:)?(url|sitemap)\b[^>]*>([\s\S]*?)<\/(?:[A-Za-z_][\w.-]*:)?\1\s*>/gi;
  const withoutComments = body.replace(/<!--[\s\S]*?-->/g, "");
  for (const m of withoutComments.matchAll(entry)) {
    if (out.urls.length + out.sitemaps.length >= SITEMAP_MAX_URLS) break;
    const loc = entryLoc(m[2]);
    if (loc === undefined) continue;
    const url = absoluteHttpUrl(locText(loc), base);
    if (!url) continue;
    if (m[1].toLowerCase() === "url") {
      if (!seenUrls.has(url)) {
        seenUrls.add(url);
        out.urls.push(url);
      }
    } else if (!seenMaps.has(url)) {
      seenMaps.add(url);
      out.sitemaps.push(url);
    }
  }
  return out;
}

/** The entry's own `<loc>`, not the `<image:loc>` / `<video:…>` of an extension. */
function entryLoc(inner: string): string | undefined {
  const locs = /<([A-Za-z_][\w.-]*:)?loc\b[^>]*>([\s\S]*?)<\/(?:[A-Za-z_][\w.-]*:)?loc\s*>/gi;
  for (const m of inner.matchAll(locs)) {
    const prefix = (m[1] ?? "").toLowerCase();
    if (/^(?:image|video|news|xhtml|mobile):$/.test(prefix)) continue;
    return m[2];
  }
  return undefined;
}

function locText(raw: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  return (cdata ? cdata[1] : decodeEntities(raw)).trim();
}

function plainTextSitemap(body: string, base: string | undefined, out: Sitemap): Sitemap {
  const seen = new Set<string>();
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (out.urls.length >= SITEMAP_MAX_URLS) break;
    const t = line.trim();
    if (!/^https?:\/\//i.test(t)) continue;
    const url = absoluteHttpUrl(t, base);
    if (url && !seen.has(url)) {
      seen.add(url);
      out.urls.push(url);
    }
  }
  return out;
}
