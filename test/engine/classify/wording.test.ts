// What every signal title and summary goes through: the page's words where the comparison masked them, no link
// trailing a summary, the company's possessive, no doubled word, a/an agreeing — and the page's quoted words
// left as the page wrote them.
import { expect, test } from "bun:test";
import { clip, readable, withMonthly } from "../../../src/engine/classify/wording.ts";

test("our words are corrected, the page's quoted words are not", () => {
  expect(
    readable(
      'Globex published "Vamos a Europa that that" on its blog page (https://globex.example/blog). Brightloop ends its free Free plan, a Enterprise plan',
      "Globex",
      undefined,
      { summary: true },
    ),
  ).toBe(
    'Globex published "Vamos a Europa that that" on its blog page. Brightloop ends its Free plan, an Enterprise plan',
  );
  expect(readable("Quantive Labs's Growth plan", "Quantive Labs")).toBe("Quantive Labs' Growth plan");
  expect(readable("Seen 2026-11-27T12:00:37.867Z, on ⟨date⟩", "Globex")).toBe("Seen 27 Nov 2026, 12:00 UTC");
});

test("a clipped quote ends at a word; a yearly-only price is stated as the page states it, its monthly equivalent labelled", () => {
  expect(clip("See exactly where users struggle in one privacy-first tool for web and mobile apps", 60)).toBe(
    "See exactly where users struggle in one privacy-first tool…",
  );
  expect(withMonthly({ price: 3166.67, amount: 38000, period: "year", currency: "USD" })).toBe(
    "$38,000 a year ($3,166.67 a month, billed yearly)",
  );
  expect(withMonthly({ price: 59, currency: "USD", unit: "seat" })).toBe("$59 per seat/month");
});
