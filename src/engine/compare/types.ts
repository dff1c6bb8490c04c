import type { FeedItem } from "../sources/feeds.ts";
import type { Job } from "../sources/jobBoards.ts";

// Snapshots (the normalised, masked content of one source at one time) and Changes (what compare() finds
// between two snapshots). docs/engine.md, "Snapshots and comparison", describes both for the classifier.

export type SnapshotKind = "page" | "feed" | "jobs" | "structured";

/** A content block, masked. Lists, card items and table body rows are sorted sets (order is not a change). */
export type SnapBlock =
  | { t: "h"; level: number; text: string }
  | { t: "p"; text: string; section?: string }
  | { t: "ul"; items: string[]; section?: string }
  | { t: "table"; head?: string; rows: string[]; section?: string }
  | { t: "card"; title: string; items: string[]; section?: string };

/** A plan: its price (`starting`: "From $X", the plan's lowest price), name and features. */
export interface SnapPlan extends PriceValue {
  name: string;
  /** The yearly-billed alternative of a monthly-billed plan (a monthly/annual toggle). */
  annual?: { price: number; amount: number };
  features: string[];
}

export interface SnapJob {
  title: string;
  department?: string;
  location?: string;
  url?: string;
}

export interface SnapFeedItem {
  id: string;
  title: string;
  url?: string;
  published?: string;
  summary?: string;
}

export interface SnapLink {
  url: string;
  text: string;
}

/** One source's normalised content. Serialised with sorted keys (`serialise`), its SHA-256 is its identity. */
export interface Snapshot {
  v: 1;
  kind: SnapshotKind;
  url: string;
  title?: string;
  lang?: string;
  /** A whitelist of meta tags (description, og:title …), masked. */
  meta?: Record<string, string>;
  /** JSON-LD flattened to `Type.path` → value (page), or the fields of a structured source; masked. */
  fields?: Record<string, string>;
  hero?: { headline: string; subheadline?: string };
  blocks?: SnapBlock[];
  /** Nav and footer links: the site's pages, sorted by URL. */
  pages?: SnapLink[];
  plans?: SnapPlan[];
  features?: string[];
  integrations?: string[];
  jobs?: SnapJob[];
  items?: SnapFeedItem[];
}

export type ChangeKind =
  | "plan_added"
  | "plan_removed"
  | "plan_price_changed"
  | "plan_features_changed"
  | "feature_added"
  | "feature_removed"
  | "integration_added"
  | "integration_removed"
  | "job_added"
  | "job_removed"
  | "page_added"
  | "page_removed"
  | "feed_item_added"
  | "field_changed"
  | "meta_changed"
  | "hero_changed"
  | "text_added"
  | "text_removed"
  | "text_changed"
  | "list_changed";

/** A price: `price` is per month (docs/decisions.md), `period` how it is billed; `amount` the yearly figure the page
 * states for a price billed only yearly ("US$38,000 / year"), which is how it is written. */
export interface PriceValue {
  price: number | null;
  amount?: number;
  currency?: string;
  period?: "month" | "year" | "one_time";
  unit?: string;
  custom?: boolean;
  starting?: boolean;
}

/** One word-diff part: unchanged text, or removed/added words. */
export interface DiffPart {
  op: "=" | "-" | "+";
  text: string;
}

export interface Change {
  kind: ChangeKind;
  /** The snapshot kind it came from. */
  source: SnapshotKind;
  /** The source's URL (the evidence's source_url); a job's or feed item's own link is in `link`. */
  url: string;
  /** What changed: plan name, feature, integration, job title, page link text, feed item title, field path
   * (`Organization.address.addressLocality`, `meta:description`, `title`), `hero`, or the text's section heading. */
  subject: string;
  /** Nearest heading above the changed block (text and list changes). */
  section?: string;
  /** The old value as text; null when something was added. */
  before: string | null;
  /** The new value as text; null when something was removed. */
  after: string | null;
  /** The change with a little context, word-diff marked: `Team plan $[-49][+59] per seat/month`. */
  excerpt: string;
  /** The surrounding text of the version that holds the change (the new one, the old one for removals). */
  context?: string;
  /** Word-level parts of the excerpt, for highlighting. */
  diff?: DiffPart[];
  /** Members added to / removed from a set (list items, table rows, plan features). */
  added?: string[];
  removed?: string[];
  /** Plan price changes: the old and the new price. `delta` is (after − before) / before when both are numbers. */
  price?: { before?: PriceValue; after?: PriceValue; delta?: number };
  /** Jobs: the open roles of the source before and after; the job's department and location. */
  counts?: { before: number; after: number };
  department?: string;
  location?: string;
  /** A job's, feed item's or page's own URL. */
  link?: string;
  /** A feed item's publication time (ISO) as the feed states it. */
  published?: string;
}

/** Inputs that are not pages: feed items (parseFeed) and job lists (parseJobBoard, a careers page's list). */
export type FeedItemInput = FeedItem;
export type JobInput = Job;
