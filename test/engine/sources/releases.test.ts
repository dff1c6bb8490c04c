// Changelog entries from the usual page layouts (dated headings, date lines before/after titles, <time>,
// date group headings, dated list items and tables, PageExtract blocks), strictness against prose dates,
// and the release_cadence read.
import { expect, test } from "bun:test";
import { changelogEntries, findDate, releaseCadence } from "../../../src/engine/sources/releases.ts";

const URL = "https://globex.example/changelog";
const wrap = (body: string) =>
  `<!doctype html><html><head><title>Changelog</title></head><body><nav><a href="/">Home</a><span>Updated March 9, 2025</span></nav><main>${body}</main><footer>© 2025 Globex · Last updated 9 March 2025</footer></body></html>`;

test("headings that carry version and date", () => {
  const html = wrap(`<h1>Changelog</h1>
<p>Everything we shipped. We were founded on June 1, 2015 and have shipped weekly since January 5, 2016.</p>
<article><h2 id="v3-2-0">v3.2.0 — March 3, 2025</h2><p>SAML SSO on every plan.</p></article>
<article><h2><a href="/changelog/v3-1-0">v3.1.0 (2025-02-14)</a></h2><p>Audit log export.</p></article>
<article><h2>Version 3.0.0 · 10 Jan 2025</h2><ul><li>New dashboard</li><li>Faster search</li></ul></article>`);
  expect(changelogEntries(html, URL)).toEqual([
    { title: "v3.2.0", date: "2025-03-03", url: "https://globex.example/changelog#v3-2-0" },
    { title: "v3.1.0", date: "2025-02-14", url: "https://globex.example/changelog/v3-1-0" },
    { title: "Version 3.0.0", date: "2025-01-10" },
  ]);
});

test("a date line or <time> after (or before) a title heading", () => {
  const after = wrap(`<h1>What's new</h1>
<div class="entry"><h3>Slack integration</h3><time datetime="2025-03-04T10:00:00Z">Mar 4, 2025</time><p>Send alerts to Slack. Supported since 2024-01-01 in beta.</p></div>
<div class="entry"><h3>Dark mode</h3><span class="date">Published February 20, 2025 · 2 min read</span><p>Easier on the eyes.</p></div>`);
  expect(changelogEntries(after, URL)).toEqual([
    { title: "Slack integration", date: "2025-03-04" },
    { title: "Dark mode", date: "2025-02-20" },
  ]);
  const before = wrap(`<h1>Release notes</h1>
<section><p class="meta">2025-03-04</p><h2>Webhooks v2</h2><p>Retries with backoff and a long paragraph that is not a date at all.</p></section>
<section><p class="meta">2025-02-11</p><h2>Team roles</h2><p>Admins and members.</p></section>`);
  expect(changelogEntries(before, URL)).toEqual([
    { title: "Webhooks v2", date: "2025-03-04" },
    { title: "Team roles", date: "2025-02-11" },
  ]);
});

test("a date heading dates the entry headings under it; alone it is one entry", () => {
  const html = wrap(`<h1>Product updates</h1>
<h2>March 3, 2025</h2><h3>Usage-based billing</h3><p>…</p><h3>CSV import</h3><p>…</p>
<h2>February 24, 2025</h2><p>Bug fixes and performance improvements.</p>
<h2>Roadmap</h2><h3>Mobile app</h3>`);
  expect(changelogEntries(html, URL)).toEqual([
    { title: "Usage-based billing", date: "2025-03-03" },
    { title: "CSV import", date: "2025-03-03" },
    { title: "February 24, 2025", date: "2025-02-24" },
  ]);
});

test("dated list items and table rows", () => {
  const html = wrap(`<h1>Changelog</h1>
<ul>
  <li>2025-03-01 — Added SCIM provisioning</li>
  <li>February 12, 2025: Fixed CSV export encoding</li>
  <li>Improved onboarding, shipped on 2025-01-05 after a long beta</li>
</ul>
<table><tr><th>Date</th><th>Version</th><th>Notes</th></tr>
<tr><td>2025-01-20</td><td>2.9.0</td><td>Okta SSO</td></tr></table>`);
  expect(changelogEntries(html, URL)).toEqual([
    { title: "Added SCIM provisioning", date: "2025-03-01" },
    { title: "Fixed CSV export encoding", date: "2025-02-12" },
    { title: "2.9.0", date: "2025-01-20" },
  ]);
});

test("strict: dates in prose, relative dates, year-less dates and CalVer versions are no entries", () => {
  const html = wrap(`<h1>About Globex</h1>
<h2>Our story</h2><p>Globex was founded on June 1, 2015 in Berlin. On March 3, 2020 we raised our Series A.</p>
<h2>Latest news</h2><p>Posted 3 days ago</p>
<h2>Office hours</h2><p>Mar 4</p>
<h2>Version 2024.10.1</h2><p>Calendar-versioned build.</p>`);
  expect(changelogEntries(html, "https://globex.example/about")).toEqual([]);
  expect(findDate("Posted 12 days ago")).toBeNull();
  expect(findDate("Mar 4")).toBeNull();
  expect(findDate("Version 2024.10.1")).toBeNull();
  expect(findDate("Released on 2025.03.01")?.iso).toBe("2025-03-01");
});

test("PageExtract blocks are read the same way", () => {
  const extract = {
    url: URL,
    blocks: [
      { kind: "heading" as const, level: 1, text: "Changelog" },
      { kind: "heading" as const, level: 2, text: "v2.0 — April 1, 2025" },
      {
        kind: "text" as const,
        text: "Big release with many things described at length in this paragraph of prose.",
      },
      { kind: "heading" as const, level: 2, text: "Bulk edit" },
      { kind: "text" as const, text: "March 20, 2025" },
      { kind: "list" as const, items: ["2025-03-01 — Added API keys", "not dated"] },
      { kind: "table" as const, rows: [["2025-02-01", "Initial launch"]] },
      { kind: "card" as const, title: "Audit log", items: ["Feb 15, 2025"] },
    ],
  };
  expect(changelogEntries(extract, URL)).toEqual([
    { title: "v2.0", date: "2025-04-01" },
    { title: "Bulk edit", date: "2025-03-20" },
    { title: "Added API keys", date: "2025-03-01" },
    { title: "Initial launch", date: "2025-02-01" },
    { title: "Audit log", date: "2025-02-15" },
  ]);
});

test("an h1 counts only when it is all there is; bad input gives []", () => {
  expect(changelogEntries(wrap("<h1>v1.0 released March 1, 2025</h1><p>First release.</p>"), URL)).toEqual([
    { title: "v1.0", date: "2025-03-01" },
  ]);
  expect(changelogEntries("", URL)).toEqual([]);
  expect(changelogEntries("<h2>unclosed <time datetime='garbage'>", URL)).toEqual([]);
  expect(changelogEntries(null as never, URL)).toEqual([]);
  expect(changelogEntries({ blocks: "x" } as never, URL)).toEqual([]);
});

test("releaseCadence: release days in the last 90 days, newest, median gap over all dated entries", () => {
  const now = new Date("2025-04-01T12:00:00Z");
  const dates = [
    "2025-03-25",
    "2025-03-18",
    "2025-03-18",
    "2025-03-04T10:00:00Z",
    "2024-12-01",
    "2024-11-01",
    "not a date",
    "2025-06-01",
  ];
  expect(releaseCadence(dates, now, URL)).toEqual({
    releases_last_90_days: 3,
    last_release_at: "2025-03-25T00:00:00.000Z",
    median_days_between: 22, // gaps 30, 93, 14, 7 days
    source: URL,
  });
  expect(releaseCadence(["2025-03-01"], now, "feed")).toEqual({
    releases_last_90_days: 1,
    last_release_at: "2025-03-01T00:00:00.000Z",
    source: "feed",
  });
  expect(releaseCadence([], now, URL)).toBeNull();
  expect(releaseCadence(["garbage", "2030-01-01"], now, URL)).toBeNull();
});
