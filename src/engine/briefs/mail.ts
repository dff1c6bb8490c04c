// The emails of a free-brief request: the confirmation asked of the address given, then — only once it is
// confirmed — the answer (the brief's link, or why there is none). Fixed wording: the one thing of the request
// they name is the company's domain (a host name, letters, digits, dots and hyphens); nothing a website chose
// (its name, headers, error text) is ever quoted, so the form cannot make them say what a stranger wants.
import { Html } from "@elysiajs/html";

export interface Mail {
  subject: string;
  text: string;
  html: string;
}

const e = Html.escapeHtml;

export function freeBriefConfirmationMail(x: {
  domain: string;
  link: string;
  hours: number;
  base: string;
}): Mail {
  const form = `${x.base}/free-brief`;
  return {
    subject: `Confirm your free brief on ${x.domain}`,
    text: [
      `Someone asked at ${form} for a free competitive brief on ${x.domain} to be emailed to this address.`,
      "",
      `To receive it, confirm within ${x.hours} hours:`,
      x.link,
      "",
      "If you did not ask for it, ignore this email: without a confirmation this address gets nothing more from us.",
    ].join("\n"),
    html: `<p>Someone asked at ${e(form)} for a free competitive brief on ${e(x.domain)} to be emailed to this address.</p>
<p>To receive it, <a href="${e(x.link)}">confirm within ${x.hours} hours</a>.</p>
<p>If you did not ask for it, ignore this email: without a confirmation this address gets nothing more from us.</p>`,
  };
}

export interface FreeBriefMailInput {
  domain: string;
  /** `rejected`: a brief was written but an operator did not publish it. */
  outcome: "published" | "existing" | "failed" | "rejected";
  brief?: { url: string; published_at: string; findings: number };
  /** One of our own reasons (domain/freeBriefs.ts FAILURE_REASONS). */
  reason?: string;
  periodDays: number;
  base: string;
}

export function freeBriefMail(x: FreeBriefMailInput): Mail {
  const signup = `${x.base}/signup`;
  if (x.outcome === "failed" || x.outcome === "rejected" || !x.brief) {
    const reason = x.reason ?? "The website could not be read.";
    const verb = x.outcome === "rejected" ? "publish" : "write";
    return {
      subject: `We could not ${verb} a brief on ${x.domain}`,
      text: [
        `You asked for a free competitive brief on ${x.domain}. We could not ${verb} one:`,
        "",
        reason,
        "",
        "Nothing was published. You can ask again with another address of the company's website.",
        `${x.base}/free-brief`,
      ].join("\n"),
      html: `<p>You asked for a free competitive brief on ${e(x.domain)}. We could not ${verb} one:</p>
<p>${e(reason)}</p>
<p>Nothing was published. You can <a href="${e(`${x.base}/free-brief`)}">ask again</a> with another address of the company's website.</p>`,
    };
  }
  const b = x.brief;
  const day = b.published_at.slice(0, 10);
  const intro =
    x.outcome === "existing"
      ? `A brief on ${x.domain} was published on ${day}. Briefs are written once per company every ${x.periodDays} days, so this is the current one:`
      : `Your free brief on ${x.domain} is published:`;
  const what = `It has ${b.findings} finding${b.findings === 1 ? "" : "s"}, each citing the public page of ${x.domain} it was read from.`;
  return {
    subject: `Your free brief on ${x.domain}`,
    text: [
      intro,
      b.url,
      "",
      what,
      "",
      `To follow ${x.domain} continuously (prices, launches, hiring, every change with its source), start a workspace: ${signup}`,
    ].join("\n"),
    html: `<p>${e(intro)}</p>
<p><a href="${e(b.url)}">${e(b.url)}</a></p>
<p>${e(what)}</p>
<p>To follow ${e(x.domain)} continuously, <a href="${e(signup)}">start a workspace</a>.</p>`,
  };
}
