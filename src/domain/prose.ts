// How sentences a person reads are put together, in one place for the engine, the pages, digests and cards:
// splitting text into sentences (a dot inside a domain, a URL, a decimal or a version, or after an
// abbreviation, ends nothing), possessives, "a" or "an", lists, and a word written twice in a row.

/** Abbreviations after which a dot never ends a sentence (the next word is a name or a continuation). */
const NEVER_ENDS = new Set(
  [
    "e.g",
    "i.e",
    "cf",
    "vs",
    "approx",
    "incl",
    "mr",
    "mrs",
    "ms",
    "dr",
    "prof",
    "st",
    "no",
    "nos",
    "fig",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
  ].map((a) => `${a}.`),
);

// A run of sentence-ending punctuation, closing quotes or brackets after it, then white space or the end.
const END = /[.!?…]+["'”’)\]]*(?=\s|$)/g;

function endsSentence(text: string, at: number, punct: string): boolean {
  const rest = text.slice(at + punct.length);
  const next = /^\s+(\S)/.exec(rest)?.[1];
  if (next === undefined) return true;
  // A sentence starts with a capital, a digit, a quote or a bracket.
  if (!/[\p{Lu}\p{N}"'“‘([]/u.test(next)) return false;
  if (!punct.startsWith(".")) return true;
  const word = /(\S+)$/.exec(text.slice(0, at))?.[1] ?? "";
  const token = `${word.replace(/^["'“‘(]+/, "")}.`.toLowerCase();
  if (NEVER_ENDS.has(token)) return false;
  // An initial ("J. Smith") or a letter-dot abbreviation ("e.g.", "a.m.") inside a name.
  if (/^\p{Lu}$/u.test(word)) {
    // "Series B." or "Plan A." ends a sentence: the letter is a name, not an initial.
    const before = /(\S+)\s+\S+$/.exec(text.slice(0, at))?.[1] ?? "";
    return /^(?:series|plan|tier|round|class|type|phase|stage|option)$/i.test(before);
  }
  if (/^(?:\p{L}\.)+\p{L}$/u.test(word) && !/^(?:U\.S|U\.K|E\.U)$/.test(word)) return false;
  return true;
}

/** The sentences of a text, white space collapsed. */
export function sentences(text: string): string[] {
  const t = text.replace(/\s+/g, " ").trim();
  if (!t) return [];
  const out: string[] = [];
  let start = 0;
  for (const m of t.matchAll(END)) {
    const at = m.index ?? 0;
    if (!endsSentence(t, at, m[0])) continue;
    const s = t.slice(start, at + m[0].length).trim();
    if (s) out.push(s);
    start = at + m[0].length;
  }
  const last = t.slice(start).trim();
  if (last) out.push(last);
  return out;
}

/** The first whole sentences of a text that fit in `max` characters (at least one, clipped with "…" when the
 * first alone is longer). */
export function firstSentences(text: string, max = 320): string {
  const all = sentences(text);
  let out = "";
  for (const s of all) {
    const next = out ? `${out} ${s}` : s;
    if (next.length > max) break;
    out = next;
  }
  if (out) return out;
  const first = all[0] ?? "";
  return first.length > max ? `${first.slice(0, max - 1).replace(/\s+\S*$/, "")}…` : first;
}

/** A sentence ends with its stop: "." added when it has none. */
export function withStop(s: string): string {
  const t = s.trim();
  return !t || /[.!?…]["'”’)]*$/.test(t) ? t : `${t}.`;
}

/** "Globex's", "Quantive Labs'". */
export function possessive(name: string): string {
  const n = name.trim();
  if (/['’]s?$/.test(n)) return n;
  return /s$/i.test(n) ? `${n}'` : `${n}'s`;
}

// Words starting with a vowel letter read with a consonant sound, and with "h" read silently.
const CONSONANT_SOUND = /^(?:uni(?!n)|use|usu|uti|ure|euro|eu|one\b|once\b|ubi|uk\b|u\.)/i;
const SILENT_H = /^(?:hour|honest|honou?r|heir)/i;
// Letters whose names start with a vowel sound ("an SDK", "an HR lead", "an MBA"), read as initials.
const VOWEL_LETTERS = /^[AEFHILMNORSX]/;

/** "a" or "an" for the word that follows it. */
export function article(word: string): "a" | "an" {
  // "$80 million" is read "eighty million dollars"
  const w = word
    .trim()
    .replace(/^["'“‘(]+/, "")
    .replace(/^(?:US\$|[$€£¥₹])/, "");
  if (!w) return "a";
  if (/^\d/.test(w)) return /^(?:8|11|18|8\d|8\d\d)(?!\d)|^8[,\d]/.test(w) ? "an" : "a";
  if (/^[A-Z]{2,}\b/.test(w) && !/^[A-Z][a-z]/.test(w)) return VOWEL_LETTERS.test(w) ? "an" : "a";
  if (SILENT_H.test(w)) return "an";
  if (CONSONANT_SOUND.test(w)) return "a";
  return /^[aeiou]/i.test(w) ? "an" : "a";
}

/** "a Team plan", "an Enterprise plan". */
export function withArticle(phrase: string): string {
  return `${article(phrase)} ${phrase}`;
}

/** Every article of a text made to agree with the word after it: "a"/"an" anywhere, "A"/"An" where a
 * sentence starts (elsewhere a capital A is a name: "Series A", "Plan A"). */
export function fixArticles(text: string): string {
  return text.replace(
    /(^|[.!?]\s+|[^\p{L}\p{N}])(a|an|A|An)(?= (["'“‘(]?[\p{L}\p{N}][\p{L}\p{N}.'-]*))/gu,
    (whole, before: string, a: string, next: string, offset: number) => {
      const capital = a[0] === "A";
      if (capital && !(offset === 0 && before === "") && !/[.!?]\s+$/.test(before)) return whole;
      const want = article(next);
      return `${before}${capital ? want[0].toUpperCase() + want.slice(1) : want}`;
    },
  );
}

/** A word written twice in a row ("its free Free plan", "the the") once: the later one, which is usually the
 * name as the source writes it. */
export function undoubled(text: string): string {
  return text.replace(/\b(\p{L}[\p{L}'-]*)\s+(\1)\b/giu, (_m, _a: string, b: string) => b);
}

/** "A", "A and B", "A, B and C". */
export function listOf(items: readonly string[], last = "and"): string {
  const xs = items.filter((x) => x);
  if (xs.length <= 1) return xs[0] ?? "";
  return `${xs.slice(0, -1).join(", ")} ${last} ${xs[xs.length - 1]}`;
}

/** The first letter upper case. */
export function capitalise(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
