// App Store apps a site's badges link (the fixture web's lookup answers, in the lookup API's shape): the app in
// words, a new version with notes and a rating drop as signals, and a smaller drop or a growing count nothing.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR } from "../../../fixtures/web/server.ts";
import { classify } from "../../../src/engine/classify/index.ts";
import { compare, seenOf, snapshotHash } from "../../../src/engine/compare/index.ts";
import type { Snapshot } from "../../../src/engine/compare/types.ts";
import type { Fetcher, FetchResult } from "../../../src/engine/fetch/index.ts";
import {
  appLookupUrl,
  appReviewsUrl,
  appSnapshot,
  appStoreAppsFrom,
  MAX_REVIEWS,
  parseAppLookup,
  parseAppReviews,
  readApp,
} from "../../../src/engine/sources/appStore.ts";
import { classifyAsOf, sourceKind } from "../../../src/engine/sources/kinds/index.ts";

const URL_ = appLookupUrl("6449012345", "gb");
const raw = (v: number) => readFileSync(join(SITES_DIR, "itunes.apple.com", `v${v}`, "lookup.json"), "utf8");
const snap = (text: string): Snapshot => appSnapshot(URL_, parseAppLookup(text)!);
const run = (prev: Snapshot, next: Snapshot) =>
  classify(compare(prev, next, seenOf([prev])), {
    competitor: { id: 5, name: "Northwind" },
    ...classifyAsOf("app_store", ""),
    observedAt: "2026-11-20T00:00:00.000Z",
    previous: prev,
    snapshot: next,
  });

test("the apps a site's badges link, and the lookup answer in words", () => {
  expect(
    appStoreAppsFrom([
      "https://apps.apple.com/gb/app/northwind-renewals/id6449012345",
      "https://apps.apple.com/app/id6449012345",
      "https://itunes.apple.com/us/app/other/id123456789?mt=8",
      "https://apps.apple.com/gb/developer/northwind-analytics-ltd/id1598800211",
    ]),
  ).toEqual([
    { id: "6449012345", country: "gb" },
    { id: "123456789", country: "us" },
  ]);
  expect(URL_).toBe("https://itunes.apple.com/lookup?id=6449012345&country=gb");
  expect(parseAppLookup(raw(1))).toMatchObject({
    id: "6449012345",
    name: "Northwind Renewals",
    version: "3.4.0",
    rating: 4.61538,
    ratingCount: 1287,
    url: "https://apps.apple.com/gb/app/northwind-renewals/id6449012345",
  });
  expect(parseAppLookup('{"resultCount":0,"results":[]}')).toBeNull();
});

test("a new version with notes and a drop of 0.3 stars or more are signals; a smaller drop and the count are not", () => {
  const drafts = run(snap(raw(1)), snap(raw(2)));
  expect(drafts.map((d) => [d.type, d.severity, d.title]).sort()).toEqual([
    ["rating_drop", "medium", "Northwind Renewals' App Store rating fell from 4.6 to 4.1"],
    ["release", "medium", "Northwind released Northwind Renewals 3.5.0 on the App Store"],
  ]);
  expect(snapshotHash(snap(raw(3)))).toBe(snapshotHash(snap(raw(2))));
  const slight = JSON.parse(raw(2));
  slight.results[0].averageUserRating = 3.9;
  expect(run(snap(raw(2)), snap(JSON.stringify(slight)))).toEqual([]);
});

const feedText = (v: number) =>
  readFileSync(
    join(
      SITES_DIR,
      "itunes.apple.com",
      `v${v}`,
      "gb/rss/customerreviews/id=6449012345/sortby=mostrecent/json.json",
    ),
    "utf8",
  );

test("the customer-reviews feed: the most recent reviews' rating, title, date and version, no reviewer", () => {
  expect(appReviewsUrl("6449012345", "gb")).toBe(
    "https://itunes.apple.com/gb/rss/customerreviews/id=6449012345/sortby=mostrecent/json",
  );
  const v1 = parseAppReviews(feedText(1))!;
  expect(v1.length).toBe(MAX_REVIEWS);
  expect(v1[0]).toEqual({
    id: "11874203318",
    rating: 5,
    title: "Our renewal standup runs on it",
    at: "2026-11-08T13:41:22.000Z",
    version: "3.4.0",
  });
  expect(JSON.stringify(v1)).not.toContain("renewals_lead_mk");
  const v2 = parseAppReviews(feedText(2))!;
  expect(v2.slice(0, 2).map((r) => [r.rating, r.title])).toEqual([
    [1, "Crashes since the update"],
    [2, "Reminders arrive twice"],
  ]);
  // One entry comes as an object; the app's own entry (no rating) and a rating out of range are no reviews.
  const one = (entry: unknown) => parseAppReviews(JSON.stringify({ feed: { entry } }));
  const e = {
    id: { label: "1" },
    "im:rating": { label: "4" },
    updated: { label: "2026-01-02T03:04:05-07:00" },
    title: { label: "Fine" },
  };
  expect(one(e)).toEqual([{ id: "1", rating: 4, title: "Fine", at: "2026-01-02T10:04:05.000Z" }]);
  expect(
    one([{ "im:name": { label: "Northwind Renewals" } }, { ...e, "im:rating": { label: "9" } }]),
  ).toEqual([]);
  expect(one(undefined)).toEqual([]);
  expect(parseAppReviews("<html>Service unavailable</html>")).toBeNull();
  expect(parseAppReviews('{"resultCount":0,"results":[]}')).toBeNull();
});

/** A fetcher answering from the fixture web's files at a version. */
function fixtureFetcher(v: number, failReviews = false): Fetcher & { urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    async fetch({ url }: { url: string }): Promise<FetchResult> {
      urls.push(url);
      const reviews = url.includes("/rss/customerreviews/");
      if (reviews && failReviews)
        return { ok: false, url, error: "http_error", status: 503, message: "503" } as unknown as FetchResult;
      return {
        ok: true,
        url,
        finalUrl: url,
        status: 200,
        contentType: "application/json",
        text: reviews ? feedText(v) : raw(v),
        headers: {},
        fetchedAt: "2026-11-20T00:00:00.000Z",
      } as unknown as FetchResult;
    },
  } as unknown as Fetcher & { urls: string[] };
}

test("an app is read with its reviews; a new review changes nothing compared, and a feed that fails loses nothing", async () => {
  const f = fixtureFetcher(3);
  const r = await readApp(f, URL_, {});
  expect(f.urls).toEqual([URL_, appReviewsUrl("6449012345", "gb")]);
  expect(r.ok).toBe(true);
  const kind = sourceKind("app_store");
  const parsed = kind.parse!(r as never, URL_) as { snapshot: Snapshot; read: Record<string, any> };
  expect(parsed.read.reviews[0]).toEqual({
    rating: 5,
    title: "Offline notes are great",
    written_at: "2026-11-23T09:14:55.000Z",
    version: "3.5.0",
  });
  expect(parsed.read.rating_count).toBe(1433);
  // The snapshot is the lookup's alone: v3's new 5-star review beside v2's answer is no change.
  const v2 = kind.parse!((await readApp(fixtureFetcher(2), URL_, {})) as never, URL_) as {
    snapshot: Snapshot;
  };
  expect(snapshotHash(parsed.snapshot)).toBe(snapshotHash(v2.snapshot));
  expect(run(v2.snapshot, parsed.snapshot)).toEqual([]);
  const failed = kind.parse!((await readApp(fixtureFetcher(3, true), URL_, {})) as never, URL_) as {
    snapshot: Snapshot;
    read: Record<string, any>;
  };
  expect(failed.read.reviews).toBeUndefined();
  expect(snapshotHash(failed.snapshot)).toBe(snapshotHash(parsed.snapshot));
});
