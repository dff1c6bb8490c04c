// The collection rule on a heap whose size the test sets: a full collection past the budget, a young one
// below it, and no full collection after every piece of work when the live heap itself is above the budget.
import { expect, test } from "bun:test";
import { collector } from "../../../src/engine/workers/collect.ts";

const MB = 1024 * 1024;

/** A heap of `live` MB that each of `times` pieces of work grows by `garbage` MB (a full collection frees the
 * garbage), each piece followed by `collect` on the rule made for it: the collections done, in order. */
function run(
  live: number,
  garbage: number,
  times: number,
  collect: (c: ReturnType<typeof collector>) => void,
): string[] {
  let size = live * MB;
  const done: string[] = [];
  const c = collector({
    used: () => size,
    full: () => {
      size = live * MB;
      done.push("full");
    },
    young: () => {
      done.push("young");
    },
  });
  for (let i = 0; i < times; i++) {
    size += garbage * MB;
    collect(c);
  }
  return done;
}

test("past the budget a full collection, below it a young one; above() collects fully or not at all", () => {
  // 13, 16 (not past), 19 → full (back to 10), 13, 16, 19 → full
  const after = run(10, 3, 6, (c) => c.afterWork(16 * MB));
  expect(after).toEqual(["young", "young", "full", "young", "young", "full"]);
  expect(run(10, 3, 3, (c) => c.above(16 * MB))).toEqual(["full"]);
});

test("a live heap above the budget is collected again only once it has grown by a step, not after every piece of work", () => {
  // the first collection finds 50 MB live; each next one waits until the heap is past 54 MB (five pieces of work)
  expect(run(50, 1, 20, (c) => c.above(40 * MB))).toHaveLength(4);
});
