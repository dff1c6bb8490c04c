// An App Store app the site links (its app-store badges), through the iTunes lookup API and its customer-reviews
// feed (../appStore.ts): its version, notes and rating, never its rating count or reviews, read by its own rule;
// the dossier's apps, kept current by the cycles that see the app change.
import { possessive } from "../../../domain/prose.ts";
import { evidence, push, type Rules, rule } from "../../classify/rule.ts";
import { clip, slug } from "../../classify/wording.ts";
import type { Change } from "../../compare/types.ts";
import {
  type AppRead,
  type AppReview,
  appLookupUrl,
  appSnapshot,
  appStoreAppsFrom,
  parseAppLookup,
  RATING_DROP,
  readApp,
  reviewsOf,
} from "../appStore.ts";
import { discoveryRead, linkedUrls, type SourceKind } from "./kind.ts";

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

export const appStoreApp = rule(
  {
    id: "appStoreApp",
    family: "app_store",
    reads: ["field_changed"],
    gives: { product: ["release", "rating_drop"] },
    severity: "medium (a version with release notes, a rating drop), low (a version without notes)",
    when: `An App Store app the site links: a new version, or its average rating down by ${RATING_DROP} stars or more since the last check.`,
  },
  function appStoreApp(r: Rules, c: Change): boolean {
    const f = r.ctx.snapshot?.fields ?? {};
    const app = f.app ?? "its app";
    const id = /[?&]id=(\d+)/.exec(c.url)?.[1];
    const page = id ? `https://apps.apple.com/app/id${id}` : c.url;
    if (c.subject === "version" && c.after) {
      const notes = f.release_notes;
      push(r, {
        key: `product:release:app-${slug(app)}-${slug(c.after)}`,
        category: "product",
        type: "release",
        severity: notes ? "medium" : "low",
        severity_reasons: [
          notes ? "a new app version with release notes" : "a new app version without notes",
        ],
        confidence: 0.9,
        confidence_reasons: ["the App Store's lookup API"],
        title: `${r.name} released ${app} ${c.after} on the App Store`,
        summary: notes
          ? `${app} ${c.after} (was ${c.before ?? "not listed"}): ${clip(notes, 300)}`
          : `${app} moved from ${c.before ?? "no version"} to ${c.after} on the App Store.`,
        evidence: [
          evidence(
            r,
            c,
            notes ? `${app} ${c.after}: ${clip(notes, 400)}` : `${app} ${c.after}`,
            page,
            `${app} on the App Store`,
          ),
        ],
        subject: `${app} ${c.after}`,
      });
      return true;
    }
    if (c.subject === "rating" && c.before && c.after) {
      const drop = Number(c.before) - Number(c.after);
      if (!(drop >= RATING_DROP - 1e-9)) return false;
      push(r, {
        key: `product:rating_drop:app-${slug(app)}`,
        category: "product",
        type: "rating_drop",
        severity: "medium",
        severity_reasons: [
          `the average rating fell ${drop.toFixed(1)} stars (a drop of ${RATING_DROP} or more)`,
        ],
        confidence: 0.85,
        confidence_reasons: ["the App Store's lookup API, rounded to a tenth of a star"],
        title: `${possessive(app)} App Store rating fell from ${c.before} to ${c.after}`,
        summary: `${possessive(r.name)} ${app} is rated ${c.after} stars on the App Store, down from ${c.before}.`,
        evidence: [
          evidence(r, c, `${app}: average rating ${c.before} → ${c.after}`, page, `${app} on the App Store`),
        ],
        subject: app,
      });
      return true;
    }
    return false;
  },
);

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
  classifyAs: () => ({ pageKind: "app_store" }),
  rules: [appStoreApp],
  label: () => "App Store app",
  // A cycle that sees the app change (a version, its rating by a tenth) reads its figures and reviews now.
  observe: (_src, now) => (now.read ? { app: now.read } : {}),
  discovery: {
    async read(s, io) {
      const out: AppsFound = [];
      for (const a of appStoreAppsFrom(linkedUrls(s)).slice(0, MAX_APPS)) {
        const url = appLookupUrl(a.id, a.country);
        const read = await discoveryRead(io, url, readApp, (text) => {
          const app = parseAppLookup(text);
          return app && { app, reviews: reviewsOf(text) };
        });
        if (read) out.push({ url, app: read.app, ...(read.reviews ? { reviews: read.reviews } : {}) });
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
