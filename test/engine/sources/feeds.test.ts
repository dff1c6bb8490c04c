// Feed reader: RSS 2.0, Atom, JSON Feed and RSS 1.0 into one item shape with stable ids and ISO dates;
// GitHub repositories from a site's links and their releases feed. Bad input gives []; notAFeed tells a whole
// feed from a maintenance page or a cut-short body.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR } from "../../../fixtures/web/files.ts";
import {
  githubReleasesFeedUrl,
  githubReposFrom,
  notAFeed,
  parseFeed,
} from "../../../src/engine/sources/feeds.ts";

const RSS = `

<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>Globex Blog</title>
  <link>https://globex.example/blog</link>
  <atom:link href="https://globex.example/blog/rss.xml" rel="self" type="application/rss+xml"/>
  <item>
    <title>Introducing Globex Insights &amp; Reports</title>
    <link>https://globex.example/blog/insights</link>
    <guid isPermaLink="false">post-1042</guid>
    <pubDate>Tue, 04 Mar 2025 15:00:00 +0000</pubDate>
    <description><![CDATA[<p>Our <b>new</b> analytics suite ships today.</p>]]></description>
  </item>
  <item>
    <title>Pricing update</title>
    <link>/blog/pricing-update</link>
    <pubDate>Mon, 10 Feb 2025 09:30:00 GMT</pubDate>
    <content:encoded><![CDATA[<p>Team plan moves to $59.</p>]]></content:encoded>
  </item>
  <item>
    <title>2024</title>
    <guid>https://globex.example/blog/year-in-review</guid>
    <pubDate>not a date</pubDate>
  </item>
</channel>
</rss>`;

test("RSS 2.0: titles, links (relative resolved), guid ids, ISO dates, plain-text summaries", () => {
  const items = parseFeed(RSS, "https://globex.example/blog/rss.xml");
  expect(items).toEqual([
    {
      id: "post-1042",
      title: "Introducing Globex Insights & Reports",
      url: "https://globex.example/blog/insights",
      published: "2025-03-04T15:00:00.000Z",
      summary: "Our new analytics suite ships today.",
    },
    {
      id: "https://globex.example/blog/pricing-update",
      title: "Pricing update",
      url: "https://globex.example/blog/pricing-update",
      published: "2025-02-10T09:30:00.000Z",
      summary: "Team plan moves to $59.",
    },
    {
      id: "https://globex.example/blog/year-in-review",
      title: "2024",
      url: "https://globex.example/blog/year-in-review",
    },
  ]);
  // Stable: the same text gives the same ids.
  expect(parseFeed(RSS, "https://globex.example/blog/rss.xml").map((i) => i.id)).toEqual(
    items.map((i) => i.id),
  );
});

test("Atom: published preferred over updated, rel=alternate link over self, HTML summary flattened", () => {
  const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Initech changelog</title>
  <id>tag:initech.example,2025:changelog</id>
  <updated>2025-04-02T10:00:00Z</updated>
  <entry>
    <id>tag:initech.example,2025:v3.2.0</id>
    <title type="html">v3.2.0 &lt;em&gt;SSO for everyone&lt;/em&gt;</title>
    <link rel="self" href="https://initech.example/changelog/feed/v3.2.0.xml"/>
    <link rel="alternate" type="text/html" href="https://initech.example/changelog/v3.2.0"/>
    <published>2025-03-28T08:00:00+02:00</published>
    <updated>2025-04-02T10:00:00Z</updated>
    <summary type="html">&lt;p&gt;SAML SSO is now on every plan.&lt;/p&gt;</summary>
  </entry>
  <entry>
    <id>tag:initech.example,2025:v3.1.9</id>
    <title>v3.1.9</title>
    <link href="/changelog/v3.1.9"/>
    <updated>2025-03-01T00:00:00Z</updated>
  </entry>
</feed>`;
  expect(parseFeed(atom, "https://initech.example/changelog/feed.xml")).toEqual([
    {
      id: "tag:initech.example,2025:v3.2.0",
      title: "v3.2.0 SSO for everyone",
      url: "https://initech.example/changelog/v3.2.0",
      published: "2025-03-28T06:00:00.000Z",
      summary: "SAML SSO is now on every plan.",
    },
    {
      id: "tag:initech.example,2025:v3.1.9",
      title: "v3.1.9",
      url: "https://initech.example/changelog/v3.1.9",
      published: "2025-03-01T00:00:00.000Z",
    },
  ]);
});

test("GitHub releases Atom feed (the shape github.com serves)", () => {
  const gh = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en-US">
  <id>tag:github.com,2008:https://github.com/umbrella/cli/releases</id>
  <link type="text/html" rel="alternate" href="https://github.com/umbrella/cli/releases"/>
  <link type="application/atom+xml" rel="self" href="https://github.com/umbrella/cli/releases.atom"/>
  <title>Release notes from cli</title>
  <updated>2025-05-01T12:00:00Z</updated>
  <entry>
    <id>tag:github.com,2008:Repository/1/v2.0.0</id>
    <updated>2025-05-01T12:00:00Z</updated>
    <link rel="alternate" type="text/html" href="https://github.com/umbrella/cli/releases/tag/v2.0.0"/>
    <title>v2.0.0</title>
    <content type="html">&lt;h2&gt;Breaking&lt;/h2&gt;&lt;p&gt;New config format&lt;/p&gt;</content>
    <author><name>octo</name></author>
    <media:thumbnail height="30" width="30" url="https://avatars.githubusercontent.com/u/1?s=60&amp;v=4"/>
  </entry>
</feed>`;
  const items = parseFeed(gh, "https://github.com/umbrella/cli/releases.atom");
  expect(items).toEqual([
    {
      id: "tag:github.com,2008:Repository/1/v2.0.0",
      title: "v2.0.0",
      url: "https://github.com/umbrella/cli/releases/tag/v2.0.0",
      published: "2025-05-01T12:00:00.000Z",
      summary: "Breaking New config format",
    },
  ]);
});

test("JSON Feed 1.1: ids, url or external_url, date_published, title from content when absent", () => {
  const json = JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: "Hooli updates",
    home_page_url: "https://hooli.example/",
    items: [
      {
        id: "42",
        url: "/updates/42",
        title: "Hooli Chat launches",
        content_html: "<p>Chat is <strong>here</strong>.</p>",
        date_published: "2025-01-15T10:00:00-05:00",
      },
      {
        id: "43",
        external_url: "https://press.example/hooli",
        content_text: "A short note without a title.",
      },
      { title: "no id, no url" },
      "not an item",
    ],
  });
  const items = parseFeed(json, "https://hooli.example/feed.json");
  expect(items[0]).toEqual({
    id: "42",
    title: "Hooli Chat launches",
    url: "https://hooli.example/updates/42",
    published: "2025-01-15T15:00:00.000Z",
    summary: "Chat is here.",
  });
  expect(items[1]).toEqual({
    id: "43",
    title: "A short note without a title.",
    url: "https://press.example/hooli",
    summary: "A short note without a title.",
  });
  expect(items[2].title).toBe("no id, no url");
  expect(items[2].id).toMatch(/^h:[0-9a-z]+$/);
  expect(items).toHaveLength(3);
});

test("RSS 1.0 (RDF) with dc:date", () => {
  const rdf = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://vandelay.example/"><title>Vandelay</title><link>https://vandelay.example/</link></channel>
  <item rdf:about="https://vandelay.example/news/1">
    <title>Vandelay opens Berlin office</title>
    <link>https://vandelay.example/news/1</link>
    <dc:date>2025-02-20T12:00:00Z</dc:date>
  </item>
</rdf:RDF>`;
  expect(parseFeed(rdf, "https://vandelay.example/rss")).toEqual([
    {
      id: "https://vandelay.example/news/1",
      title: "Vandelay opens Berlin office",
      url: "https://vandelay.example/news/1",
      published: "2025-02-20T12:00:00.000Z",
    },
  ]);
});

test("not a feed: HTML, malformed XML, empty, JSON that is not a feed, non-strings give []", () => {
  const base = "https://x.example/feed";
  expect(parseFeed("<!doctype html><html><body><h1>Blog</h1></body></html>", base)).toEqual([]);
  expect(parseFeed("<rss><channel><item><title>broken", base)).toEqual([]);
  expect(parseFeed("", base)).toEqual([]);
  expect(parseFeed("   \n ", base)).toEqual([]);
  expect(parseFeed('{"items": 3}', base)).toEqual([]);
  expect(parseFeed('{"version":"1.0","items":[{"id":"1","title":"x"}]}', base)).toEqual([]);
  expect(parseFeed("{not json", base)).toEqual([]);
  expect(parseFeed(undefined as unknown as string, base)).toEqual([]);
  expect(
    parseFeed('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>', base),
  ).toEqual([]);
});

test("a BOM and leading whitespace before the XML declaration are tolerated", () => {
  const text = `\uFEFF\n  <?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><title>One</title><link>https://a.example/1</link></item></channel></rss>`;
  expect(parseFeed(text, "https://a.example/rss")).toEqual([
    { id: "https://a.example/1", title: "One", url: "https://a.example/1" },
  ]);
});

test("githubReposFrom: org/repo of repository links only, deduplicated; releases feed URL", () => {
  const links = [
    { url: "https://github.com/umbrella/cli" },
    { url: "https://github.com/umbrella/cli/releases" },
    { url: "https://github.com/Umbrella/CLI.git" },
    { url: "https://www.github.com/umbrella/sdk-js/tree/main/src" },
    { url: "https://github.com/umbrella" },
    { url: "https://github.com/features/actions" },
    { url: "https://github.com/sponsors/umbrella" },
    { url: "https://github.com/marketplace/actions/x" },
    { url: "https://gitlab.com/umbrella/cli" },
    { url: "https://github.com.evil.example/umbrella/cli" },
    { url: "not a url" },
  ];
  expect(githubReposFrom(links)).toEqual(["umbrella/cli", "umbrella/sdk-js"]);
  expect(githubReleasesFeedUrl("umbrella/cli")).toBe("https://github.com/umbrella/cli/releases.atom");
  expect(githubReposFrom(null as unknown as [])).toEqual([]);
});

test("sloppy real-world XML: a bare & and HTML named entities still parse", () => {
  const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>
<item><title>R&D update &mdash; Q1</title><link>https://a.example/1?a=1&b=2</link><pubDate>Tue, 04 Mar 2025 15:00:00 +0000</pubDate></item>
</channel></rss>`;
  expect(parseFeed(rss, "https://a.example/rss")).toEqual([
    {
      id: "https://a.example/1?a=1&b=2",
      title: "R&D update — Q1",
      url: "https://a.example/1?a=1&b=2",
      published: "2025-03-04T15:00:00.000Z",
    },
  ]);
});

test("notAFeed: every feed of the fixture web is a whole feed; a maintenance page, an empty or cut-short body is not", () => {
  const feeds: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(?:xml|atom|rss)$|\/feed$|feed\.json$/.test(p) && !/sitemap/.test(p)) feeds.push(p);
    }
  };
  walk(SITES_DIR);
  expect(feeds.length).toBeGreaterThan(10);
  for (const f of feeds) expect([f, notAFeed(readFileSync(f, "utf8"))]).toEqual([f, null]);
  expect(notAFeed(RSS)).toBeNull();
  expect(notAFeed("")).toBe("empty_response");
  expect(notAFeed("<!DOCTYPE html><html><title>Down for maintenance</title></html>")).toBe(
    "not_feed_response",
  );
  expect(notAFeed(RSS.slice(0, RSS.length - 40))).toBe("truncated_response");
  expect(notAFeed('{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1"')).toBe(
    "truncated_response",
  );
  expect(notAFeed('{"error":"rate limited"}')).toBe("not_feed_response");
});
