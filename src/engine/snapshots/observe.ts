// What a new snapshot of a source changes against the source's stored history, classified: the comparison and
// classification steps of a check. A page's run in the extraction Worker that made its snapshot (which asks the
// main thread for the history's stored bytes); another kind's on the main thread. The monitoring cycle records
// the signals first, then stores the snapshot (cycle/run.ts).
import { classify } from "../classify/classify.ts";
import type { SignalDraft } from "../classify/types.ts";
import { compare } from "../compare/compare.ts";
import type { Originals } from "../compare/normalise.ts";
import { digestFromBytes, digestOf, Seen } from "../compare/seen.ts";
import type { Snapshot } from "../compare/types.ts";
import type { ClassifyAs } from "../sources/kinds/kind.ts";
import { decompress } from "./blob.ts";
import type { SnapshotStore, SourceRef } from "./store.ts";

/** A source's kept versions as stored, newest first: each one's digest (compare/seen.ts), and its compressed
 * content where it is read (the newest, and one stored without a digest). */
export interface StoredHistory {
  versions: { codec: string; seen: ArrayBuffer | null; data: ArrayBuffer | null }[];
}

/** The latest version of a stored history, parsed, and what every kept version showed. */
export function readHistory(h: StoredHistory): { previous: Snapshot | null; seen: Seen } {
  const parse = (v: StoredHistory["versions"][number]): Snapshot => {
    if (!v.data) throw new Error("a stored version came without its content");
    return JSON.parse(decompress(v.codec, v.data)) as Snapshot;
  };
  const newest = h.versions[0];
  const previous = newest ? parse(newest) : null;
  const seen = new Seen();
  h.versions.forEach((v, i) => {
    if (v.seen) seen.add(digestFromBytes(v.seen));
    else seen.add(digestOf(i === 0 && previous ? previous : parse(v)));
  });
  return { previous, seen };
}

/** Who and when a change is classified for, and how its source is read (sources/kinds classifyAsOf). */
export interface DraftContext extends ClassifyAs {
  competitor: { id: number; name: string };
  observedAt: string;
}

/** The signal drafts of what `snapshot` changes against the history (its originals: what masking replaced). */
export function draftsOf(
  previous: Snapshot,
  seen: Seen,
  snapshot: Snapshot,
  ctx: DraftContext,
  originals?: Originals,
): SignalDraft[] {
  const changes = compare(previous, snapshot, seen);
  if (changes.length === 0) return [];
  return classify(changes, {
    ...ctx,
    pageTitle: snapshot.title,
    previous,
    snapshot,
    ...(originals?.length ? { originals } : {}),
  });
}

export type Comparison =
  /** The same snapshot hash as the latest stored version. */
  | { status: "unchanged" }
  /** No stored version yet: this snapshot is the source's baseline (no changes are reported). */
  | { status: "baseline" }
  | { status: "changed"; drafts: SignalDraft[] };

/** Compares `snapshot` (hash `hash`) with the history of `history` (the source itself, or the source it
 * follows; none: a baseline) and classifies what changed. `latestHash` is the source's latest stored hash (from
 * its state, already read by the caller): an unchanged source reads no history at all. */
export async function compareWithHistory(
  store: SnapshotStore,
  history: SourceRef | undefined,
  snapshot: Snapshot,
  hash: string,
  latestHash: string | null | undefined,
  ctx: DraftContext,
): Promise<Comparison> {
  if (latestHash === hash) return { status: "unchanged" };
  if (!history) return { status: "baseline" };
  const { previous, seen } = readHistory(await store.storedHistory(history));
  if (!previous) return { status: "baseline" };
  return { status: "changed", drafts: draftsOf(previous, seen, snapshot, ctx) };
}
