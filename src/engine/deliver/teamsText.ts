// The one escaper of text put into a Microsoft Teams Adaptive Card. Text a website or a workspace chose goes
// into TextRun elements, which show their text as written (no Markdown, unlike TextBlock); what is left to
// defuse is the card's date/time functions, which Teams expands wherever `{{DATE(...)}}` or `{{TIME(...)}}`
// appears in a text, and control characters.

/** Text as the card shows it: `{{` broken by a zero-width space (so no function is expanded), control
 * characters other than line breaks dropped. */
export function teamsEscape(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is removed
  return s.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "").replace(/\{\{/g, "{\u200b{");
}
