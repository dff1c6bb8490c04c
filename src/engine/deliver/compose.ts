// What a delivery says: the cycle's new signals by severity, each with its app link and source, as an email
// (text and HTML), as a Slack incoming-webhook message (Block Kit) and as a Microsoft Teams Adaptive Card.
// Deterministic; nothing beyond the signals. What a site or workspace chose goes through its format's one
// escaper: Html.escapeHtml for the HTML part, slackEscape for every Slack text (blocks and fallback),
// teamsEscape for every card text (plain TextRuns, never Markdown).
import { Html } from "@elysiajs/html";
import { appLinks } from "../../db/queries/links.ts";
import { possessive } from "../../domain/prose.ts";
import { SEVERITY_HIGH_FIRST } from "../../domain/records.ts";
import { slackEscape as slack } from "./slackText.ts";
import { teamsEscape as teams } from "./teamsText.ts";

export interface DeliverySignal {
  id: number;
  competitor: string;
  title: string;
  severity?: string;
  source_url?: string;
}

const SEVERITIES = [...SEVERITY_HIGH_FIRST, "unrated"] as const;
const bySeverity = (signals: DeliverySignal[]) =>
  SEVERITIES.map((sev) => ({
    sev,
    list: signals.filter((s) => (s.severity ?? "unrated") === sev),
  })).filter((g) => g.list.length > 0);
const label = (sev: string) => `${sev[0].toUpperCase()}${sev.slice(1)}`;
const plural = (n: number) => `${n} new signal${n === 1 ? "" : "s"}`;

const html = Html.escapeHtml;

/** One line of plain text (an email subject, Slack's fallback before escaping): no line breaks. */
export function subjectOf(org: string, signals: DeliverySignal[]): string {
  const top = signals[0];
  return `[Rivals] ${org}: ${plural(signals.length)}${top ? ` — ${top.title}` : ""}`
    .replace(/\s+/g, " ")
    .slice(0, 240);
}

export function composeEmail(org: string, signals: DeliverySignal[], base: string) {
  const text: string[] = [
    `${plural(signals.length)} on ${possessive(org)} competitors from the latest monitoring cycle.`,
    "",
  ];
  const body: string[] = [
    `<p>${html(plural(signals.length))} on ${html(possessive(org))} competitors from the latest monitoring cycle.</p>`,
  ];
  for (const g of bySeverity(signals)) {
    text.push(`${label(g.sev)}`);
    body.push(`<h2>${label(g.sev)}</h2><ul>`);
    for (const s of g.list) {
      const link = appLinks.signal(base, s.id);
      text.push(`- ${s.title} (${s.competitor})`, `  ${link}`);
      if (s.source_url) text.push(`  Source: ${s.source_url}`);
      body.push(
        `<li><a href="${html(link)}">${html(s.title)}</a> (${html(s.competitor)})${
          s.source_url ? ` — <a href="${html(s.source_url)}">source</a>` : ""
        }</li>`,
      );
    }
    text.push("");
    body.push("</ul>");
  }
  text.push(`Open Rivals: ${base}/app/`);
  body.push(`<p><a href="${html(`${base}/app/`)}">Open Rivals</a></p>`);
  return {
    subject: subjectOf(org, signals),
    text: text.join("\n"),
    html: `<!doctype html><html><body>${body.join("")}</body></html>`,
  };
}

/** A Slack incoming-webhook message: a header, one section per severity (at most 10 signals each, the rest
 * counted), and a link to every signal. */
export function composeSlack(org: string, signals: DeliverySignal[], base: string) {
  const blocks: Record<string, unknown>[] = [
    { type: "header", text: { type: "plain_text", text: `${org}: ${plural(signals.length)}`.slice(0, 150) } },
  ];
  for (const g of bySeverity(signals)) {
    const lines = g.list
      .slice(0, 10)
      .map((s) => `• <${appLinks.signal(base, s.id)}|${slack(s.title)}> (${slack(s.competitor)})`);
    if (g.list.length > 10) lines.push(`…and ${g.list.length - 10} more`);
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: `*${label(g.sev)}*\n${lines.join("\n")}`.slice(0, 3000) },
    });
  }
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: `<${base}/app/|Open Rivals>` }],
  });
  return { text: slack(subjectOf(org, signals)), blocks };
}

/** A plain text run of an Adaptive Card (shown as written), optionally a link. */
const run = (text: string, extra: Record<string, unknown> = {}) => ({
  type: "TextRun",
  text: teams(text),
  ...extra,
});
const openUrl = (url: string) => ({ type: "Action.OpenUrl", url });

/** A Microsoft Teams Workflows message: one Adaptive Card (version 1.5) with a heading, one block per severity
 * (at most 10 signals each, the rest counted), each signal's title linking to it, and a button to the app. */
export function composeTeams(org: string, signals: DeliverySignal[], base: string) {
  const body: Record<string, unknown>[] = [
    {
      type: "RichTextBlock",
      inlines: [run(`${org}: ${plural(signals.length)}`, { size: "Large", weight: "Bolder" })],
    },
  ];
  for (const g of bySeverity(signals)) {
    body.push({ type: "RichTextBlock", separator: true, inlines: [run(label(g.sev), { weight: "Bolder" })] });
    for (const s of g.list.slice(0, 10))
      body.push({
        type: "RichTextBlock",
        spacing: "Small",
        inlines: [
          run("• "),
          run(s.title, { selectAction: openUrl(appLinks.signal(base, s.id)), color: "Accent" }),
          run(` (${s.competitor})`, { isSubtle: true }),
        ],
      });
    if (g.list.length > 10)
      body.push({
        type: "RichTextBlock",
        spacing: "Small",
        inlines: [run(`…and ${g.list.length - 10} more`)],
      });
  }
  return teamsMessage(subjectOf(org, signals), body, base);
}

/** The message a Teams Workflows webhook posts: one Adaptive Card in an attachment. */
function teamsMessage(summary: string, body: Record<string, unknown>[], base: string) {
  return {
    type: "message",
    summary: teams(summary),
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.5",
          msteams: { width: "Full" },
          body,
          actions: [{ type: "Action.OpenUrl", title: "Open Rivals", url: `${base}/app/` }],
        },
      },
    ],
  };
}

/** The monitoring settings page's test card: says where it came from. */
export function composeTeamsTest(org: string, base: string, page: string) {
  return teamsMessage(
    `Test message from Rivals for ${org}`,
    [
      { type: "RichTextBlock", inlines: [run(`Rivals test message for ${org}`, { weight: "Bolder" })] },
      {
        type: "RichTextBlock",
        inlines: [
          run(`This channel will receive monitoring updates. Sent from the monitoring settings at ${page}`),
        ],
      },
    ],
    base,
  );
}
