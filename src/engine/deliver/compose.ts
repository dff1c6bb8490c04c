// What a delivery says: the cycle's new signals by severity, each with its app link and source, as an email
// (text and HTML) and as a Slack incoming-webhook message (Block Kit). Deterministic; nothing beyond the signals.
// What a site or workspace chose goes through its format's one escaper: Html.escapeHtml for the HTML part,
// slackEscape for every Slack text (blocks and fallback).
import { Html } from "@elysiajs/html";
import { appLinks } from "../../db/queries/links.ts";
import { possessive } from "../../domain/prose.ts";
import { SEVERITY_HIGH_FIRST } from "../../domain/records.ts";
import { slackEscape as slack } from "./slackText.ts";

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
