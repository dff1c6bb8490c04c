// Signals of the open sources on a battlecard: a rating drop is a weakness with a talk track; a Hacker News
// story, a filing and a new repository are no move of their own (a story's title saying "raises $40M" is not a
// funding round).
import { expect, test } from "bun:test";
import type { CompetitorRecord } from "../../src/domain/records.ts";
import { signalFact } from "../../src/engine/battlecardFacts.ts";

const c = { name: "Northwind" } as CompetitorRecord;
const at = "2026-11-20T12:00:00.000Z";

test("a rating drop is a weakness with a talk track that states the figures", () => {
  const f = signalFact(
    {
      id: 1,
      title: "Northwind Renewals' App Store rating fell from 4.6 to 4.1",
      category: "product",
      type: "rating_drop",
      severity: "medium",
      first_seen_at: at,
      subject: "Northwind Renewals",
      evidence: [
        {
          text: "Northwind Renewals: average rating 4.6 → 4.1",
          source_url: "https://apps.apple.com/app/id6449012345",
        },
      ],
    },
    c,
  );
  expect(f.stance).toBe("weakness");
  expect(f.talk).toContain("since the rating fell from 4.6 to 4.1 stars");
});

test("a Hacker News story, a filing and a new repository are neutral, never a funding round", () => {
  for (const [type, title] of [
    ["mention", 'Northwind on Hacker News: "Northwind raises $40M to fix renewals"'],
    ["filing", "Northwind files its annual report (10-K)"],
    ["open_source", "Northwind publishes a new public repository on GitHub: northwind/renewals-sdk"],
  ] as const) {
    const f = signalFact(
      { id: 2, title, category: "company", type, first_seen_at: at, evidence: [{ text: title }] },
      c,
    );
    expect([type, f.stance, f.kind]).toEqual([type, "neutral", "other"]);
  }
});

test("a deprecated package is said deprecated, not removed", () => {
  const f = signalFact(
    {
      id: 3,
      title: "Northwind deprecates its npm package northwind-legacy",
      category: "product",
      type: "feature_removed",
      severity: "medium",
      first_seen_at: at,
      subject: "northwind-legacy",
      evidence: [
        { text: "northwind-legacy deprecated", source_url: "https://www.npmjs.com/package/northwind-legacy" },
      ],
    },
    c,
  );
  expect(f.point).toBe("Deprecated northwind-legacy (seen 20 Nov 2026).");
  expect(f.landmine).toBe(
    "Ask whether the buyer relies on northwind-legacy: Northwind deprecated it (seen 20 Nov 2026).",
  );
});
