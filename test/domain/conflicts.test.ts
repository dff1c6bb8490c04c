// Facts that disagree: one funding round reported at two amounts is a conflict, read from each signal's words.
import { expect, test } from "bun:test";
import { conflictsOf, roundClaim, roundConflicts } from "../../src/domain/conflicts.ts";

test("a round and its amount are read from a signal's words", () => {
  expect(roundClaim("Brightloop raises a $32M Series B")).toEqual({
    round: "Series B",
    amount: 32e6,
    currency: "USD",
  });
  expect(roundClaim("Brightloop raises funding: Series B $40 million")).toEqual({
    round: "Series B",
    amount: 40e6,
    currency: "USD",
  });
  expect(roundClaim("Tally HQ announces a pre-seed round of €1.5 million")?.round).toBe("Pre-seed");
  expect(roundClaim("Tally HQ announces a pre-seed round from angel investors")).toBeUndefined();
});

test("the same round at another amount conflicts; the same amount or another round does not", () => {
  const engine = { id: 2, title: "Brightloop raises funding: Series B $40 million" };
  const imported = {
    id: 1,
    title: "Brightloop raises a $32M Series B",
    first_seen_at: "2026-11-14T09:00:00Z",
  };
  expect(conflictsOf(engine, [engine, imported])).toEqual([
    { signal: imported, round: "Series B", says: "$40 million", other: "$32 million" },
  ]);
  expect(conflictsOf(engine, [{ id: 3, title: "Brightloop closes its $40 million Series B" }])).toEqual([]);
  expect(conflictsOf(engine, [{ id: 4, title: "Brightloop raised a $5M Seed in 2024" }])).toEqual([]);
});

test("the dossier's round conflicts: a signal sizing a round otherwise than the read or another signal", () => {
  const read = {
    round: "Series B",
    amount_text: "$40 million",
    amount: 40e6,
    currency: "USD",
    text: "Brightloop raises $40 million Series B.",
    source: "https://brightloop.example/blog/series-b/",
    date: "2026-11",
  };
  const imported = { id: 1, title: "Brightloop raises a $32M Series B" };
  const engine = { id: 2, title: "Brightloop raises funding: Series B $40 million" };
  expect(roundConflicts([], [read], [engine, imported])).toEqual([
    {
      round: "Series B",
      text: "Sources disagree on the size of the Series B: $40 million or $32 million.",
      claims: [
        {
          amount_text: "$40 million",
          amount: 40e6,
          currency: "USD",
          text: read.text,
          source: read.source,
        },
        {
          amount_text: "$32 million",
          amount: 32e6,
          currency: "USD",
          text: imported.title,
          signal_id: 1,
        },
      ],
    },
  ]);
  // Agreeing sources, or one source alone, are no conflict.
  expect(roundConflicts([], [read], [engine])).toEqual([]);
  expect(roundConflicts([], [], [imported])).toEqual([]);
  // Two signals disagree without a read; a recorded conflict keeps its claims and is not repeated.
  const two = roundConflicts([], [], [imported, engine]);
  expect(two.map((c) => c.text)).toEqual([
    "Sources disagree on the size of the Series B: $32 million or $40 million.",
  ]);
  expect(roundConflicts(two, [read], [imported, engine])).toEqual(two);
});
