// The one collection rule of a cycle, on the main thread and in the extraction Worker: a full collection once
// the heap has grown past a budget, else a young one (a few ms, against 100-500 ms for a full one) that frees
// what the last piece of work allocated before more of it is promoted (docs/scale.md, "Memory"); and the full one
// alone, after a first snapshot or a changed page (docs/scale.md, "First snapshots", "A changed page's garbage").
import { edenGC } from "bun:jsc";

/** Collects after a piece of work that read page bodies: fully above `budgetBytes` of heap, else the young
 * generation. */
export function collectAfterWork(budgetBytes: number): void {
  if (process.memoryUsage().heapUsed > budgetBytes) Bun.gc(true);
  else edenGC();
}

/** A full collection when the heap has grown past `budgetBytes`, nothing otherwise. */
export function collectAbove(budgetBytes: number): void {
  if (process.memoryUsage().heapUsed > budgetBytes) Bun.gc(true);
}
