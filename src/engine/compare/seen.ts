// What a source showed in its earlier versions, for the rotation rule (a value already shown is not a change):
// only the values compare() asks about, folded one version at a time. A cycle reads a changed source's kept
// versions (up to RIVALS_SNAPSHOTS_KEPT, each thousands of blocks) through this, so it never holds more than
// one of them whole (docs/engine.md, cycle "Memory").
import { blockLine, heroOf, heroText, membersOf, slotOf } from "./blocks.ts";
import type { Snapshot } from "./types.ts";

export interface Seen {
  /** Feed items: `id:<id>` and `url:<url>`. */
  items: Set<string>;
  titles: Set<string>;
  /** Meta values by meta key. */
  meta: Map<string, Set<string>>;
  /** The hero as compared (heroOf), as one text; its headlines; its sub-headlines. */
  heroes: Set<string>;
  headlines: Set<string>;
  subheadlines: Set<string>;
  /** Some version had no sub-headline as compared (or no hero). */
  noSubheadline: boolean;
  /** Block lines (blockLine). */
  lines: Set<string>;
  /** Set members (list items, card items, table rows) by slot (slotOf). */
  members: Map<string, Set<string>>;
}

export function emptySeen(): Seen {
  return {
    items: new Set(),
    titles: new Set(),
    meta: new Map(),
    heroes: new Set(),
    headlines: new Set(),
    subheadlines: new Set(),
    noSubheadline: false,
    lines: new Set(),
    members: new Map(),
  };
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
}

/** Adds what one version showed. */
export function addSeen(seen: Seen, s: Snapshot): Seen {
  for (const i of s.items ?? []) {
    seen.items.add(`id:${i.id}`);
    if (i.url) seen.items.add(`url:${i.url}`);
  }
  if (s.title !== undefined) seen.titles.add(s.title);
  for (const [k, v] of Object.entries(s.meta ?? {})) addTo(seen.meta, k, v);
  const hero = heroOf(s);
  const text = heroText(hero);
  if (text !== undefined) seen.heroes.add(text);
  if (s.hero?.headline !== undefined) seen.headlines.add(s.hero.headline);
  if (hero?.subheadline === undefined) seen.noSubheadline = true;
  else seen.subheadlines.add(hero.subheadline);
  for (const b of s.blocks ?? []) {
    seen.lines.add(blockLine(b));
    const ms = membersOf(b);
    if (!ms) continue;
    const slot = slotOf(b);
    for (const m of ms) addTo(seen.members, slot, m);
  }
  return seen;
}

export function seenOf(snaps: Snapshot[]): Seen {
  const seen = emptySeen();
  for (const s of snaps) addSeen(seen, s);
  return seen;
}
