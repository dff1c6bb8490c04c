// Markdown that text from elsewhere (a competitor's page, an import, a member) is put into: the one escaper, so
// a stored value can never become a link, a heading or markup its writer did not write.

/** Every character Markdown reads as markup, escaped with a backslash. */
export function mdEscape(s: string): string {
  return s.replace(/([\\`*_[\]#<>|])/g, "\\$1");
}
