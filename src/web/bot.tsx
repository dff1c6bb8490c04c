// The public page the crawler's User-Agent points to (`RivalsBot/1.0 (+{base_url}/bot)`): what it fetches,
// how often, how a site opts out, and whom to contact. The numbers come from the configuration and the
// plan table, so the page says what this instance actually does.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { PLAN_NAMES, PLANS } from "../domain/plans.ts";
import { userAgentFor } from "../engine/fetch/index.ts";
import { MAX_CRAWL_DELAY_MS, ROBOTS_TTL_MS } from "../engine/fetch/robots.ts";
import type { Services } from "../services.ts";
import { Html, Layout } from "./layout.tsx";
import { publicPage, viewer } from "./public.tsx";

const CADENCE_ORDER = ["hourly", "twice_daily", "daily", "weekly"];
const CADENCE_WORDS: Record<string, string> = {
  hourly: "once an hour",
  twice_daily: "twice a day",
  daily: "once a day",
  weekly: "once a week",
};

function fastestCadence(): string {
  const all = new Set(PLAN_NAMES.flatMap((n) => PLANS[n].cadences));
  const fastest = CADENCE_ORDER.find((c) => all.has(c)) ?? "weekly";
  return CADENCE_WORDS[fastest] ?? fastest;
}

const seconds = (ms: number) => `${ms / 1000} second${ms === 1000 ? "" : "s"}`;

function contactLine(contact: string | undefined, baseUrl: string): JSX.Element {
  if (contact && /^[^@\s]+@[^@\s]+$/.test(contact))
    return (
      <p>
        Questions or problems: write to{" "}
        <a href={`mailto:${contact}`} safe>
          {contact}
        </a>
        .
      </p>
    );
  if (contact && /^https?:\/\//i.test(contact))
    return (
      <p>
        Questions or problems:{" "}
        <a href={contact} safe>
          {contact}
        </a>
        .
      </p>
    );
  return (
    <p>
      Questions or problems: this crawler is run by the operator of the Rivals instance at{" "}
      <a href={baseUrl} safe>
        {baseUrl}
      </a>
      ; contact them through that site. Whatever the answer, a <code>robots.txt</code> rule is always obeyed.
    </p>
  );
}

function BotPage({ s, user }: { s: Services; user?: string }): JSX.Element {
  const c = s.config;
  const ua = userAgentFor(c.baseUrl, c.botContact);
  const pause = c.fetchDelayMs;
  return (
    <Layout title="RivalsBot, the crawler of this Rivals instance" user={user}>
      <h1>RivalsBot</h1>
      <p class="lead">
        RivalsBot is the web crawler of Rivals, a competitive-intelligence service. It reads the public pages
        of companies that a workspace on this instance tracks as competitors, and records what changes.
      </p>
      <p>
        It identifies itself with the User-Agent <code safe>{ua}</code>.
      </p>

      <h2>What it fetches</h2>
      <ul>
        <li>
          Public pages of a tracked company's website: the home page and what its navigation, footer and{" "}
          <code>sitemap.xml</code> lead to — pricing, product and feature pages, changelog and release notes,
          careers, about, blog, integrations, customers, security and legal pages.
        </li>
        <li>
          Its feeds (RSS, Atom, JSON Feed), <code>/robots.txt</code>, <code>/.well-known/security.txt</code>,
          and public job-board listings (Greenhouse, Lever, Ashby) through their public JSON.
        </li>
        <li>
          Text only: HTML, XML, JSON and plain text. Images, stylesheets, scripts, media and downloads are not
          fetched; no forms are submitted, no sign-in is attempted, and nothing behind a login is read.
        </li>
        <li>
          Responses are limited to {Html.escapeHtml(String(c.fetchMaxBytes))} bytes and{" "}
          {Html.escapeHtml(seconds(c.fetchTimeoutMs))} each; it follows at most 5 redirects.
        </li>
      </ul>

      <h2>How often</h2>
      <ul>
        <li>
          Each tracked site is checked at the monitoring cadence its workspace chose — at most{" "}
          {Html.escapeHtml(fastestCadence())} — plus when someone asks for fresh research on that company.
        </li>
        <li>
          One request at a time per host, with a pause between two of them
          {pause > 0 ? ` of at least ${seconds(pause)}` : ""}. A <code>Crawl-delay</code> in robots.txt is
          honoured up to {Html.escapeHtml(seconds(MAX_CRAWL_DELAY_MS))}.
        </li>
        <li>
          Requests are conditional (<code>If-None-Match</code>, <code>If-Modified-Since</code>): a page that
          has not changed costs a <code>304 Not Modified</code>.
        </li>
      </ul>

      <h2>How to opt out</h2>
      <p>
        RivalsBot reads <code>/robots.txt</code> before any other page of a site and keeps it for up to{" "}
        {Html.escapeHtml(String(ROBOTS_TTL_MS / 3_600_000))} hours. A URL that robots.txt disallows is never
        requested. To keep RivalsBot out of a whole site:
      </p>
      <pre>{"User-agent: RivalsBot\nDisallow: /"}</pre>
      <p>Or keep it out of some paths only, and slow it down:</p>
      <pre>{"User-agent: RivalsBot\nDisallow: /internal/\nCrawl-delay: 5"}</pre>
      <p>
        Rules for <code>User-agent: *</code> apply when there is no group for RivalsBot. While a site's
        robots.txt answers with a server error, nothing else on that site is fetched.
      </p>

      <h2>Contact</h2>
      {contactLine(c.botContact, c.baseUrl)}
    </Layout>
  );
}

export function botPage(s: Services) {
  return new Elysia({ name: "web-bot" }).get("/bot", async ({ request }) =>
    publicPage(<BotPage s={s} user={await viewer(s, request)} />),
  );
}
