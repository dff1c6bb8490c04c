// GET /feeds/{token}: an Atom feed (RFC 4287) of a workspace's open signals — or one competitor's — newest
// first, at most FEED_ENTRIES, each entry linking to its signal page with its evidence (excerpt, source, time)
// in the content. The token is the feed's secret (domain/feeds.ts): an unknown or revoked one answers 404.
// Every text is escaped for XML; the content is HTML escaped, then escaped again as the XML text it is.
import { Html } from "@elysiajs/html";
import { Elysia } from "elysia";
import { sha256 } from "../auth/tokens.ts";
import { feedByDigest } from "../db/queries/feeds.ts";
import { listSignals } from "../db/queries/signals.ts";
import { FEED_TOKEN_RE } from "../domain/feeds.ts";
import { label } from "../domain/vocabulary.ts";
import type { Services } from "../services.ts";

export const FEED_ENTRIES = 50;

type Obj = Record<string, unknown>;

/** Text as XML character data or an attribute value: the five special characters as entities, and the
 * characters XML 1.0 cannot carry dropped. */
export function xmlEscape(s: string): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 forbids are removed
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

const html = Html.escapeHtml;
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** A signal's content: its summary, severity and category, then each piece of evidence. */
function contentOf(s: Obj): string {
  const parts: string[] = [];
  if (str(s.summary)) parts.push(`<p>${html(str(s.summary))}</p>`);
  const facts = [
    str(s.competitor_name) ? `Competitor: ${html(str(s.competitor_name))}` : "",
    str(s.severity) ? `Severity: ${html(label(str(s.severity)))}` : "",
    str(s.category) ? `Category: ${html(label(str(s.category)))}` : "",
  ].filter(Boolean);
  if (facts.length) parts.push(`<p>${facts.join(" · ")}</p>`);
  const evidence = (Array.isArray(s.evidence) ? s.evidence : []) as Obj[];
  if (evidence.length) {
    parts.push("<p>Evidence:</p><ul>");
    for (const e of evidence.slice(0, 10)) {
      const url = str(e.source_url);
      const source = url
        ? `<a href="${html(url)}">${html(str(e.source_title) || url)}</a>`
        : html(str(e.source_title) || "source");
      const when = str(e.observed_at) ? ` (${html(str(e.observed_at).slice(0, 10))})` : "";
      const text = str(e.text) ? `: “${html(str(e.text))}”` : "";
      parts.push(`<li>${source}${when}${text}</li>`);
    }
    parts.push("</ul>");
  }
  return parts.join("");
}

/** The Atom document. `signals` are the read API's objects, newest first. */
export function atomDocument(opts: {
  base: string;
  feedId: number;
  title: string;
  updatedFallback: string;
  signals: Obj[];
}): string {
  const host = new URL(opts.base).hostname;
  const tag = (what: string) => `tag:${host},2026:${what}`;
  const timeOf = (s: Obj) => str(s.last_seen_at) || str(s.first_seen_at) || opts.updatedFallback;
  const updated = opts.signals.map(timeOf).sort().at(-1) ?? opts.updatedFallback;
  const entries = opts.signals.map((s) => {
    const published = str(s.first_seen_at);
    return [
      "<entry>",
      `<id>${xmlEscape(tag(`signals/${String(s.id)}`))}</id>`,
      `<title type="text">${xmlEscape(str(s.title))}</title>`,
      `<link rel="alternate" type="text/html" href="${xmlEscape(str(s.url))}"/>`,
      `<updated>${xmlEscape(timeOf(s))}</updated>`,
      published ? `<published>${xmlEscape(published)}</published>` : "",
      str(s.category) ? `<category term="${xmlEscape(str(s.category))}"/>` : "",
      str(s.summary) ? `<summary type="text">${xmlEscape(str(s.summary))}</summary>` : "",
      `<content type="html">${xmlEscape(contentOf(s))}</content>`,
      "</entry>",
    ].join("");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${xmlEscape(tag(`feeds/${opts.feedId}`))}</id>`,
    `<title type="text">${xmlEscape(opts.title)}</title>`,
    `<updated>${xmlEscape(updated)}</updated>`,
    `<link rel="alternate" type="text/html" href="${xmlEscape(`${opts.base}/app/`)}"/>`,
    "<author><name>Rivals</name></author>",
    "<generator>Rivals</generator>",
    ...entries,
    "</feed>",
  ].join("\n");
}

export function atomFeedRoutes(s: Services) {
  const notFound = () =>
    new Response("This feed does not exist or was revoked.", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  return new Elysia({ name: "web-atom-feed" }).get("/feeds/:token", async ({ params }) => {
    if (!FEED_TOKEN_RE.test(params.token)) return notFound();
    const feed = await feedByDigest(s.database, sha256(params.token));
    if (!feed) return notFound();
    const signals = await listSignals(
      s.database.db,
      feed.orgId,
      {
        ...(feed.competitorId !== undefined ? { competitorId: feed.competitorId } : {}),
        limit: FEED_ENTRIES,
        offset: 0,
      },
      s.config.baseUrl,
    );
    const title =
      feed.competitorId !== undefined
        ? `${feed.orgName}: signals on ${feed.competitorName ?? "a competitor"}`
        : `${feed.orgName}: competitor signals`;
    const body = atomDocument({
      base: s.config.baseUrl,
      feedId: feed.id,
      title,
      updatedFallback: s.clock().toISOString(),
      signals,
    });
    return new Response(body, {
      headers: {
        "content-type": "application/atom+xml; charset=utf-8",
        "cache-control": "private, max-age=300",
        "x-robots-tag": "noindex",
        "referrer-policy": "no-referrer",
      },
    });
  });
}
