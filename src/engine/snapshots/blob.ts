// A snapshot as the store keeps it: its serialised content's hash, that content zstd-compressed, and the
// rotation rule's digest of it (compare/seen.ts). Made where the snapshot is made (the extraction Worker for a
// page), so a cycle holds a changed source's few compressed kilobytes until it records them, not its snapshot.
import { serialise, snapshotHash } from "../compare/normalise.ts";
import { digestBytes, digestOf } from "../compare/seen.ts";
import type { Snapshot } from "../compare/types.ts";

export const CODEC = "zstd";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function compress(serialised: string): Uint8Array {
  return Bun.zstdCompressSync(encoder.encode(serialised));
}

export function decompress(codec: string, data: ArrayBuffer | Uint8Array): string {
  const bytes = new Uint8Array(data instanceof Uint8Array ? data : new Uint8Array(data));
  const raw = codec === "gzip" ? Bun.gunzipSync(bytes) : Bun.zstdDecompressSync(bytes);
  return decoder.decode(raw);
}

export interface PreparedSnapshot {
  hash: string;
  /** The serialised content's length (snapshot_blobs.size). */
  size: number;
  data: Uint8Array;
  seen: Uint8Array;
}

/** The snapshot as stored; its serialisation and hash when the caller has them already. */
export function prepareSnapshot(
  snapshot: Snapshot,
  serialised = serialise(snapshot),
  hash = snapshotHash(serialised),
): PreparedSnapshot {
  return {
    hash,
    size: serialised.length,
    data: compress(serialised),
    seen: digestBytes(digestOf(snapshot)),
  };
}
