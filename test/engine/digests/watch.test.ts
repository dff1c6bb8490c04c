// "What to watch" for the open sources' signals: each kind gets a line of its own, built on the fact its signal
// states (the rating and what it was, the package and its versions, the 8-K's item and filing day, the chief
// executive Wikidata names, the Hacker News story), written for a marketer; the signals carry the titles and
// summaries their classification rules write.
import { describe, expect, test } from "bun:test";
import { sentences } from "../../../src/domain/prose.ts";
import type { DigestSignal } from "../../../src/engine/digests/types.ts";
import { whatToWatch } from "../../../src/engine/digests/watch.ts";
import { expectProse } from "../../support/prose-check.ts";

const sig = (id: number, over: Partial<DigestSignal>): DigestSignal => ({
  id,
  watch: "core",
  competitor_id: 1,
  competitor: "Globex",
  title: `Signal ${id}`,
  first_seen_at: "2026-11-22T10:00:00.000Z",
  url: `/app/signals/${id}`,
  ...over,
});

const quantive = { competitor_id: 2, competitor: "Quantive" };
const northwind = { competitor_id: 3, competitor: "Northwind" };
const brightloop = { competitor_id: 4, competitor: "Brightloop" };

const OPEN_SOURCES: DigestSignal[] = [
  sig(1, {
    ...northwind,
    type: "rating_drop",
    category: "product",
    severity: "medium",
    title: "Northwind Mobile's App Store rating fell from 4.6 to 4.1",
    summary: "Northwind's Northwind Mobile is rated 4.1 stars on the App Store, down from 4.6.",
    subject: "Northwind Mobile",
  }),
  sig(2, {
    type: "feature_removed",
    category: "product",
    severity: "medium",
    title: "Globex deprecates its npm package globex-legacy",
    summary: "Globex deprecated globex-legacy on npm: Use globex-js instead. See the migration guide.",
    subject: "globex-legacy",
  }),
  sig(3, {
    type: "release",
    category: "product",
    severity: "medium",
    title: "Globex released globex-js 5.0.0 on npm, a new major version",
    summary: "Globex's npm package globex-js moved from major version 4 to 5 (5.0.0).",
    subject: "globex-js 5.0.0",
  }),
  sig(4, {
    ...quantive,
    type: "leadership_change",
    category: "company",
    severity: "high",
    title: "Quantive reports a change of directors or officers (8-K, item 5.02)",
    summary:
      "In a Form 8-K filed on 20 Nov 2026 (item 5.02), Quantive reported a change of directors or officers.",
    subject: "8-K 0001234567-26-000123",
  }),
  sig(5, {
    ...quantive,
    type: "leadership_change",
    category: "company",
    severity: "high",
    title: "Quantive has a new chief executive: Marcus Oyelaran (was Priya Raman)",
    summary:
      "Wikidata now names Marcus Oyelaran as Quantive's chief executive officer, in place of Priya Raman.",
    subject: "Marcus Oyelaran",
    before: "Priya Raman",
    after: "Marcus Oyelaran",
  }),
  sig(6, {
    ...brightloop,
    type: "mention",
    category: "marketing",
    severity: "medium",
    title: 'Brightloop on Hacker News: "Brightloop 2.0: open-source session replay"',
    summary:
      'A Hacker News story linking Brightloop\'s page /blog/brightloop-2 passed 50 points: "Brightloop 2.0: open-source session replay".',
    subject: "Brightloop 2.0: open-source session replay",
  }),
  sig(7, {
    ...northwind,
    type: "release",
    category: "product",
    severity: "medium",
    title: "Northwind released Northwind Mobile 3.5.0 on the App Store",
    summary: "Northwind Mobile 3.5.0 (was 3.4.2): Offline mode for field teams. Faster sync on large boards.",
    subject: "Northwind Mobile 3.5.0",
  }),
  sig(8, {
    ...quantive,
    type: "acquisition",
    category: "company",
    severity: "high",
    title: "Quantive completes an acquisition or disposition of assets (8-K, item 2.01)",
    summary:
      "In a Form 8-K filed on 24 Nov 2026 (item 2.01), Quantive completed an acquisition or disposition of assets.",
    subject: "8-K 0001234567-26-000131",
  }),
  sig(9, {
    ...quantive,
    type: "partnership",
    category: "company",
    severity: "medium",
    title: "Quantive enters into a material definitive agreement (8-K, item 1.01)",
    summary:
      "In a Form 8-K filed on 25 Nov 2026 (item 1.01), Quantive entered into a material definitive agreement.",
    subject: "8-K 0001234567-26-000140",
  }),
];

describe("what to watch, for the open sources", () => {
  test("each kind of signal says its own fact and what a marketer can do with it", () => {
    const out = whatToWatch(OPEN_SOURCES, OPEN_SOURCES.length);
    const byId = new Map(out.map((w) => [w.signal_ids[0], w.text]));
    expect(out.map((w) => w.signal_ids)).toEqual(
      [[1], [2], [3], [4], [5], [6], [7], [8], [9]].filter((ids) => byId.has(ids[0])),
    );
    expect(byId.get(1)).toBe(
      "Northwind's app Northwind Mobile is rated 4.1 stars on the App Store, down from 4.6: its recent reviews say what its users dislike, a talk track with buyers whose teams work on their phones.",
    );
    expect(byId.get(2)).toBe(
      'Globex deprecated its npm package globex-legacy ("Use globex-js instead"): developers who build on it must move off it, a good moment to show them how your product connects.',
    );
    expect(byId.get(3)).toBe(
      "Globex released globex-js 5.0.0, moving its npm package from version 4 to 5: developers must change their code to upgrade, when they are most open to comparing alternatives.",
    );
    expect(byId.get(4)).toBe(
      "Quantive told the SEC of a change among its directors or officers in a filing on 20 Nov 2026: read it for who is leaving or joining, since a new executive often resets priorities, and check Quantive's roadmap and messaging over the next quarters.",
    );
    expect(byId.get(5)).toBe(
      "Wikidata now names Marcus Oyelaran as Quantive's chief executive, in place of Priya Raman: confirm it in Quantive's own news before you repeat it, and expect a new chief executive to revisit pricing and positioning within a year.",
    );
    expect(byId.get(6)).toBe(
      '"Brightloop 2.0: open-source session replay", a story linking Brightloop\'s site, passed 50 points on Hacker News: read the discussion for the praise and objections buyers may repeat to you.',
    );
    expect(byId.get(7)).toBe(
      'Northwind shipped Northwind Mobile 3.5.0 on the App Store, its notes leading with "Offline mode for field teams": check that your mobile app answers it before buyers compare the two.',
    );
    expect(byId.get(8)).toBe(
      "Quantive told the SEC it completed an acquisition or a sale of assets in a filing on 24 Nov 2026: read it for what changed hands, and watch Quantive's product and pricing pages for what it bought or sold.",
    );
    expect(byId.get(9)).toBe(
      "Quantive told the SEC of a material agreement in a filing on 25 Nov 2026: read it for the other party, and look for a partnership or a large customer in Quantive's next announcements.",
    );
    // Every signal is spoken of once, in one sentence of its own, written as prose.
    expect(out).toHaveLength(OPEN_SOURCES.length);
    expect(new Set(out.map((w) => w.text)).size).toBe(out.length);
    expectProse(out.map((w) => ({ where: `what to watch ${w.signal_ids[0]}`, text: w.text })));
    for (const w of out) {
      expect(sentences(w.text)).toEqual([w.text]);
      expect(w.text).not.toMatch(/0001234567|_|https?:/);
    }
  });

  test("a digest's four items speak of four competitors before a second item of any", () => {
    const out = whatToWatch(OPEN_SOURCES);
    expect(out).toHaveLength(4);
    expect(new Set(out.map((w) => OPEN_SOURCES.find((s) => s.id === w.signal_ids[0])!.competitor)).size).toBe(
      4,
    );
  });

  test("the words of another source never get a source kind's line", () => {
    const said = whatToWatch([
      // A newsroom announcement naming a chief executive is not Wikidata's statement.
      sig(20, {
        ...northwind,
        type: "leadership_change",
        severity: "high",
        title: "Northwind appoints Dana Whitfield as chief executive",
        subject: "Chief Executive Officer",
      }),
      // A GitHub release is a release, not a new major version on npm nor an app on the App Store.
      sig(21, {
        type: "release",
        severity: "medium",
        title: "Globex releases globex-js v4.3.0",
        summary:
          "globex-js v4.3.0 on GitHub: adds a new major version of the export API, now on the App Store",
        subject: "globex-js v4.3.0",
      }),
      // A feature removed from a product page is not a deprecated package.
      sig(22, {
        ...quantive,
        type: "feature_removed",
        severity: "medium",
        title: "Quantive removes Audit log from its features page",
        subject: "Audit log",
      }),
    ]).map((w) => w.text);
    expect(said).toEqual([
      "Northwind has a new Chief Executive Officer: new leaders often change priorities in their first quarters, so check Northwind's messaging again soon.",
      "Globex released globex-js v4.3.0: expect it in Globex's pitch, and check the battlecard's talk tracks against it.",
    ]);
  });

  test("a signal without the facts its line quotes still says something true", () => {
    const out = whatToWatch([
      sig(30, {
        ...northwind,
        type: "rating_drop",
        severity: "medium",
        title: "Northwind's app rating fell",
      }),
      sig(31, { type: "mention", severity: "medium", title: "Globex on Hacker News" }),
    ]).map((w) => w.text);
    expect(out).toEqual([
      "The App Store rating of Northwind's app fell: its recent reviews say what its users dislike, a talk track with buyers whose teams work on their phones.",
      "A story linking Globex's site passed 50 points on Hacker News: read the discussion for the praise and objections buyers may repeat to you.",
    ]);
  });
});
