// Atom feeds at secret URLs: create_feed answers the URL once (only its digest is stored), the feed is valid
// Atom (read by a feed parser), newest first, bounded, each entry linking to its signal page with its evidence
// in the content (escaped: a site's markup arrives as text); one competitor's feed holds only its signals; a
// member makes and revokes feeds on the integrations page, and a revoked or unknown address answers 404.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { extractFromXml } from "@extractus/feed-extractor";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { FEED_ENTRIES } from "../../src/web/atomFeed.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";
import { formValues, member, parseForms, signedIn } from "../support/oauth-helpers.ts";

setDefaultTimeout(30_000);

let t: TestServer;
let acme: Client;
const call = async (name: string, args: Record<string, unknown> = {}) =>
  body(await acme.callTool({ name, arguments: args }));

const day = (n: number) => `2026-11-${String(n).padStart(2, "0")}T08:00:00Z`;

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme");
  await t.org("other");
  const lines: object[] = [
    {
      kind: "competitor",
      org: "acme",
      key: "alpha",
      name: "Alpha Corp",
      website_url: "https://alpha.example",
    },
    { kind: "competitor", org: "acme", key: "beta", name: "Beta & Co", website_url: "https://beta.example" },
    {
      kind: "signal",
      org: "acme",
      key: "hostile",
      competitor: "beta",
      title: "Beta <script>alert(1)</script> launches",
      summary: "A launch & more.",
      category: "product",
      type: "feature_launch",
      severity: "medium",
      first_seen_at: day(19),
      last_seen_at: day(19),
      evidence: [
        {
          text: 'They wrote <img src=x onerror="alert(2)"> on the page',
          source_title: "Beta blog",
          source_url: "https://beta.example/blog?a=1&b=2",
          observed_at: day(19),
        },
      ],
    },
  ];
  for (let i = 1; i <= FEED_ENTRIES + 5; i++)
    lines.push({
      kind: "signal",
      org: "acme",
      key: `a${i}`,
      competitor: "alpha",
      title: `Alpha move ${i}`,
      category: "pricing",
      type: "price_change",
      severity: "low",
      first_seen_at: new Date(Date.parse(day(1)) + i * 3_600_000).toISOString(),
      evidence: [{ text: `Price ${i}`, source_url: "https://alpha.example/pricing", observed_at: day(1) }],
    });
  await t.load(lines);
  acme = await mcpClient(t.base, await t.key("acme"));
});
afterAll(() => t.close());

const read = async (url: string) => {
  const res = await fetch(url);
  return { res, xml: await res.text() };
};

test("create_feed: the URL once, only its digest stored; a valid Atom feed, newest first, bounded", async () => {
  const f = await call("create_feed");
  expect(f.url).toMatch(new RegExp(`^${t.base}/feeds/rvf_[A-Za-z0-9_-]{43}$`));
  const token = f.url.split("/").at(-1);
  const stored = await t.services.database.client.execute("SELECT token_hash FROM feeds");
  expect(stored.rows).toHaveLength(1);
  expect(String(stored.rows[0].token_hash)).not.toContain(token);
  const log = await t.services.database.client.execute("SELECT data FROM events WHERE type = 'FeedCreated'");
  expect(String(log.rows[0].data)).not.toContain(token);

  const { res, xml } = await read(f.url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
  const feed = extractFromXml(xml, {
    descriptionMaxLen: 0,
    getExtraEntryFields: (entry) => ({ content: (entry as { content?: unknown }).content }),
  });
  expect(feed.title).toBe("ACME: competitor signals");
  expect(feed.entries).toHaveLength(FEED_ENTRIES);
  const titles = (feed.entries ?? []).map((e) => e.title);
  expect(titles[0]).toBe("Beta <script>alert(1)</script> launches");
  expect(titles[1]).toBe(`Alpha move ${FEED_ENTRIES + 5}`);
  for (const e of feed.entries ?? []) expect(e.link).toMatch(new RegExp(`^${t.base}/app/signals/\\d+$`));
  const hostile = (feed.entries ?? [])[0] as { description?: string; content?: unknown };
  expect(hostile.description).toBe("A launch & more.");
  const content = JSON.stringify(hostile.content);
  expect(content).toContain("Beta blog");
  expect(content).toContain("Severity: Medium");
  // The content is HTML: the site's markup in it is text, escaped once more than the page's own markup.
  expect(xml).toContain("&lt;li&gt;&lt;a href=&quot;https://beta.example/blog?a=1&amp;amp;b=2&quot;&gt;");
  expect(xml).toContain("&amp;lt;img src=x onerror=");
  expect(xml).not.toContain("<script>");
  expect(xml).not.toContain("<img");
});

test("one competitor's feed holds only its signals; another workspace's competitor is not found", async () => {
  const list = await call("list_competitors");
  const beta = list.competitors.find((c: { name: string }) => c.name === "Beta & Co");
  const f = await call("create_feed", { competitor_id: beta.id });
  const { xml } = await read(f.url);
  const feed = extractFromXml(xml, { descriptionMaxLen: 0 });
  expect(feed.title).toBe("ACME: signals on Beta & Co");
  expect((feed.entries ?? []).map((e) => e.title)).toEqual(["Beta <script>alert(1)</script> launches"]);
  const other = body(
    await (await mcpClient(t.base, await t.key("other"))).callTool({
      name: "create_feed",
      arguments: { competitor_id: beta.id },
    }),
  );
  expect(other.error.code).toBe("not_found");
});

test("a member makes a feed on the integrations page, sees its address once, and revokes it: then 404", async () => {
  const bob = await signedIn(t, await member(t, "acme", "member"));
  const html = await (await bob.request("/app/settings/integrations?org=acme")).text();
  const form = parseForms(html).find((f) => f.action === "/app/settings/integrations/feeds")!;
  const res = await bob.post(form.action, formValues(form));
  expect(res.status).toBe(200);
  const page = await res.text();
  const url = /id="new-feed-url"[^>]*value="([^"]+)"/.exec(page)?.[1] ?? "";
  expect(url).toContain("/feeds/rvf_");
  expect((await read(url)).res.status).toBe(200);
  const again = await (await bob.request("/app/settings/integrations?org=acme")).text();
  expect(again).not.toContain(url);
  const revoke = parseForms(again).filter((f) => /\/feeds\/\d+\/revoke$/.test(f.action));
  expect(revoke.length).toBe(3);
  const out = await bob.post(revoke.at(-1)!.action, formValues(revoke.at(-1)!));
  expect(out.status).toBe(303);
  expect((await read(url)).res.status).toBe(404);
  expect((await read(`${t.base}/feeds/rvf_${"x".repeat(43)}`)).res.status).toBe(404);
});
