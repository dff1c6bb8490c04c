// Markdown that text from elsewhere (a competitor's page, an import, a member) is put into: the one escaper, so
// a stored value can never become a link, a heading or markup its writer did not write.

/** Every character Markdown reads as markup, escaped with a backslash. */
export function mdEscape(s: string): string {
  return s.replace(/([\\`*_[\]#<>|])/g, "\\$1");
}

/** A link destination: the characters that could end it, open another or break out of `<…>` (white space,
 * parentheses, brackets, angle brackets, quotes, backslash, backtick) percent-encoded — the same address for a
 * browser, one destination for any Markdown reader. */
export function mdUrl(url: string): string {
  return url.replace(/[\s()<>[\]\\`"']/g, (c) => {
    // encodeURIComponent leaves ( ) ' as they are: those get their ASCII code.
    const e = encodeURIComponent(c);
    return e !== c ? e : `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
  });
}
