// Word diffs of two versions of a text, cut to the changed words with a little context:
// `Team plan $[-49][+59] per seat/month`.
import { diffWords } from "diff";
import type { DiffPart } from "./types.ts";

/** Words of context kept on each side of a change. */
const CONTEXT_WORDS = 8;

/** Word diff; past 200 ms (two unrelated long texts) the whole old text is removed and the new one added. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const parts = diffWords(before, after, { timeout: 200 });
  if (!parts)
    return [
      { op: "-", text: before },
      { op: "+", text: after },
    ];
  return parts.map((p) => ({
    op: p.added ? "+" : p.removed ? "-" : "=",
    text: p.value,
  }));
}

// Module-level patterns: a regular expression literal in a function body is a new RegExp object on each call.
const LEADING_SPACE_WORDS = /\s*\S+/g;
const WORDS_TRAILING_SPACE = /\S+\s*/g;
const WORDS = /\S+/g;
const DOUBLE_ELLIPSIS = /… …/;
const THOUSANDS = /(\d)[,.\u202F\u00A0 ](?=\d{3}(?!\d))/g;
const ZERO_DECIMALS = /(\d)\.0+(?!\d)/g;
const WORD_OR_NUMBER = /[\p{L}\p{N}]+/gu;

function headWords(s: string, n: number): string {
  const words = s.match(LEADING_SPACE_WORDS) ?? [];
  if (words.length <= n) return s;
  return `${words.slice(0, n).join("")} …`;
}

function tailWords(s: string, n: number): string {
  const words = s.match(WORDS_TRAILING_SPACE) ?? [];
  if (words.length <= n) return s;
  return `… ${words.slice(-n).join("")}`;
}

/** The parts cut to the changes and CONTEXT_WORDS words around each; long unchanged stretches become "…". */
export function excerptParts(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  parts.forEach((p, i) => {
    if (p.op !== "=") {
      out.push(p);
      return;
    }
    const first = i === 0;
    const last = i === parts.length - 1;
    if (first && last) out.push(p);
    else if (first) out.push({ op: "=", text: tailWords(p.text, CONTEXT_WORDS) });
    else if (last) out.push({ op: "=", text: headWords(p.text, CONTEXT_WORDS) });
    else {
      const words = p.text.match(WORDS) ?? [];
      if (words.length <= CONTEXT_WORDS * 2) out.push(p);
      else
        out.push({
          op: "=",
          text: `${headWords(p.text, CONTEXT_WORDS)} ${tailWords(p.text, CONTEXT_WORDS)}`.replace(
            DOUBLE_ELLIPSIS,
            "…",
          ),
        });
    }
  });
  return out;
}

/** `[-old][+new]` marking. */
export function markParts(parts: DiffPart[]): string {
  return parts
    .map((p) => (p.op === "=" ? p.text : p.op === "-" ? `[-${p.text}]` : `[+${p.text}]`))
    .join("")
    .trim();
}

/** Text cut to about `max` characters around position `at`. */
export function around(text: string, at: number, max = 240): string {
  if (text.length <= max) return text;
  const start = Math.max(0, Math.min(at - max / 2, text.length - max));
  const cut = text.slice(start, start + max);
  return `${start > 0 ? "… " : ""}${cut.trim()}${start + max < text.length ? " …" : ""}`;
}

/** Lower-cased words and numbers of a text (for overlap and coverage checks). */
export function tokens(s: string): string[] {
  // "1,299" and "1299" are one number
  return (
    s
      .toLowerCase()
      .replace(THOUSANDS, "$1")
      .replace(ZERO_DECIMALS, "$1") // "59.00" (JSON-LD) is 59
      .match(WORD_OR_NUMBER) ?? []
  );
}

/** Jaccard similarity of the word sets. */
export function similarity(a: string, b: string): number {
  const x = new Set(tokens(a));
  const y = new Set(tokens(b));
  if (x.size === 0 && y.size === 0) return 1;
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  return both / (x.size + y.size - both);
}
