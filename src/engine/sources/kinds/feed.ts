// An RSS or Atom feed the home page, the changelog, the blog or the press page names (<link rel="alternate">):
// its items, a new one read by the announcement rules (as a changelog's when its address says so).
import type { SourceObservation } from "../../../domain/observation.ts";
import { normaliseFeed } from "../../compare/normalise.ts";
import type { Snapshot } from "../../compare/types.ts";
import { type FeedItem, notAFeed, parseFeed } from "../feeds.ts";
import { releaseCadence } from "../releases.ts";
import {
  type ClassifyAs,
  firstPage,
  get,
  type SourceKind,
  type SourceNow,
  type SourceReadOk,
  uniq,
} from "./kind.ts";

const MAX_FEEDS = 4;

export interface FeedRead {
  url: string;
  title?: string;
  items: FeedItem[];
}

/** A feed's body as its snapshot, or why it is none. */
export function feedSnapshot(read: SourceReadOk, url: string): { snapshot: Snapshot } | { error: string } {
  const wrong = notAFeed(read.text);
  return wrong ? { error: wrong } : { snapshot: normaliseFeed(url, parseFeed(read.text, url)) };
}

/** The release cadence the dates of a feed's items give now. */
export function cadenceNow(src: { url: string }, now: SourceNow, at: Date): Partial<SourceObservation> {
  const cadence = now.itemDates?.length ? releaseCadence(now.itemDates, at, src.url) : null;
  return cadence ? { release_cadence: { ...cadence } } : {};
}

/** How the announcement rules read a feed: a GitHub repository's releases (named by the repository), a
 * changelog's feed, or a feed. */
export function feedClassifyAs(url: string): ClassifyAs {
  const repo = /github\.com\/(?:repos\/)?[^/]+\/([^/]+)\/releases/.exec(url)?.[1];
  if (/github\.com\/.+\/releases/.test(url))
    return { pageKind: "github", ...(repo ? { sourceName: repo } : {}) };
  return { pageKind: /changelog|release|updates|whats-?new/i.test(url) ? "changelog" : "feed" };
}

export const feed: SourceKind<FeedRead[], "feed"> = {
  name: "feed",
  fetch: get,
  parse: feedSnapshot,
  snapshot: "feed",
  classifyAs: (_, url) => feedClassifyAs(url),
  label: () => "feed",
  observe: cadenceNow,
  discovery: {
    /** The feeds the home page, the changelog, the blog and the press page name. */
    async read(s, io) {
      const refs = uniq(
        [s.home, firstPage(s, "changelog"), firstPage(s, "blog"), firstPage(s, "press")].flatMap(
          (p) => p?.extract.feeds ?? [],
        ),
        (f) => f.url,
      ).slice(0, MAX_FEEDS);
      const out: FeedRead[] = [];
      for (const f of refs) {
        const r = await io.get(f.url);
        if (!r.ok) continue;
        try {
          out.push({ url: f.url, title: f.title, items: parseFeed(r.text, f.url) });
        } catch {
          io.failed(f.url, "unsupported_content");
        }
      }
      return out;
    },
    sources: (feeds) => feeds.map((f) => ({ url: f.url, kind: "feed" })),
  },
};
