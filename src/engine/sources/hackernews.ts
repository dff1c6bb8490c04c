// Hacker News stories whose address is on the competitor's own domain, through the Algolia search API
// (hn.algolia.com/api/v1/search_by_date, stories whose URL holds the domain). A story counts once it passes a
// points threshold: the snapshot holds those stories (title, discussion, date), never their points or comment
// counts, so a story is new once, when it first passes the threshold.
import { normaliseFeed } from "../compare/normalise.ts";
import type { Snapshot } from "../compare/types.ts";
import type { FeedItem } from "./feeds.ts";

/** The points a story needs to be a signal: a post the community took up, not one that sank. */
export const HN_POINTS = 50;

/** The search of stories whose URL holds the domain (the site's host without `www.`). */
export function hnSearchUrl(domain: string): string {
  return `https://hn.algolia.com/api/v1/search_by_date?query=${encodeURIComponent(domain)}&restrictSearchableAttributes=url&tags=story&hitsPerPage=50`;
}

/** The domain a search address asks about. */
export function hnDomainOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.hostname === "hn.algolia.com" ? (u.searchParams.get("query") ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}

export interface HnStory {
  id: string;
  title: string;
  url: string;
  points: number;
  comments: number;
  createdAt?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

const onDomain = (u: string, domain: string) => {
  try {
    const h = new URL(u).hostname.toLowerCase().replace(/^www\./, "");
    return h === domain || h.endsWith(`.${domain}`);
  } catch {
    return false;
  }
};

/** The stories of a search answer whose own address is on the domain (the search matches words anywhere in
 * the URL), or null when the answer is not a search result. */
export function parseHnSearch(text: string, domain: string): HnStory[] | null {
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(d) || !Array.isArray(d.hits)) return null;
  const out: HnStory[] = [];
  for (const h of d.hits) {
    if (!isObj(h) || typeof h.objectID !== "string" || typeof h.title !== "string") continue;
    if (typeof h.url !== "string" || !onDomain(h.url, domain)) continue;
    out.push({
      id: h.objectID,
      title: h.title,
      url: h.url,
      points: typeof h.points === "number" ? h.points : 0,
      comments: typeof h.num_comments === "number" ? h.num_comments : 0,
      ...(typeof h.created_at === "string" ? { createdAt: h.created_at } : {}),
    });
  }
  return out;
}

/** The discussion's address a person opens. */
export function hnItemUrl(id: string): string {
  return `https://news.ycombinator.com/item?id=${id}`;
}

/** The snapshot: the stories past the threshold, by id, with the address they link in the summary. */
export function hnSnapshot(url: string, stories: HnStory[]): Snapshot {
  const items: FeedItem[] = stories
    .filter((s) => s.points >= HN_POINTS)
    .map((s) => ({
      id: s.id,
      title: s.title,
      url: hnItemUrl(s.id),
      ...(s.createdAt ? { published: s.createdAt } : {}),
      summary: s.url,
    }));
  return normaliseFeed(url, items, "Hacker News");
}
