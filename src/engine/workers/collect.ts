// The one collection rule of a cycle, on the main thread and in the extraction Worker: a full collection once
// the heap has grown past a budget, else a young one (a few ms, against 45-70 ms for a full one) that frees
// what the last piece of work allocated before more of it is promoted (docs/scale.md, "Memory"); and the full one
// alone, after a first snapshot or a changed page (docs/scale.md, "First snapshots", "A changed page's garbage").
import { edenGC } from "bun:jsc";

/** How far past what the last full collection left the heap grows before another one, when that is above the
 * budget: a thread whose live heap outgrew its budget (a profiler's samples, state that grows with the
 * workspaces) would otherwise collect fully after every piece of work, each time freeing little for tens of
 * milliseconds (docs/scale.md, "A changed page's garbage"). */
const STEP_BYTES = 4 * 1024 * 1024;

/** What the rule reads and does: the heap's size, a full and a young collection (a test gives its own). */
export interface Heap {
  used(): number;
  full(): void;
  young(): void;
}

export function collector(heap: Heap) {
  let floor = 0;
  const full = () => {
    heap.full();
    floor = heap.used() + STEP_BYTES;
  };
  const over = (budgetBytes: number) => heap.used() > Math.max(budgetBytes, floor);
  return {
    /** Collects after a piece of work that read page bodies: fully above `budgetBytes` of heap (or above the
     * last full collection's live heap and a step, when that is higher), else the young generation. */
    afterWork(budgetBytes: number): void {
      if (over(budgetBytes)) full();
      else heap.young();
    },
    /** A full collection when the heap has grown past `budgetBytes` (as above), nothing otherwise. */
    above(budgetBytes: number): void {
      if (over(budgetBytes)) full();
    },
  };
}

const thread = collector({
  used: () => process.memoryUsage().heapUsed,
  full: () => Bun.gc(true),
  young: edenGC,
});

export const collectAfterWork = thread.afterWork;
export const collectAbove = thread.above;
