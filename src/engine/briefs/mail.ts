// The email that answers a free-brief request: the brief's link (a new one, or the one of the period already
// published), or why none could be written. Text and HTML; says nothing the brief does not.
import { Html } from "@elysiajs/html";

export interface FreeBriefMailInput {
  domain: string;
  outcome: "published" | "existing" | "failed";
  brief?: { name: string; url: string; published_at: string; findings: number };
  reason?: string;
  periodDays: number;
  base: string;
}

export function freeBriefMail(x: FreeBriefMailInput): { subject: string; text: string; html: string } {
  const e = Html.escapeHtml;
  const signup = `${x.base}/signup`;
  if (x.outcome === "failed" || !x.brief) {
    const reason = x.reason ?? "The website could not be read.";
    return {
      subject: `We could not write a brief on ${x.domain}`,
      text: [
        `You asked for a free competitive brief on ${x.domain}. We could not write one:`,
        "",
        reason,
        "",
        "Nothing was published. You can ask again with another address of the company's website.",
        `${x.base}/free-brief`,
      ].join("\n"),
      html: `<p>You asked for a free competitive brief on ${e(x.domain)}. We could not write one:</p>
<p>${e(reason)}</p>
<p>Nothing was published. You can <a href="${e(`${x.base}/free-brief`)}">ask again</a> with another address of the company's website.</p>`,
    };
  }
  const b = x.brief;
  const day = b.published_at.slice(0, 10);
  const intro =
    x.outcome === "existing"
      ? `A brief on ${b.name} (${x.domain}) was published on ${day}. Briefs are written once per company every ${x.periodDays} days, so this is the current one:`
      : `Your free brief on ${b.name} (${x.domain}) is published:`;
  const what = `It has ${b.findings} finding${b.findings === 1 ? "" : "s"}, each citing the public page of ${x.domain} it was read from.`;
  return {
    subject: `Your free brief on ${b.name}`,
    text: [
      intro,
      b.url,
      "",
      what,
      "",
      `To follow ${b.name} continuously (prices, launches, hiring, every change with its source), start a workspace: ${signup}`,
    ].join("\n"),
    html: `<p>${e(intro)}</p>
<p><a href="${e(b.url)}">${e(b.url)}</a></p>
<p>${e(what)}</p>
<p>To follow ${e(b.name)} continuously, <a href="${e(signup)}">start a workspace</a>.</p>`,
  };
}
