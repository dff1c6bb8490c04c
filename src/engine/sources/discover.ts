// Site discovery (docs/engine/sources.md): which pages of a competitor's site research reads and the monitor
// watches. From the home page's nav, header, footer and body links, robots.txt `Sitemap:` lines and the
// sitemaps (indexes followed, bounded), and standard paths (/pricing, /changelog, /careers …) for kinds not
// found otherwise; same site only (registrable domain, so docs.x.com belongs to x.com); each page classified
// by kind; a bounded count.
import { getDomain } from "tldts";
import type { PageExtract } from "../extract/page.ts";
import type { Fetcher } from "../fetch/index.ts";
import { parseSitemap } from "./sitemap.ts";

export const PAGE_KINDS = [
  "pricing",
  "product",
  "docs",
  "changelog",
  "careers",
  "about",
  "blog",
  "press",
  "integrations",
  "customers",
  "security",
  "legal",
] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

export type Via = "nav" | "footer" | "body" | "sitemap" | "standard";

export interface DiscoveredPage {
  url: string;
  kind: PageKind;
  via: Via;
}

export interface Discovery {
  pages: DiscoveredPage[];
  /** Feeds named by the home page (<link rel="alternate">). */
  feeds: { url: string; type: string; title?: string }[];
  sitemaps: string[];
}

/** Path words per kind, tried on each path segment (first match of the most specific segment wins). */
const SEGMENTS: [PageKind, RegExp][] = [
  ["pricing", /^(pricing|plans|price|prices|buy|compare-plans)$/],
  [
    "changelog",
    /^(changelog|change-log|release-notes|releases|whats-new|what-s-new|updates|product-updates)$/,
  ],
  ["careers", /^(careers|career|jobs|join|join-us|work-with-us|hiring|open-positions|opportunities)$/],
  [
    "integrations",
    /^(integrations|integration|marketplace|apps|app-directory|connectors|plugins|extensions)$/,
  ],
  ["customers", /^(customers|customer-stories|case-studies|case-study|stories|testimonials)$/],
  ["security", /^(security|trust|trust-center|compliance|security-and-compliance)$/],
  [
    "legal",
    /^(legal|terms|terms-of-service|terms-of-use|tos|privacy|privacy-policy|dpa|cookies|cookie-policy|imprint|impressum|gdpr)$/,
  ],
  [
    "docs",
    /^(docs|documentation|help|help-center|developers|developer|api|api-reference|guides|kb|knowledge-base|support)$/,
  ],
  ["about", /^(about|about-us|company|team|our-story|leadership|mission)$/],
  // A newsroom of press releases is read beside the blog: releases announce what a company did.
  ["press", /^(press|newsroom|media|press-releases|news-releases|pressroom|in-the-news|media-center)$/],
  ["blog", /^(blog|news|articles|insights)$/],
  ["product", /^(product|products|features|feature|platform|solutions|solution|how-it-works|tour|overview)$/],
];

/** Sections that hold pages of other kinds (/company/careers, /product/pricing, /docs/changelog). */
const CONTAINERS = new Set<PageKind>(["about", "product", "docs", "legal"]);

/** Link texts that name a kind when the path does not ("See plans" → pricing). */
const TEXTS: [PageKind, RegExp][] = [
  ["pricing", /^(pricing|plans|plans (and|&) pricing|see (our )?plans|compare plans)$/i],
  ["changelog", /^(changelog|release notes|what'?s new|product updates)$/i],
  ["careers", /^(careers|jobs|we'?re hiring|join (us|the team)|open (roles|positions))$/i],
  ["integrations", /^(integrations|marketplace|apps)$/i],
  ["customers", /^(customers|case studies|customer stories)$/i],
  ["security", /^(security|trust( center)?|compliance)$/i],
  ["about", /^(about( us)?|company|our story|team)$/i],
  ["docs", /^(docs|documentation|help( center)?|developers|api( docs| reference)?)$/i],
  ["press", /^(press|newsroom|press releases|news releases|press room|media( center)?|in the news)$/i],
  ["blog", /^(blog|news)$/i],
  ["product", /^(product|features|platform|how it works)$/i],
];

/** Standard paths tried when no link or sitemap entry names the kind. */
export const STANDARD_PATHS: [PageKind, string][] = [
  ["pricing", "/pricing"],
  ["product", "/features"],
  ["changelog", "/changelog"],
  ["careers", "/careers"],
  ["about", "/about"],
  ["integrations", "/integrations"],
  ["customers", "/customers"],
  ["security", "/security"],
  ["blog", "/blog"],
  ["docs", "/docs"],
];

/** How many pages of a kind research reads (product pages can be several; the rest one index page). */
const PER_KIND: Record<PageKind, number> = {
  pricing: 2,
  product: 5,
  docs: 1,
  changelog: 1,
  careers: 1,
  about: 2,
  blog: 1,
  press: 1,
  integrations: 1,
  customers: 1,
  security: 1,
  legal: 2,
};

export const MAX_PAGES = 25;
const MAX_SITEMAPS = 5;
const MAX_SITEMAP_URLS = 5000;

/** Same site: the registrable domain (eTLD+1) of both hosts is the same. */
export function sameSite(a: string | URL, b: string | URL): boolean {
  const ha = typeof a === "string" ? safeHost(a) : a.hostname;
  const hb = typeof b === "string" ? safeHost(b) : b.hostname;
  if (!ha || !hb) return false;
  const da = getDomain(ha) ?? ha;
  const db = getDomain(hb) ?? hb;
  return da.toLowerCase() === db.toLowerCase();
}

function safeHost(u: string): string | undefined {
  try {
    return new URL(u).hostname;
  } catch {
    return undefined;
  }
}

const ASSET =
  /\.(png|jpe?g|gif|svg|webp|ico|css|js|mjs|pdf|zip|gz|mp4|webm|mp3|woff2?|ttf|xml|json|txt|rss|atom)$/i;

/** The page kind a URL (and its link text) names, if any. Localised prefixes (/en/, /de-de/) are skipped. */
export function pageKindOf(url: string, text = ""): PageKind | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (ASSET.test(u.pathname)) return undefined;
  const segs = u.pathname
    .toLowerCase()
    .split("/")
    .filter(Boolean)
    .filter((s) => !/^[a-z]{2}([-_][a-z]{2})?$/.test(s) || SEGMENTS.some(([, re]) => re.test(s)));
  const sub = u.hostname.split(".")[0].toLowerCase();
  // Earlier segments say more about what a page is (/blog/pricing-update is a blog post), except under a
  // container section, where a later segment names the page (/company/careers, /product/pricing).
  let found: PageKind | undefined;
  for (const seg of segs) {
    const kind = SEGMENTS.find(([, re]) => re.test(seg.replace(/\.html?$/, "")))?.[0];
    if (!kind) continue;
    if (!found) found = kind;
    else if (kind !== found) return kind;
    if (!CONTAINERS.has(found)) return found;
  }
  if (found) return found;
  if (segs.length === 0) {
    if (/^(docs|developers|developer|help|support|kb)$/.test(sub)) return "docs";
    if (/^(blog|news)$/.test(sub)) return "blog";
    if (/^(press|newsroom|media)$/.test(sub)) return "press";
    if (/^(careers|jobs)$/.test(sub)) return "careers";
    if (/^(trust|security)$/.test(sub)) return "security";
    if (/^(changelog|releases)$/.test(sub)) return "changelog";
  }
  const t = text.trim().replace(/\s+/g, " ");
  if (t) for (const [kind, re] of TEXTS) if (re.test(t)) return kind;
  return undefined;
}

/** The URL without fragment, with a trailing slash dropped (except the root), for de-duplication. */
export function pageKey(url: string): string {
  const u = new URL(url);
  u.hash = "";
  const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, "") : u.pathname;
  return `${u.hostname.replace(/^www\./, "").toLowerCase()}${path}${u.search}`;
}

const VIA_RANK: Record<Via, number> = { nav: 0, footer: 1, body: 2, sitemap: 3, standard: 4 };

function depth(url: string): number {
  return new URL(url).pathname.split("/").filter(Boolean).length;
}

/** Candidates from links: nav first, then footer, then the body. */
export function linkCandidates(home: PageExtract, site: URL): DiscoveredPage[] {
  const out: DiscoveredPage[] = [];
  const groups: [Via, { url: string; text: string }[]][] = [
    ["nav", home.links.nav],
    ["footer", home.links.footer],
    ["body", home.links.body],
  ];
  for (const [via, links] of groups)
    for (const l of links) {
      if (!/^https?:/.test(l.url) || !sameSite(l.url, site)) continue;
      const kind = pageKindOf(l.url, l.text);
      if (kind) out.push({ url: l.url, kind, via });
    }
  return out;
}

/** Reads robots.txt's `Sitemap:` lines (default /sitemap.xml) and the sitemaps, following indexes (bounded). */
export async function sitemapUrls(
  fetcher: Fetcher,
  site: URL,
): Promise<{ urls: string[]; sitemaps: string[] }> {
  const queue: string[] = [];
  const robots = await fetcher.fetch({ url: new URL("/robots.txt", site).href });
  if (robots.ok)
    for (const line of robots.text.split(/\r?\n/)) {
      const m = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
      if (m) {
        try {
          queue.push(new URL(m[1], site).href);
        } catch {}
      }
    }
  if (queue.length === 0) queue.push(new URL("/sitemap.xml", site).href);
  const seen = new Set<string>();
  const urls: string[] = [];
  const read: string[] = [];
  while (queue.length > 0 && read.length < MAX_SITEMAPS && urls.length < MAX_SITEMAP_URLS) {
    const next = queue.shift()!;
    if (seen.has(next) || !sameSite(next, site)) continue;
    seen.add(next);
    const r = await fetcher.fetch({ url: next });
    if (!r.ok) continue;
    read.push(next);
    const parsed = parseSitemap(r.text, next);
    urls.push(...parsed.urls.slice(0, MAX_SITEMAP_URLS - urls.length));
    queue.push(...parsed.sitemaps);
  }
  return { urls, sitemaps: read };
}

/** Chooses the pages to read: per kind the best candidates (links before sitemap before standard paths,
 * shallow paths first), bounded per kind and in total. */
export function selectPages(candidates: DiscoveredPage[], site: URL, limit = MAX_PAGES): DiscoveredPage[] {
  const home = pageKey(site.href);
  const byKey = new Map<string, DiscoveredPage>();
  for (const c of candidates) {
    const k = pageKey(c.url);
    if (k === home) continue;
    const prev = byKey.get(k);
    if (!prev || VIA_RANK[c.via] < VIA_RANK[prev.via]) byKey.set(k, c);
  }
  const ranked = [...byKey.values()].sort(
    (a, b) => depth(a.url) - depth(b.url) || VIA_RANK[a.via] - VIA_RANK[b.via] || a.url.localeCompare(b.url),
  );
  const out: DiscoveredPage[] = [];
  const count = new Map<PageKind, number>();
  // One page of every kind first, then more of the kinds that allow more, until the limit.
  for (const pass of [1, Number.POSITIVE_INFINITY])
    for (const c of ranked) {
      if (out.length >= limit) return out;
      if (out.includes(c)) continue;
      const n = count.get(c.kind) ?? 0;
      if (n >= Math.min(pass, PER_KIND[c.kind])) continue;
      count.set(c.kind, n + 1);
      out.push(c);
    }
  return out;
}

/** Discovery from the fetched home page: links, sitemaps, then standard paths for the kinds still missing. */
export async function discover(opts: {
  fetcher: Fetcher;
  site: URL;
  home: PageExtract;
  limit?: number;
}): Promise<Discovery> {
  const { fetcher, site, home } = opts;
  const candidates = linkCandidates(home, site);
  const sm = await sitemapUrls(fetcher, site);
  for (const url of sm.urls) {
    if (!sameSite(url, site)) continue;
    const kind = pageKindOf(url);
    if (kind) candidates.push({ url, kind, via: "sitemap" });
  }
  const found = new Set(candidates.map((c) => c.kind));
  for (const [kind, path] of STANDARD_PATHS)
    if (!found.has(kind)) candidates.push({ url: new URL(path, site).href, kind, via: "standard" });
  return {
    pages: selectPages(candidates, site, opts.limit),
    feeds: home.feeds,
    sitemaps: sm.sitemaps,
  };
}
