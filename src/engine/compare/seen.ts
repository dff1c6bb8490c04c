// What a source showed in its earlier versions, for the rotation rule (a value already shown is not a change).
// Each version is reduced to a digest: the 53-bit hashes of exactly the values compare() asks about (block
// lines, set members by slot, titles, meta values, heroes, feed items), sorted. The store keeps each version's
// digest beside its blob (snapshot_blobs.seen), so a cycle reads the kept versions' digests instead of parsing
// every one of them (each thousands of blocks): a changed page's cost no longer grows with its history
// (docs/engine.md, cycle "Speed"). A value is "seen" when its hash is in any digest; two different values share
// a 53-bit hash with odds of about one in 10^12 per question at this size.
import { blockLine, heroOf, heroText, membersOf, slotOf } from "./blocks.ts";
import type { Snapshot } from "./types.ts";

const SEP = "\u0000";

/** A 53-bit hash (exact in a double) of one question's text: two 32-bit xxHash seeds, 21 + 32 bits. */
function hash53(text: string): number {
  return (Bun.hash.xxHash32(text, 0x9e37) & 0x1fffff) * 4294967296 + Bun.hash.xxHash32(text, 0x85eb);
}

/** The questions compare() asks of the history, as keys. */
export const seenKey = {
  item: (k: string) => hash53(`i${SEP}${k}`),
  title: (t: string) => hash53(`t${SEP}${t}`),
  meta: (k: string, v: string) => hash53(`m${SEP}${k}${SEP}${v}`),
  hero: (text: string) => hash53(`h${SEP}${text}`),
  headline: (h: string) => hash53(`hl${SEP}${h}`),
  /** A sub-headline as compared (heroOf), or none. */
  subheadline: (s: string | undefined) => hash53(s === undefined ? "hs-none" : `hs${SEP}${s}`),
  line: (l: string) => hash53(`l${SEP}${l}`),
  member: (slot: string, m: string) => hash53(`s${SEP}${slot}${SEP}${m}`),
};

/** The sorted, distinct keys of everything one version showed. */
export function digestOf(s: Snapshot): Float64Array {
  const keys = new Set<number>();
  for (const i of s.items ?? []) {
    keys.add(seenKey.item(`id:${i.id}`));
    if (i.url) keys.add(seenKey.item(`url:${i.url}`));
  }
  if (s.title !== undefined) keys.add(seenKey.title(s.title));
  for (const [k, v] of Object.entries(s.meta ?? {})) keys.add(seenKey.meta(k, v));
  const hero = heroOf(s);
  const text = heroText(hero);
  if (text !== undefined) keys.add(seenKey.hero(text));
  if (s.hero?.headline !== undefined) keys.add(seenKey.headline(s.hero.headline));
  keys.add(seenKey.subheadline(hero?.subheadline));
  for (const b of s.blocks ?? []) {
    keys.add(seenKey.line(blockLine(b)));
    const ms = membersOf(b);
    if (!ms) continue;
    const slot = slotOf(b);
    for (const m of ms) keys.add(seenKey.member(slot, m));
  }
  return Float64Array.from(keys).sort();
}

/** A digest as stored (its bytes), and back. */
export function digestBytes(d: Float64Array): Uint8Array {
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

/** A stored digest (libSQL gives a BLOB as an ArrayBuffer of its own). */
export function digestFromBytes(bytes: ArrayBuffer): Float64Array {
  return new Float64Array(bytes, 0, Math.floor(bytes.byteLength / 8));
}

function contains(d: Float64Array, key: number): boolean {
  let lo = 0;
  let hi = d.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = d[mid];
    if (v === key) return true;
    if (v < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The digests of a source's earlier versions. */
export class Seen {
  private digests: Float64Array[] = [];

  add(d: Float64Array): this {
    this.digests.push(d);
    return this;
  }

  /** Whether any earlier version showed this key (seenKey). */
  has(key: number): boolean {
    for (const d of this.digests) if (contains(d, key)) return true;
    return false;
  }
}

export function seenOf(snaps: Snapshot[]): Seen {
  const seen = new Seen();
  for (const s of snaps) seen.add(digestOf(s));
  return seen;
}
