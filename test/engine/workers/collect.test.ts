// The collection rule on a heap whose size the test sets: a full collection past the budget, a young one
// below it, and no full collection after every piece of work when the live heap itself is above the budget.
import { expect, test } from "bun:test";
import { collector } from "../../../src/engine/workers/collect.ts";

const MB = 1024 * 1024;

/** A heap of `live` MB that each piece of work grows by `garbage` MB; a full collection frees the garbage. */
function fakeHeap(live: number, garbage: number) {
  let size = live * MB;
  const done: string[] = [];
  return {
    heap: {
      used: () => size,
      full: () => {
        size = live * MB;
        done.push("full");
      },
      young: () => {
        done.push("young");
      },
    },
    work: () => {
      size += garbage * MB;
    },
    done,
  };
}

test("past the budget a full collection, below it a young one; above() collects fully or not at all", () => {
  const h = fakeHeap(10, 3);
  const c = collector(h.heap);
  for (let i = 0; i < 6; i++) {
    h.work();
    c.afterWork(16 * MB);
  }
  // 13, 16 (not past), 19 → full (back to 10), 13, 16, 19 → full
  expect(h.done).toEqual(["young", "young", "full", "young", "young", "full"]);
  const a = fakeHeap(10, 3);
  const ca = collector(a.heap);
  for (let i = 0; i < 3; i++) {
    a.work();
    ca.above(16 * MB);
  }
  expect(a.done).toEqual(["full"]);
});

test("a live heap above the budget is collected again only once it has grown by a step, not after every piece of work", () => {
  const h = fakeHeap(50, 1);
  const c = collector(h.heap);
  for (let i = 0; i < 20; i++) {
    h.work();
    c.above(40 * MB);
  }
  // the first collection finds 50 MB live; each next one waits until the heap is past 54 MB (five pieces of work)
  expect(h.done.length).toBe(4);
});
