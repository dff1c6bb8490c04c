// The Wikidata item a site declares as itself, through a fetcher that answers from the fixture web's files (in
// Wikidata's entity and wbgetentities shapes): the facts in words, the official-website check, a new chief
// executive as a leadership signal through the real comparison and classification, and no change from a
// revision that only adds translations.
import { expect, test } from "bun:test";
import { resolveFixture } from "../../../fixtures/web/server.ts";
import { classify } from "../../../src/engine/classify/index.ts";
import { compare, normaliseStructured, seenOf, snapshotHash } from "../../../src/engine/compare/index.ts";
import type { Fetcher, FetchResult } from "../../../src/engine/fetch/index.ts";
import { classifyAsOf } from "../../../src/engine/sources/kinds/index.ts";
import {
  isOfficialSite,
  readWikidata,
  wikidataEntityUrl,
  wikidataFactsOf,
  wikidataFields,
  wikidataItemFrom,
} from "../../../src/engine/sources/wikidata.ts";

const ITEM = "Q130512784";
const URL_ = wikidataEntityUrl(ITEM);

function fixtureFetcher(version: number, asked: string[] = []): Fetcher {
  return {
    fetch(req) {
      asked.push(req.url);
      const u = new URL(req.url);
      const r = resolveFixture(u.hostname, u.pathname, version);
      const text = r.body ? new TextDecoder().decode(r.body) : "";
      const out: FetchResult =
        r.status === 200
          ? {
              ok: true,
              url: req.url,
              finalUrl: req.url,
              status: 200,
              notModified: false,
              headers: r.headers,
              contentType: "application/json",
              text,
              bytes: text.length,
              redirects: [],
              fetchedAt: "2026-11-20T00:00:00.000Z",
            }
          : {
              ok: false,
              url: req.url,
              status: r.status,
              error: "http_error",
              message: `HTTP ${r.status}`,
              fetchedAt: "2026-11-20T00:00:00.000Z",
            };
      return Promise.resolve(out);
    },
  };
}

async function facts(version: number, asked?: string[]) {
  const r = await readWikidata(fixtureFetcher(version, asked), URL_, {});
  if (!r.ok) throw new Error(r.message);
  return wikidataFactsOf(r.text)!;
}

test("the item a site declares: its sameAs or a link, never anything else", () => {
  expect(
    wikidataItemFrom([
      "https://www.linkedin.com/company/quantive-labs",
      "https://www.wikidata.org/wiki/Q130512784",
    ]),
  ).toBe(ITEM);
  expect(wikidataItemFrom(["http://www.wikidata.org/entity/Q42"])).toBe("Q42");
  expect(wikidataItemFrom(["https://www.wikidata.org/wiki/Property:P856", "https://example.com/Q42"])).toBe(
    undefined,
  );
});

test("the item's facts in words, two requests, and the official website that proves it is the company", async () => {
  const asked: string[] = [];
  const f = await facts(1, asked);
  expect(f).toEqual({
    item: ITEM,
    label: "Quantive Labs",
    official_websites: ["https://quantive.example/"],
    inception_year: 2021,
    headquarters: "Toronto",
    country: "Canada",
    chief_executive: "Priya Raman",
    parent_organization: "Halvorsen Group",
    cik: "0001987654",
  });
  expect(asked.map((u) => new URL(u).pathname)).toEqual([
    "/wiki/Special:EntityData/Q130512784.json",
    "/w/api.php",
  ]);
  expect(isOfficialSite(f, "https://www.quantive.example/pricing")).toBe(true);
  expect(isOfficialSite(f, "https://quantive.com/")).toBe(false);
  // an ended chief executive is no longer one: the preferred, current statement is read
  expect((await facts(2)).chief_executive).toBe("Marcus Oyelaran");
});

test("a new chief executive is a high leadership signal with the item as evidence; translations are nothing", async () => {
  const snap = async (v: number) => normaliseStructured(URL_, wikidataFields(await facts(v)));
  const [s1, s2, s3] = [await snap(1), await snap(2), await snap(3)];
  expect(snapshotHash(s3)).toBe(snapshotHash(s2));
  const drafts = classify(compare(s1, s2, seenOf([s1])), {
    competitor: { id: 3, name: "Quantive" },
    ...classifyAsOf("wikidata", ""),
    observedAt: "2026-11-20T00:00:00.000Z",
    previous: s1,
    snapshot: s2,
  });
  expect(drafts.length).toBe(1);
  expect(drafts[0]).toMatchObject({
    category: "company",
    type: "leadership_change",
    severity: "high",
    title: "Quantive has a new chief executive: Marcus Oyelaran (was Priya Raman)",
    evidence: [
      {
        text: "chief executive officer: Priya Raman → Marcus Oyelaran",
        source_url: "https://www.wikidata.org/wiki/Q130512784",
        source_title: "Wikidata",
      },
    ],
  });
});

test("an answer that is not an entity is a failed read, never empty facts", async () => {
  const html: Fetcher = {
    fetch: (req) =>
      Promise.resolve({
        ok: true,
        url: req.url,
        finalUrl: req.url,
        status: 200,
        notModified: false,
        headers: {},
        contentType: "text/html",
        text: "<html><body>Wikimedia Error</body></html>",
        bytes: 40,
        redirects: [],
        fetchedAt: "2026-11-20T00:00:00.000Z",
      }),
  };
  const r = await readWikidata(html, URL_, {});
  expect(r.ok).toBe(false);
  expect(!r.ok && r.error).toBe("unsupported_content");
});
