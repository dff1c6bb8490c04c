// The one rule for signal search text (`q` on the read API, `query` of search_signals, the app's search
// box). Search text is matched literally, as a case-insensitive substring of a title or summary, so any
// text is text, with two exceptions that have no literal meaning:
//
// - Control characters (U+0000–U+001F, U+007F–U+009F: NUL, tab, line breaks, DEL, C1 controls) are
//   refused: the read API answers 400 invalid_request naming `q`, the tool an invalid_argument error
//   naming `query`, the app page says so. A control character never reaches the database (SQLite reads
//   a NUL as the end of the text, which once made `q=%00` match everything and `q=a%00b` fail).
// - A lone UTF-16 surrogate (only a JSON string can carry one) is read as U+FFFD, the character a URL's
//   invalid UTF-8 already decodes to, so the REST and tool surfaces agree.
//
// Everything else, FTS5 syntax (`"`, `*`, `NEAR(`, `AND`) included, is matched as the characters it is.

/** The longest search text, in characters, that the read API and the tool accept. */
export const MAX_SEARCH_TEXT = 500;

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const CONTROL_CHARACTERS_REFUSED =
  "must not contain control characters (U+0000 to U+001F, U+007F to U+009F)";

export type SearchText = { ok: true; text: string } | { ok: false; reason: string };

/** Checks search text against the rule above; on success, the text to match (well-formed UTF-16). */
export function searchText(raw: string): SearchText {
  if (CONTROL.test(raw)) return { ok: false, reason: CONTROL_CHARACTERS_REFUSED };
  return { ok: true, text: raw.replace(LONE_SURROGATE, "\uFFFD") };
}

/** The text with each control character replaced by U+FFFD, to show refused text back in a page. */
export function withoutControls(s: string): string {
  return s.replace(new RegExp(CONTROL.source, "gu"), "\uFFFD");
}

/** The first `max` characters (code points, so a surrogate pair is never cut in half). */
export function firstChars(s: string, max: number): string {
  if (s.length <= max) return s;
  return [...s].slice(0, max).join("");
}
