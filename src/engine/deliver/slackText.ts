// The one escaper of text put into a Slack message (mrkdwn blocks and the fallback `text` alike): Slack reads
// `&`, `<` and `>` as control characters (`<!channel>`, `<@U123>`, `<url|label>`), so text a website or a
// workspace chose is escaped before it is placed, and the only links are the ones the message writes itself.

/** `&`, `<` and `>` as Slack's entities: the text shows as written, never as a mention or a link. */
export function slackEscape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
