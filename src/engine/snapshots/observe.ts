// One check of one source, end to end: compare the new snapshot with the source's stored history, then store
// it (an unchanged source adds nothing). The monitoring cycle does the same in steps (cycle/run.ts: the signals
// of all a competitor's sources are recorded before their snapshots).
import { compare } from "../compare/compare.ts";
import { snapshotHash } from "../compare/normalise.ts";
import type { Change, Snapshot } from "../compare/types.ts";
import type { PutInput, PutResult, SnapshotStore, SnapshotVersion } from "./store.ts";

export interface Observation {
  /** No earlier version: this snapshot is the source's baseline (no changes are reported). */
  first: boolean;
  changed: boolean;
  changes: Change[];
  /** The version compared against (the latest before this check); null when unchanged or first. */
  previous: SnapshotVersion | null;
  put: PutResult;
}

export async function observe(store: SnapshotStore, input: PutInput): Promise<Observation> {
  const hash = snapshotHash(input.snapshot);
  // Unchanged (the common case): one indexed row read, no history decompressed, no comparison.
  const source = await store.source(input);
  if (source?.latestHash === hash) {
    const put = await store.put(input);
    return { first: false, changed: put.changed, changes: [], previous: null, put };
  }
  const { previous, seen } = await store.history(input);
  const changes: Change[] =
    previous && previous.hash !== hash ? compare(previous.snapshot, input.snapshot, seen) : [];
  const put = await store.put(input);
  return { first: previous === null, changed: put.changed, changes, previous, put };
}

export type { Snapshot };
