// What compare() and the rotation rule (seen.ts) read off a snapshot's blocks and hero: a block's identity
// line, its members when it is a set, where those members are remembered, how it reads; the hero as compared.
import type { SnapBlock, Snapshot } from "./types.ts";

const S = "\u0001";

/** The block's identity for the line diff and the rotation rule: its type and content, not its section.
 * Built by hand (not serialise): history snapshots hold thousands of blocks. */
export function blockLine(b: SnapBlock): string {
  switch (b.t) {
    case "h":
      return `h${b.level}${S}${b.text}`;
    case "p":
      return `p${S}${b.text}`;
    case "ul":
      return `ul${S}${b.items.join(S)}`;
    case "table":
      return `table${S}${b.head ?? ""}${S}${b.rows.join(S)}`;
    case "card":
      return `card${S}${b.title}${S}${b.items.join(S)}`;
  }
}

export function sectionOf(b: SnapBlock): string | undefined {
  return b.t === "h" ? b.text : b.section;
}

/** The block's members when it is a set (list items, card items, table rows), else null. */
export function membersOf(b: SnapBlock): string[] | null {
  if (b.t === "ul" || b.t === "card") return b.items;
  if (b.t === "table") return b.rows;
  return null;
}

/** Where a set block's members are remembered for the rotation rule: same kind, section and card title. */
export function slotOf(b: SnapBlock): string {
  return `${b.t}|${sectionOf(b) ?? ""}|${b.t === "card" ? b.title : b.t === "table" ? (b.head ?? "") : ""}`;
}

export function displayOf(b: SnapBlock): string {
  switch (b.t) {
    case "h":
    case "p":
      return b.text;
    case "ul":
      return b.items.join(" · ");
    case "table":
      return [b.head, ...b.rows].filter(Boolean).join(" / ");
    case "card":
      return b.items.length ? `${b.title}: ${b.items.join(" · ")}` : b.title;
  }
}

export function heroText(h: Snapshot["hero"]): string | undefined {
  if (!h) return undefined;
  return h.subheadline ? `${h.headline} — ${h.subheadline}` : h.headline;
}

/** The hero as compared: a sub-headline that is one member of a list or card of the same page was picked by
 * position from a set (its order is not a change), so it is left out. */
export function heroOf(s: Snapshot): Snapshot["hero"] {
  const h = s.hero;
  if (!h?.subheadline) return h;
  const sub = h.subheadline;
  const inSet = (s.blocks ?? []).some((b) => (membersOf(b) ?? []).includes(sub));
  return inSet ? { headline: h.headline } : h;
}
