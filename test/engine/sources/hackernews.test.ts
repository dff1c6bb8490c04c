// Hacker News stories on a competitor's domain (the fixture web's Algolia answers, in their shape): only stories
// whose own address is on the domain, only past the points threshold, a new one a marketing signal with the
// discussion as evidence, points and comments growing nothing.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR } from "../../../fixtures/web/server.ts";
import { classify } from "../../../src/engine/classify/index.ts";
import { compare, seenOf, snapshotHash } from "../../../src/engine/compare/index.ts";
import type { Snapshot } from "../../../src/engine/compare/types.ts";
import {
  hnDomainOf,
  hnSearchUrl,
  hnSnapshot,
  parseHnSearch,
} from "../../../src/engine/sources/hackernews.ts";
import { classifyAsOf } from "../../../src/engine/sources/kinds/index.ts";

const raw = (v: number) =>
  readFileSync(join(SITES_DIR, "hn.algolia.com", `v${v}`, "api", "v1", "search_by_date.json"), "utf8");
const snap = (v: number, domain: string): Snapshot =>
  hnSnapshot(hnSearchUrl(domain), parseHnSearch(raw(v), domain)!);

test("stories whose own address is on the domain (another domain holding its name is not), past 50 points", () => {
  const url = hnSearchUrl("globex.example");
  expect(url).toBe(
    "https://hn.algolia.com/api/v1/search_by_date?query=globex.example&restrictSearchableAttributes=url&tags=story&hitsPerPage=50",
  );
  expect(hnDomainOf(url)).toBe("globex.example");
  expect(parseHnSearch(raw(1), "globex.example")!.map((s) => s.id)).toEqual(["45901264"]);
  expect(snap(1, "brightloop.example").items).toBeUndefined(); // 14 points
  expect(snap(2, "brightloop.example").items!.map((i) => [i.title, i.url])).toEqual([
    [
      "Brightloop raises $40M to fix the bugs that cost you revenue",
      "https://news.ycombinator.com/item?id=45998310",
    ],
  ]);
  expect(parseHnSearch('{"message":"rate limited"}', "globex.example")).toBeNull();
});

test("a new story past the threshold is a marketing signal; growing points and a 9-point story are nothing", () => {
  const prev = snap(1, "brightloop.example");
  const next = snap(2, "brightloop.example");
  const drafts = classify(compare(prev, next, seenOf([prev])), {
    competitor: { id: 4, name: "Brightloop" },
    ...classifyAsOf("hn_mentions", ""),
    pageTitle: next.title,
    observedAt: "2026-11-20T00:00:00.000Z",
    previous: prev,
    snapshot: next,
  });
  expect(drafts.map((d) => [d.category, d.type, d.severity, d.title])).toEqual([
    [
      "marketing",
      "mention",
      "medium",
      'Brightloop on Hacker News: "Brightloop raises $40M to fix the bugs that cost you revenue"',
    ],
  ]);
  expect(drafts[0].evidence[0].source_url).toBe("https://news.ycombinator.com/item?id=45998310");
  // The linked page by its path, not a bare address in prose.
  expect(drafts[0].summary).toBe(
    'A Hacker News story linking Brightloop\'s page /blog/series-b passed 50 points: "Brightloop raises $40M to fix the bugs that cost you revenue".',
  );
  for (const d of ["brightloop.example", "globex.example", "quantive.example"])
    expect(snapshotHash(snap(3, d))).toBe(snapshotHash(snap(2, d)));
});
