// One vocabulary of categories and types: imported names mapped onto the engine's, one label for every slug.
import { expect, test } from "bun:test";
import { humanTimes } from "../../src/domain/dates.ts";
import { inVocabulary, label, labelInText, TYPES } from "../../src/domain/vocabulary.ts";

test("imported names map onto the engine's vocabulary, a price change's direction read from its own words", () => {
  expect(inVocabulary("pricing", "price_change", ["Globex raises Team plan price by 20%"])).toEqual({
    category: "pricing",
    type: "price_increase",
  });
  expect(inVocabulary("pricing", "price_change", ["Lumen Metrics cuts its entry price to €290"])).toEqual({
    category: "pricing",
    type: "price_decrease",
  });
  // The title is read before the summary: a summary's aside ("annual discount unchanged") does not undo it.
  expect(
    inVocabulary("pricing", "price_change", [
      "Globex raises Team plan price by 20%",
      "The Team plan moved from $49 to $59 per seat per month; annual discount unchanged.",
    ]),
  ).toEqual({ category: "pricing", type: "price_increase" });
  // A title that says neither leaves it to the summary; words that say both leave the direction unsaid.
  expect(
    inVocabulary("pricing", "price_change", ["Team plan pricing", "The price was lowered to $49."]),
  ).toEqual({
    category: "pricing",
    type: "price_decrease",
  });
  expect(inVocabulary("pricing", "price_change", ["Raises one plan, cuts another"])).toEqual({
    category: "pricing",
    type: "price_change",
  });
  expect(inVocabulary("pricing", "price change", ["Prices moved"])).toEqual({
    category: "pricing",
    type: "price_change",
  });
  expect(inVocabulary("product", "integration")).toEqual({ category: "product", type: "integration_added" });
  expect(inVocabulary("funding", "funding_round")).toEqual({ category: "company", type: "funding" });
  expect(inVocabulary("security", "security_incident")).toEqual({
    category: "legal_security",
    type: "security_incident",
  });
  expect(inVocabulary("security", "certification")).toEqual({
    category: "legal_security",
    type: "certification",
  });
  expect(inVocabulary("leadership", "exec_change")).toEqual({
    category: "company",
    type: "leadership_change",
  });
  expect(inVocabulary("corporate", "acquisition")).toEqual({ category: "company", type: "acquisition" });
  expect(inVocabulary("reliability", "outage")).toEqual({ category: "product", type: "outage" });
  expect(inVocabulary("hiring", "job_posting")).toEqual({ category: "hiring", type: "job_posting" });
  expect(inVocabulary(undefined, undefined)).toEqual({});
  // Every type belongs to one of the engine's categories.
  for (const t of Object.values(TYPES)) expect(label(t.category)).not.toContain("_");
});

test("one label for every slug a person reads", () => {
  expect(label("price_increase")).toBe("Price increase");
  expect(label("twice_daily")).toBe("Twice a day");
  expect(label("legal_security")).toBe("Legal and security");
  expect(label("funding_round")).toBe("Funding");
  expect(label("weekly_tldr")).toBe("Weekly TL;DR");
  expect(label("job_posting")).toBe("Job posting");
  expect(labelInText("twice_daily")).toBe("twice a day");
  expect(labelInText("weekly_tldr")).toBe("weekly TL;DR");
  expect(label(undefined)).toBe("");
});

test("ISO times in a text are written as people write them", () => {
  expect(humanTimes("First seen at 2026-11-27T12:00:37.867Z (2026-11-27)")).toBe(
    "First seen at 27 Nov 2026, 12:00 UTC (27 Nov 2026)",
  );
  // Dates with the month in words, in one style whatever the page's.
  expect(
    humanTimes("Posted on Nov 19, 2026; updated November 20, 2026, Sept. 3 2026 and 21 November 2026."),
  ).toBe("Posted on 19 Nov 2026; updated 20 Nov 2026, 3 Sept 2026 and 21 Nov 2026.");
  // Not a day: left as written.
  expect(humanTimes("Nov 31, 2026 and Novelty 12, 2026")).toBe("Nov 31, 2026 and Novelty 12, 2026");
});
