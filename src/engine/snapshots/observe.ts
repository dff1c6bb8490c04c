// What a new snapshot of a source changes against the source's stored history — the comparison step of a check
// (the monitoring cycle records the signals first, then stores the snapshot: cycle/run.ts).
import { compare } from "../compare/compare.ts";
import type { Change, Snapshot } from "../compare/types.ts";
import type { SnapshotStore, SourceRef } from "./store.ts";

export type Comparison =
  /** The same snapshot hash as the latest stored version. */
  | { status: "unchanged" }
  /** No stored version yet: this snapshot is the source's baseline (no changes are reported). */
  | { status: "baseline" }
  | { status: "changed"; previous: Snapshot; changes: Change[] };

/** Compares `snapshot` (hash `hash`) with the history of `history` (the source itself, or the source it
 * follows; none: a baseline). `latestHash` is the source's latest stored hash (from its state, already read by
 * the caller): an unchanged source reads no history at all. */
export async function compareWithHistory(
  store: SnapshotStore,
  history: SourceRef | undefined,
  snapshot: Snapshot,
  hash: string,
  latestHash: string | null | undefined,
): Promise<Comparison> {
  if (latestHash === hash) return { status: "unchanged" };
  if (!history) return { status: "baseline" };
  const { previous, seen } = await store.history(history);
  if (!previous) return { status: "baseline" };
  return {
    status: "changed",
    previous: previous.snapshot,
    changes: compare(previous.snapshot, snapshot, seen),
  };
}
