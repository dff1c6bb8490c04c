/**
 * Feed reader: RSS 2.0, RSS 1.0 (RDF), Atom and JSON Feed into one item shape, plus the GitHub
 * repositories a site links to and their releases feed. Pure and synchronous; bad input gives [].
 */
import { extractFromXml } from "@extractus/feed-extractor";
import { absoluteHttpUrl, clip, decodeEntities, isoDate, plainText, stableHash } from "./util.ts";

export interface FeedItem {
  /** The item's own id (RSS guid, Atom id, JSON Feed id), else its URL, else a hash of title and date. */
  id: string;
  title: string;
  url?: string;
  /** ISO 8601 (publication date; an Atom entry without `published` uses `updated`). */
  published?: string;
  summary?: string;
}

const MAX_ITEMS = 500;
const SUMMARY_MAX = 300;

/** Items of an RSS, Atom or JSON feed; [] when `text` is not a feed (an HTML page, garbage, empty). */
export function parseFeed(text: string, url: string): FeedItem[] {
  if (typeof text !== "string") return [];
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (!body) return [];
  try {
    const items = body.startsWith("{") ? jsonFeedItems(body, url) : xmlFeedItemsLenient(body, url);
    return dedupe(items).slice(0, MAX_ITEMS);
  } catch {
    return [];
  }
}

/** Why an answer is not a whole feed, or null when it is one: an empty body, another document (an HTML
 * maintenance page), or a feed cut short (no closing root, JSON that does not parse). A monitored feed that
 * answers so is a failed check, never a feed with no items. */
export function notAFeed(text: string): "empty_response" | "not_feed_response" | "truncated_response" | null {
  const body = String(text ?? "")
    .replace(/^\uFEFF/, "")
    .trim();
  if (!body) return "empty_response";
  if (body.startsWith("{")) {
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      return "truncated_response";
    }
    return isRecord(data) && Array.isArray(data.items) ? null : "not_feed_response";
  }
  const root = /^(?:<\?[^>]*\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<(rss|feed|rdf:RDF)\b/i.exec(
    body,
  )?.[1];
  if (!root) return "not_feed_response";
  return new RegExp(`</${root}\\s*>$`, "i").test(body) ? null : "truncated_response";
}

function dedupe(items: FeedItem[]): FeedItem[] {
  const seen = new Set<string>();
  const out: FeedItem[] = [];
  for (const item of items) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    out.push(item);
  }
  return out;
}

function makeItem(raw: {
  id?: unknown;
  title?: string;
  url?: string;
  published?: string;
  summary?: string;
}): FeedItem | null {
  const title = raw.title?.trim() ?? "";
  const summaryText = raw.summary ? clip(raw.summary, SUMMARY_MAX) : "";
  const ownId = textOf(raw.id).trim();
  if (!title && !raw.url && !summaryText) return null;
  const id = ownId || raw.url || `h:${stableHash(`${title}|${raw.published ?? ""}|${summaryText}`)}`;
  const item: FeedItem = { id, title: title || clip(summaryText, 80) || raw.url || id };
  if (raw.url) item.url = raw.url;
  if (raw.published) item.published = raw.published;
  if (summaryText) item.summary = summaryText;
  return item;
}

// ---------------------------------------------------------------- JSON Feed (https://jsonfeed.org)

function jsonFeedItems(body: string, base: string): FeedItem[] {
  const data = JSON.parse(body) as unknown;
  if (!isRecord(data) || !Array.isArray(data.items)) return [];
  if (typeof data.version === "string" && !data.version.includes("jsonfeed.org")) return [];
  const feedBase = absoluteHttpUrl(data.home_page_url, base) ?? base;
  const out: FeedItem[] = [];
  for (const entry of data.items.slice(0, MAX_ITEMS)) {
    if (!isRecord(entry)) continue;
    const summarySource =
      (typeof entry.summary === "string" && entry.summary) ||
      (typeof entry.content_text === "string" && entry.content_text) ||
      (typeof entry.content_html === "string" && plainText(entry.content_html)) ||
      "";
    const item = makeItem({
      id: typeof entry.id === "string" || typeof entry.id === "number" ? String(entry.id) : undefined,
      title: typeof entry.title === "string" ? plainText(entry.title) : undefined,
      url: absoluteHttpUrl(entry.url, feedBase) ?? absoluteHttpUrl(entry.external_url, feedBase),
      published: isoDate(entry.date_published) ?? isoDate(entry.date_modified),
      summary: summarySource.replace(/\s+/g, " ").trim(),
    });
    if (item) out.push(item);
  }
  return out;
}

// ---------------------------------------------------------------- RSS / RDF / Atom

interface RawEntry {
  guid?: unknown;
  id?: unknown;
  title?: unknown;
  link?: unknown;
  pubDate?: unknown;
  published?: unknown;
  updated?: unknown;
  issued?: unknown;
  modified?: unknown;
  "dc:date"?: unknown;
  description?: unknown;
  summary?: unknown;
  content?: unknown;
  "content:encoded"?: unknown;
}

/** Real feeds often carry a bare `&` ("R&D"), which is not XML: escape those and try once more. */
function xmlFeedItemsLenient(body: string, base: string): FeedItem[] {
  try {
    return xmlFeedItems(body, base);
  } catch (err) {
    const repaired = body.replace(
      /&(?!(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#x[0-9A-Fa-f]{1,6});)/g,
      "&amp;",
    );
    if (repaired === body) throw err;
    return xmlFeedItems(repaired, base);
  }
}

function xmlFeedItems(body: string, base: string): FeedItem[] {
  if (!body.startsWith("<")) return [];
  const data = extractFromXml(body, {
    descriptionMaxLen: 0,
    baseUrl: base,
    getExtraEntryFields: (entry) => ({ __raw: entry }),
  });
  const out: FeedItem[] = [];
  for (const entry of (data.entries ?? []).slice(0, MAX_ITEMS)) {
    const raw = (entry.__raw ?? {}) as RawEntry;
    const url =
      entryLink(raw.link, base) ?? permalinkGuid(raw.guid, base) ?? absoluteHttpUrl(entry.link, base);
    const published =
      isoDate(textOf(raw.pubDate)) ??
      isoDate(textOf(raw.published)) ??
      isoDate(textOf(raw["dc:date"])) ??
      isoDate(textOf(raw.issued)) ??
      isoDate(textOf(raw.updated)) ??
      isoDate(textOf(raw.modified));
    const summaryHtml =
      textOf(raw.description) || textOf(raw.summary) || textOf(raw["content:encoded"]) || textOf(raw.content);
    const item = makeItem({
      id: textOf(raw.guid) || textOf(raw.id) || undefined,
      title: plainText(decodeEntities(textOf(raw.title))),
      url,
      published,
      summary: plainText(decodeEntities(summaryHtml)),
    });
    if (item) out.push(item);
  }
  return out;
}

/** Text of a parsed XML node: a string/number, or an element object's text. */
function textOf(node: unknown): string {
  if (node == null) return "";
  if (typeof node === "string") return node;
  if (typeof node === "number" || typeof node === "boolean") return String(node);
  if (Array.isArray(node)) return node.length ? textOf(node[0]) : "";
  if (isRecord(node)) {
    for (const key of ["#text", "_text", "_cdata", "$t"]) {
      if (key in node) return textOf(node[key]);
    }
  }
  return "";
}

/** An RSS `<link>` text or the best Atom `<link>`: rel="alternate" (or no rel) first, never self/replies. */
function entryLink(link: unknown, base: string): string | undefined {
  if (link == null) return undefined;
  if (typeof link === "string") return absoluteHttpUrl(link, base);
  const links = Array.isArray(link) ? link : [link];
  let fallback: string | undefined;
  for (const l of links) {
    if (typeof l === "string") {
      const u = absoluteHttpUrl(l, base);
      if (u) return u;
      continue;
    }
    if (!isRecord(l)) continue;
    const href = absoluteHttpUrl(l["@_href"] ?? l.href, base) ?? absoluteHttpUrl(textOf(l), base);
    if (!href) continue;
    const rel = typeof l["@_rel"] === "string" ? l["@_rel"] : "alternate";
    if (rel === "alternate") return href;
    if (rel !== "self" && rel !== "replies" && rel !== "edit" && !fallback) fallback = href;
  }
  return fallback;
}

function permalinkGuid(guid: unknown, base: string): string | undefined {
  if (isRecord(guid) && guid["@_isPermaLink"] === "false") return undefined;
  const text = textOf(guid);
  return /^https?:\/\//i.test(text) ? absoluteHttpUrl(text, base) : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------- GitHub

/** First path segments of github.com that are GitHub's own pages, not organisations. */
const GITHUB_RESERVED = new Set([
  "about",
  "apps",
  "blog",
  "careers",
  "collections",
  "contact",
  "customer-stories",
  "enterprise",
  "events",
  "explore",
  "features",
  "join",
  "login",
  "logout",
  "marketplace",
  "new",
  "notifications",
  "orgs",
  "organizations",
  "pricing",
  "pulls",
  "issues",
  "readme",
  "search",
  "security",
  "settings",
  "site",
  "sponsors",
  "team",
  "topics",
  "trending",
  "users",
  "codespaces",
  "resources",
  "solutions",
  "signup",
  "password_reset",
  "apps",
]);

const GITHUB_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** The path segments of a github.com URL, or undefined when `url` is not one. */
function githubPath(url: unknown): string[] | undefined {
  if (typeof url !== "string") return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host = u.hostname.toLowerCase();
  if (host !== "github.com" && host !== "www.github.com") return undefined;
  return u.pathname.split("/").filter(Boolean);
}

/** `org/repo` of every GitHub repository among `links` (github.com/{org}/{repo}[/…]), deduplicated. */
export function githubReposFrom(links: readonly { url: string }[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  if (!Array.isArray(links)) return out;
  for (const link of links) {
    const [org, repoRaw] = githubPath(typeof link === "string" ? link : link?.url) ?? [];
    if (!org || !repoRaw) continue;
    const repo = repoRaw.replace(/\.git$/i, "");
    if (GITHUB_RESERVED.has(org.toLowerCase()) || !GITHUB_NAME.test(org)) continue;
    if (!REPO_NAME.test(repo) || repo === "." || repo === "..") continue;
    const key = `${org}/${repo}`;
    if (seen.has(key.toLowerCase())) continue;
    seen.add(key.toLowerCase());
    out.push(key);
  }
  return out;
}

/** Every GitHub organisation (or user) the links name: github.com/{org} and the owner of github.com/{org}/{repo}
 * links, deduplicated, in the order first named. */
export function githubOrgsFrom(urls: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const url of Array.isArray(urls) ? urls : []) {
    const org = githubPath(url)?.[0];
    if (!org || GITHUB_RESERVED.has(org.toLowerCase()) || !GITHUB_NAME.test(org)) continue;
    if (seen.has(org.toLowerCase())) continue;
    seen.add(org.toLowerCase());
    out.push(org);
  }
  return out;
}

/** The Atom feed of a repository's releases: `https://github.com/{org}/{repo}/releases.atom`. */
export function githubReleasesFeedUrl(repo: string): string {
  return `https://github.com/${repo}/releases.atom`;
}
