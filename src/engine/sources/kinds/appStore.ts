// An App Store app the site links (its app-store badges), through the iTunes lookup API (../appStore.ts): its
// version, notes and rating, never its rating count, read by its own rule; the dossier's apps.
import { appStoreApp } from "../../classify/apps.ts";
import { type AppRead, appLookupUrl, appSnapshot, appStoreAppsFrom, parseAppLookup } from "../appStore.ts";
import { getJson, linkedUrls, type SourceKind } from "./kind.ts";

/** App Store apps research reads. */
const MAX_APPS = 2;

export type AppsFound = { url: string; app: AppRead }[];

export const appStore: SourceKind<AppsFound, "app_store"> = {
  name: "app_store",
  fetch: getJson,
  parse(read, url) {
    const app = parseAppLookup(read.text);
    return app ? { snapshot: appSnapshot(url, app) } : { error: "unsupported_content" };
  },
  snapshot: "structured",
  classifyAs: () => ({ pageKind: "app_store", rules: [appStoreApp] }),
  label: () => "App Store app",
  discovery: {
    async read(s, io) {
      const out: AppsFound = [];
      for (const a of appStoreAppsFrom(linkedUrls(s)).slice(0, MAX_APPS)) {
        const url = appLookupUrl(a.id, a.country);
        const r = await getJson(io.counting, url, {});
        if (!r.ok) {
          io.failed(url, r.error);
          continue;
        }
        const app = parseAppLookup(r.text);
        if (app) out.push({ url, app });
        else io.failed(url, "unsupported_content");
      }
      return out;
    },
    sources: (found) => found.map((a) => ({ url: a.url, kind: "app_store" })),
    reads: (found) =>
      found.length
        ? {
            apps: {
              apps: found.map(({ url, app }) => ({
                name: app.name,
                version: app.version,
                ...(app.releasedAt ? { released_at: app.releasedAt } : {}),
                ...(app.rating !== undefined ? { rating: Math.round(app.rating * 100) / 100 } : {}),
                ...(app.ratingCount !== undefined ? { rating_count: app.ratingCount } : {}),
                ...(app.seller ? { seller: app.seller } : {}),
                page: app.url ?? `https://apps.apple.com/app/id${app.id}`,
                source: url,
              })),
            },
          }
        : undefined,
  },
};
