// Apple App Store apps the competitor's site links (an app-store badge: apps.apple.com/<country>/app/<name>/id<N>),
// through the iTunes lookup API (itunes.apple.com/lookup?id=N&country=cc): the app's version, release notes,
// rating and rating count, and its most recent customer reviews (the public reviews feed). The snapshot holds the
// version, its notes and the rating to a tenth of a star, never the rating count, which grows every day, nor the
// reviews.
import { normaliseStructured } from "../compare/normalise.ts";
import type { Snapshot } from "../compare/types.ts";
import type { Fetcher, FetchResult } from "../fetch/index.ts";
import type { Validators } from "./kinds/kind.ts";

/** A fall of the average rating, in stars, between two checks that is a signal. */
export const RATING_DROP = 0.3;

const BADGE =
  /^https?:\/\/(?:apps|itunes)\.apple\.com\/(?:([a-z]{2})\/)?app\/(?:[^/?#]+\/)?id(\d{5,12})(?:[/?#]|$)/i;

/** The apps a site links (id and store country, `us` when the address names none), once each. */
export function appStoreAppsFrom(urls: readonly string[]): { id: string; country: string }[] {
  const out: { id: string; country: string }[] = [];
  for (const u of urls) {
    const m = typeof u === "string" ? BADGE.exec(u.trim()) : null;
    if (m && !out.some((a) => a.id === m[2])) out.push({ id: m[2], country: (m[1] ?? "us").toLowerCase() });
  }
  return out;
}

/** The lookup API's address of an app. */
export function appLookupUrl(id: string, country: string): string {
  return `https://itunes.apple.com/lookup?id=${id}&country=${country}`;
}

export interface AppRead {
  id: string;
  name: string;
  version: string;
  releaseNotes?: string;
  releasedAt?: string;
  rating?: number;
  ratingCount?: number;
  seller?: string;
  url?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** The app of a lookup answer, or null when it holds none (an app no longer sold answers resultCount 0). */
export function parseAppLookup(text: string): AppRead | null {
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(d) || !Array.isArray(d.results)) return null;
  const r = d.results.find((x) => isObj(x) && x.wrapperType === "software");
  if (!isObj(r) || typeof r.trackId !== "number" || !str(r.trackName) || !str(r.version)) return null;
  const app: AppRead = { id: String(r.trackId), name: str(r.trackName)!, version: str(r.version)! };
  const notes = str(r.releaseNotes);
  if (notes) app.releaseNotes = notes.replace(/\s+/g, " ").slice(0, 500);
  const at = str(r.currentVersionReleaseDate);
  if (at) app.releasedAt = at;
  if (typeof r.averageUserRating === "number") app.rating = r.averageUserRating;
  if (typeof r.userRatingCount === "number") app.ratingCount = r.userRatingCount;
  const seller = str(r.sellerName);
  if (seller) app.seller = seller;
  const url = str(r.trackViewUrl);
  if (url) app.url = url.replace(/\?.*$/, "");
  return app;
}

/** The snapshot: name, version, its notes, the rating to a tenth of a star. */
export function appSnapshot(url: string, app: AppRead): Snapshot {
  return normaliseStructured(url, {
    app: app.name,
    version: app.version,
    release_notes: app.releaseNotes,
    rating: app.rating !== undefined ? app.rating.toFixed(1) : undefined,
  });
}

/** The customer reviews the dossier shows of an app: the most recent. */
export const MAX_REVIEWS = 5;

/** The public customer-reviews feed of an app in a store country, newest first. */
export function appReviewsUrl(id: string, country: string): string {
  return `https://itunes.apple.com/${country}/rss/customerreviews/id=${id}/sortby=mostrecent/json`;
}

export interface AppReview {
  id: string;
  rating: number;
  title: string;
  /** When it was written (UTC, ISO 8601). */
  at: string;
  /** The app's version it reviews. */
  version?: string;
}

const label = (v: unknown): string | undefined => {
  const x = Array.isArray(v) ? v[0] : v;
  return isObj(x) ? str(x.label) : undefined;
};

/** The reviews of a customer-reviews feed (an Atom feed as JSON, every value a `{label}`), newest first, at most
 * `MAX_REVIEWS`; null when the answer is no such feed. An entry without a rating from 1 to 5 or a date (the app's
 * own entry that older feeds put first) is no review; a feed without entries is an app nobody reviewed. The
 * reviewer's name is not read. */
export function parseAppReviews(text: string): AppReview[] | null {
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(d) || !isObj(d.feed)) return null;
  // One entry comes as an object, not a list.
  const entries = Array.isArray(d.feed.entry) ? d.feed.entry : isObj(d.feed.entry) ? [d.feed.entry] : [];
  const out: AppReview[] = [];
  for (const e of entries) {
    if (!isObj(e)) continue;
    const rating = Number(label(e["im:rating"]));
    const updated = Date.parse(label(e.updated) ?? "");
    const id = label(e.id);
    if (!id || !Number.isInteger(rating) || rating < 1 || rating > 5 || Number.isNaN(updated)) continue;
    const review: AppReview = {
      id,
      rating,
      title: (label(e.title) ?? "").replace(/\s+/g, " ").slice(0, 200),
      at: new Date(updated).toISOString(),
    };
    const version = label(e["im:version"]);
    if (version) review.version = version;
    out.push(review);
  }
  return out.sort((a, b) => b.at.localeCompare(a.at)).slice(0, MAX_REVIEWS);
}

/** Reads an app: its lookup answer, then its customer-reviews feed, whose reviews join the answer (`reviews`).
 * The reviews are not compared (a new review is no change of the app); a feed that cannot be read leaves the
 * answer as the lookup gave it. */
export async function readApp(fetcher: Fetcher, url: string, validators: Validators): Promise<FetchResult> {
  const r = await fetcher.fetch({ url, ...validators, headers: { accept: "application/json" } });
  if (!r.ok || r.notModified) return r;
  const app = parseAppLookup(r.text);
  const country = new URL(url).searchParams.get("country") ?? "us";
  if (!app || !/^[a-z]{2}$/.test(country)) return r;
  const feed = await fetcher.fetch({
    url: appReviewsUrl(app.id, country),
    headers: { accept: "application/json" },
  });
  const reviews = feed.ok && !feed.notModified ? parseAppReviews(feed.text) : null;
  if (!reviews) return r;
  return { ...r, text: JSON.stringify({ ...(JSON.parse(r.text) as Obj), reviews }) };
}

/** The reviews an answer `readApp` composed holds, or undefined when it holds none. */
export function reviewsOf(text: string): AppReview[] | undefined {
  try {
    const d = JSON.parse(text) as unknown;
    return isObj(d) && Array.isArray(d.reviews) ? (d.reviews as AppReview[]) : undefined;
  } catch {
    return undefined;
  }
}
