// Apple App Store apps the competitor's site links (an app-store badge: apps.apple.com/<country>/app/<name>/id<N>),
// through the iTunes lookup API (itunes.apple.com/lookup?id=N&country=cc): the app's version, release notes,
// rating and rating count. The snapshot holds the version, its notes and the rating to a tenth of a star, never
// the rating count, which grows every day.
import { normaliseStructured } from "../compare/normalise.ts";
import type { Snapshot } from "../compare/types.ts";

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
