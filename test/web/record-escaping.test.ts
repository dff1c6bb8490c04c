// Imported records carry whatever their source wrote: every value a record page shows is text, never markup.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { member, signedIn } from "../support/oauth-helpers.ts";

const XSS = '<img src=x onerror="alert(1)">';
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  const r = await t.load([
    {
      kind: "digest",
      org: "acme",
      key: "d-hostile",
      slug: "hostile",
      type: `weekly ${XSS}`,
      status: "generated",
      title: `Week ${XSS}`,
      headline: `Headline ${XSS}`,
      tldr: `Summary ${XSS}`,
      what_to_watch: `Watch ${XSS}`,
      coverage_period_start: "2026-11-09T00:00:00Z",
      coverage_period_end: "2026-11-16T00:00:00Z",
      generated_at: "2026-11-16T06:00:00Z",
      markdown: `# Week\n\nBody ${XSS} [x](javascript:alert(1))`,
    },
  ]);
  expect(r.errors).toEqual([]);
});
afterAll(() => t.close());

test("a digest's type, title, headline, summary and Markdown show as text on its page", async () => {
  const b = await signedIn(t, await member(t, "acme", "member"));
  const res = await b.request("/app/digests/hostile?org=acme");
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain("onerror");
  expect(html).not.toContain("<img");
  expect(html).not.toContain('href="javascript:');
});
