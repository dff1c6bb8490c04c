// An App Store app the site links (its app-store badges), through the iTunes lookup API and its customer-reviews
// feed (../appStore.ts): its version, notes and rating, never its rating count or reviews, read by its own rule;
// the dossier's apps, kept current by the cycles that see the app change.
import { appStoreApp } from "../../classify/apps.ts";
import {
  type AppRead,
  type AppReview,
  appLookupUrl,
  appSnapshot,
  appStoreAppsFrom,
  parseAppLookup,
  readApp,
  reviewsOf,
} from "../appStore.ts";
import { linkedUrls, type SourceKind } from "./kind.ts";

/** App Store apps research reads. */
const MAX_APPS = 2;

export type AppsFound = { url: string; app: AppRead; reviews?: AppReview[] }[];

type Obj = Record<string, unknown>;

/** What the dossier says of an app now (its entry of `reads.apps` but the store page and source). */
function appNow(app: AppRead, reviews: AppReview[] | undefined): Obj {
  return {
    name: app.name,
    version: app.version,
    released_at: app.releasedAt,
    rating: app.rating !== undefined ? Math.round(app.rating * 100) / 100 : undefined,
    rating_count: app.ratingCount,
    seller: app.seller,
    ...(reviews
      ? {
          reviews: reviews.map((r) => ({
            rating: r.rating,
            title: r.title,
            written_at: r.at,
            ...(r.version ? { version: r.version } : {}),
          })),
        }
      : {}),
  };
}

const defined = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

export const appStore: SourceKind<AppsFound, "app_store"> = {
  name: "app_store",
  fetch: readApp,
  parse(read, url) {
    const app = parseAppLookup(read.text);
    return app
      ? { snapshot: appSnapshot(url, app), read: appNow(app, reviewsOf(read.text)) }
      : { error: "unsupported_content" };
  },
  snapshot: "structured",
  classifyAs: () => ({ pageKind: "app_store", rules: [appStoreApp] }),
  label: () => "App Store app",
  // A cycle that sees the app change (a version, its rating by a tenth) reads its figures and reviews now.
  observe: (_src, now) => (now.read ? { app: now.read } : {}),
  discovery: {
    async read(s, io) {
      const out: AppsFound = [];
      for (const a of appStoreAppsFrom(linkedUrls(s)).slice(0, MAX_APPS)) {
        const url = appLookupUrl(a.id, a.country);
        const r = await readApp(io.counting, url, {});
        if (!r.ok) {
          io.failed(url, r.error);
          continue;
        }
        const app = parseAppLookup(r.text);
        const reviews = reviewsOf(r.text);
        if (app) out.push({ url, app, ...(reviews ? { reviews } : {}) });
        else io.failed(url, "unsupported_content");
      }
      return out;
    },
    sources: (found) => found.map((a) => ({ url: a.url, kind: "app_store" })),
    reads: (found) =>
      found.length
        ? {
            apps: {
              apps: found.map(({ url, app, reviews }) =>
                defined({
                  ...appNow(app, reviews),
                  page: app.url ?? `https://apps.apple.com/app/id${app.id}`,
                  source: url,
                }),
              ),
            },
          }
        : undefined,
  },
};
