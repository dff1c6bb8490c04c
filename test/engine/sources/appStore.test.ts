// App Store apps a site's badges link (the fixture web's lookup answers, in the lookup API's shape): the app in
// words, a new version with notes and a rating drop as signals, and a smaller drop or a growing count nothing.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR } from "../../../fixtures/web/server.ts";
import { classify } from "../../../src/engine/classify/index.ts";
import { compare, seenOf, snapshotHash } from "../../../src/engine/compare/index.ts";
import type { Snapshot } from "../../../src/engine/compare/types.ts";
import {
  appLookupUrl,
  appSnapshot,
  appStoreAppsFrom,
  parseAppLookup,
} from "../../../src/engine/sources/appStore.ts";
import { sourceKind } from "../../../src/engine/sources/kinds/index.ts";

const URL_ = appLookupUrl("6449012345", "gb");
const raw = (v: number) => readFileSync(join(SITES_DIR, "itunes.apple.com", `v${v}`, "lookup.json"), "utf8");
const snap = (text: string): Snapshot => appSnapshot(URL_, parseAppLookup(text)!);
const run = (prev: Snapshot, next: Snapshot) =>
  classify(compare(prev, next, seenOf([prev])), {
    competitor: { id: 5, name: "Northwind" },
    ...sourceKind("app_store").classifyAs("app_store", ""),
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
