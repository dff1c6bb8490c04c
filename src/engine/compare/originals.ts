// The page's own words back in a text built from masked snapshots: each masking placeholder (⟨date⟩, ⟨ago⟩ …)
// of a signal's title, summary or evidence is replaced by what the page wrote there. The texts a
// normalisation masked (normalise.ts withOriginals) say what each placeholder stood for; the one whose masked
// text shares the most words around the placeholder is the one quoted. A placeholder nothing accounts for
// (a text of an earlier version, whose page is gone) is left out with its separator.
import type { Originals } from "./normalise.ts";
import type { Snapshot } from "./types.ts";

const PLACEHOLDER = /⟨[a-z]+⟩/g;

// A snapshot's originals travel beside it, not in it (its serialisation and hash are the page's identity).
const bySnapshot = new WeakMap<Snapshot, Originals>();

/** Keeps the texts a snapshot's normalisation masked with the snapshot. */
export function keepOriginals(snapshot: Snapshot, originals: Originals): void {
  if (originals.length) bySnapshot.set(snapshot, originals);
}

/** The texts a snapshot's normalisation masked, as the page wrote them (none when unknown). */
export function originalsOf(snapshot: Snapshot | undefined): Originals | undefined {
  return snapshot ? bySnapshot.get(snapshot) : undefined;
}

// Module-level patterns: a regular expression literal in a function body is a new RegExp object on each call.
const SPECIAL = /[.*+?^${}()|[\]\\]/g;
const SPACES = /\s+/g;
const literal = (s: string) => s.replace(SPECIAL, "\\$&");

/** The values of a masked text's placeholders, read from the text it was masked from; undefined when the
 * two do not line up. */
function valuesOf(masked: string, original: string): string[] | undefined {
  const parts = masked.split(PLACEHOLDER).map(literal);
  const re = new RegExp(`^${parts.join("(.+?)")}$`, "s");
  const m = re.exec(original);
  return m ? m.slice(1) : undefined;
}

const commonSuffix = (a: string, b: string) => {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
};
const commonPrefix = (a: string, b: string) => {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
};

/** True when a text holds the (unmasked part of the) neighbouring text. */
function near(text: string, neighbour: string | undefined): boolean {
  if (!neighbour) return false;
  const plain = neighbour.replace(PLACEHOLDER, " ").replace(SPACES, " ").trim();
  return plain.length >= 4 && text.includes(plain.slice(0, 80));
}

const PLACEHOLDER_AFTER_WORD = /\s+(?:on|at|since|from|in)\s+⟨[a-z]+⟩/g;
const PLACEHOLDER_AFTER_SEPARATOR = /\s*[·|—–-]\s*⟨[a-z]+⟩(?=\s*(?:[·|—–]|$|\)))/g;
const PLACEHOLDER_AND_SEPARATOR = /⟨[a-z]+⟩\s*[·|—–,:-]?\s*/g;
const EMPTY_PARENTHESES = /\(\s*\)/g;
const SPACE_BEFORE_PUNCTUATION = /\s+([.,;:)])/g;
const DANGLING_PUNCTUATION = /[,;:]+(?=\s*(?:[.!?]|$))/g;

/** Placeholders left out, with the separator that joined them ("… · ⟨date⟩ · Maya Chen" → "… · Maya Chen"). */
export function withoutPlaceholders(text: string): string {
  return text
    .replace(PLACEHOLDER_AFTER_WORD, "")
    .replace(PLACEHOLDER_AFTER_SEPARATOR, "")
    .replace(PLACEHOLDER_AND_SEPARATOR, "")
    .replace(EMPTY_PARENTHESES, "")
    .replace(SPACE_BEFORE_PUNCTUATION, "$1")
    .replace(DANGLING_PUNCTUATION, "")
    .replace(SPACES, " ")
    .trim();
}

/** `text` with every placeholder replaced by the page's words (see the top of the file). */
export function quoted(text: string, originals: Originals | undefined): string {
  if (!text.includes("⟨")) return text;
  const pairs = (originals ?? []).map((x) => ({ ...x, values: undefined as string[] | undefined }));
  const out: string[] = [];
  const marks = [...text.matchAll(PLACEHOLDER)];
  let last = 0;
  for (const [i, mark] of marks.entries()) {
    const at = mark.index ?? 0;
    const left = text.slice(last, at);
    const rightEnd = marks[i + 1]?.index ?? text.length;
    const right = text.slice(at + mark[0].length, rightEnd);
    out.push(left);
    let best: { value: string; score: number } | undefined;
    for (const p of pairs) {
      let from = p.m.indexOf(mark[0]);
      while (from >= 0) {
        // Context on both sides; a placeholder standing alone (the date line of a post) scores its closeness
        // to the rest of the text instead.
        const score =
          commonSuffix(left, p.m.slice(0, from)) +
          commonPrefix(right, p.m.slice(from + mark[0].length)) +
          (near(left, p.before) || near(right, p.after)
            ? 1 + Math.min(40, (p.before ?? p.after ?? "").length)
            : 0);
        if (!best || score > best.score) {
          p.values ??= valuesOf(p.m, p.o) ?? [];
          const nth = (p.m.slice(0, from).match(PLACEHOLDER) ?? []).length;
          const value = p.values[nth];
          if (value !== undefined && score > 0) best = { value, score };
        }
        from = p.m.indexOf(mark[0], from + 1);
      }
    }
    out.push(best ? best.value : mark[0]);
    last = at + mark[0].length;
  }
  out.push(text.slice(last));
  return withoutPlaceholders(out.join(""));
}
