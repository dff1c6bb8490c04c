// The one sentence splitter and the prose helpers every text of the product uses.
import { expect, test } from "bun:test";
import {
  article,
  firstSentences,
  fixArticles,
  listOf,
  possessive,
  sentences,
  undoubled,
  withStop,
} from "../../src/domain/prose.ts";

test("a dot inside a domain, URL, decimal or version, or after an abbreviation, ends no sentence", () => {
  expect(
    sentences(
      "Quantive published it on its blog page (https://quantive.example/blog). A strategic partnership: see quantive.example/blog for v2.3.1, 3.5x faster at $3,166.67. Acme Inc. announced it, e.g. Foo said so. Mr. Smith and Dr. J. Doe agreed! Sales in the U.S. Then more?",
    ),
  ).toEqual([
    "Quantive published it on its blog page (https://quantive.example/blog).",
    "A strategic partnership: see quantive.example/blog for v2.3.1, 3.5x faster at $3,166.67.",
    "Acme Inc. announced it, e.g. Foo said so.",
    "Mr. Smith and Dr. J. Doe agreed!",
    "Sales in the U.S.",
    "Then more?",
  ]);
  expect(sentences('He said "it ships." Then it did.')).toEqual(['He said "it ships."', "Then it did."]);
  expect(sentences("  ")).toEqual([]);
  // A letter that names a round or a plan ends its sentence; an initial does not.
  expect(
    sentences("Brightloop raises a $40 million Series B. Parcelhub cuts Pro. Ask for Plan A. J. Doe left."),
  ).toEqual([
    "Brightloop raises a $40 million Series B.",
    "Parcelhub cuts Pro.",
    "Ask for Plan A.",
    "J. Doe left.",
  ]);
});

test("firstSentences keeps whole sentences within the limit", () => {
  expect(firstSentences("Visit quantive.example/blog. Then read more of it.", 35)).toBe(
    "Visit quantive.example/blog.",
  );
  expect(firstSentences("One two three four five six.", 12)).toBe("One two…");
  expect(withStop("Done")).toBe("Done.");
  expect(withStop('It said "so."')).toBe('It said "so."');
});

test("possessives, articles, lists and doubled words", () => {
  expect(possessive("Quantive Labs")).toBe("Quantive Labs'");
  expect(possessive("Globex")).toBe("Globex's");
  expect(
    [
      "SDK",
      "Enterprise",
      "hour",
      "user",
      "8-seat",
      "API",
      "Team",
      "MBA",
      "one",
      "$80 million",
      "$40 million",
    ].map(article),
  ).toEqual(["an", "an", "an", "a", "an", "an", "a", "an", "a", "an", "a"]);
  expect(
    fixArticles("Globex adds a Enterprise plan. A API is a SDK; a Series A round. Plan A is an user."),
  ).toBe("Globex adds an Enterprise plan. An API is an SDK; a Series A round. Plan A is a user.");
  expect(undoubled("Brightloop ends its free Free plan")).toBe("Brightloop ends its Free plan");
  expect(listOf(["a", "b", "c"])).toBe("a, b and c");
});
