// Reads a text a person reads (a signal's title, summary or evidence, a digest, a battlecard, an email, a page,
// a tool's answer) and lists what is wrong with it as prose: the comparison's masking placeholders, a
// sentence cut at the dot of a domain, a word written twice, "Labs's", "a" before a vowel sound, a raw slug,
// an ISO timestamp, a bare URL trailing a summary. `expectProse` fails a test with every problem found.
import { expect } from "bun:test";
import { article } from "../../src/domain/prose.ts";

export interface ProseOptions {
  /** A summary: a trailing bare URL is a problem (links belong in the evidence, rendered as links). */
  summary?: boolean;
  /** Slugs allowed in this text (a product name written with an underscore, say). */
  allowSlugs?: string[];
}

const URL_RE = /\bhttps?:\/\/[^\s"'<>()]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\/[^\s"'<>()]*/gi;
// A top-level domain or its path left at the start of a text or after a separator: what is left of a domain
// after a sentence was cut at its dot ("— example/blog).").
const CUT_DOMAIN =
  /(?:^|[\s(—–·:;,"“])(?:example|com|io|org|net|co|dev|app|ai|de|fr|uk)(?:\/[^\s]*|\)\.?)(?=\s|$)/i;
// On one line: a page's separate blocks (a heading and the cell under it) are not one sentence.
const DOUBLED = /\b(\p{L}[\p{L}'’-]*)[ \t]+\1\b/giu;
const DOUBLED_OK = new Set(["that", "had", "is", "bye", "ha", "no", "so", "very", "well"]);
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ISO_DATE = /(?<![\w/.-])\d{4}-\d{2}-\d{2}(?![\w/])/;
const SLUG = /(?<![\w./@#?&=-])[a-z]+(?:_[a-z0-9]+)+(?![\w./-])/g;

/** What is wrong with a text as prose ([] when nothing is). */
export function proseProblems(text: string, opts: ProseOptions = {}): string[] {
  const out: string[] = [];
  if (!text) return out;
  const placeholder = /⟨[a-z]+⟩/.exec(text);
  if (placeholder) out.push(`masking placeholder ${placeholder[0]}`);
  const noUrls = text.replace(URL_RE, " ");
  const cut = CUT_DOMAIN.exec(noUrls);
  if (cut) out.push(`a domain cut at its dot: "${cut[0].trim()}"`);
  for (const m of noUrls.matchAll(DOUBLED)) {
    if (m[1] !== m[1].toLowerCase() && m[1] === m[0].split(/\s+/)[1]) {
      // "Ha Ha" as a name, both capitalised, is allowed; "free Free" is not
    } else if (!DOUBLED_OK.has(m[1].toLowerCase())) out.push(`a doubled word: "${m[0]}"`);
  }
  const labs = /\b\p{L}+s['’]s\b/u.exec(noUrls);
  if (labs) out.push(`a possessive written "${labs[0]}"`);
  for (const m of noUrls.matchAll(
    /(?<![\p{L}\p{N}'’&/-])(a|an)[ \t]+(["“(]?[\p{L}\p{N}][\p{L}\p{N}'’.-]*)/gu,
  )) {
    const word = m[2].replace(/^["“(]/, "");
    if (/^[A-Z]$/.test(word)) continue; // "a B2B", "Series a"? a letter alone is read as its name
    if (article(word) !== m[1]) out.push(`"${m[1]} ${word}" (${article(word)} ${word})`);
  }
  const allowed = new Set(opts.allowSlugs ?? []);
  for (const m of noUrls.matchAll(SLUG)) if (!allowed.has(m[0])) out.push(`a raw slug: ${m[0]}`);
  if (ISO_TIME.test(noUrls)) out.push(`an ISO timestamp: ${ISO_TIME.exec(noUrls)?.[0]}…`);
  else if (ISO_DATE.test(noUrls)) out.push(`an ISO date: ${ISO_DATE.exec(noUrls)?.[0]}`);
  if (opts.summary && /\(?https?:\/\/\S+?\)?[.!]?\s*$/.test(text))
    out.push("a bare URL at the end of a summary");
  if (/\bundefined\b|\bnull\b|\[object Object\]|\bNaN\b/.test(noUrls))
    out.push("an internal value (undefined, null, NaN)");
  return out;
}

/** The visible text of an HTML page: scripts, styles and tags dropped, entities decoded, white space collapsed.
 * Attribute values (a `<time datetime>`, a link's href) are not text a person reads. */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style|template|noscript)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<(pre|code)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/\s+/g, " ")
    .replace(
      /<\/?(?:text|title|p|div|li|ul|ol|td|th|tr|table|h[1-6]|dt|dd|dl|br|section|header|footer|nav|main|article|aside|blockquote|figure|form|label|option|select|button|summary|details)\b[^>]*>/gi,
      "\n",
    )
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+/g, " ")
    .replace(/ ?\n[\s]*/g, "\n")
    .trim();
}

/** Fails with every problem of every text, each named by where it was read. */
export function expectProse(texts: { where: string; text: string; opts?: ProseOptions }[]): void {
  const problems: string[] = [];
  for (const t of texts)
    for (const p of proseProblems(t.text, t.opts))
      problems.push(`${t.where}: ${p}\n    ${around(t.text, p)}`);
  expect(problems).toEqual([]);
}

/** The part of a long text where a problem is (the quoted part of its description, else the start). */
function around(text: string, problem: string): string {
  const quotedPart = /"([^"]+)"|(⟨[a-z]+⟩)|: (\S+?)(?:…|$)/.exec(problem);
  const needle = quotedPart?.[1] ?? quotedPart?.[2] ?? quotedPart?.[3];
  const at = needle ? text.indexOf(needle) : -1;
  const from = Math.max(0, at < 0 ? 0 : at - 150);
  return text.slice(from, from + 300).replace(/\n/g, " ¶ ");
}
