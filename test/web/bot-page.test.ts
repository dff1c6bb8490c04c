// The public /bot page the crawler's User-Agent points to: what it fetches, how often, how to opt out,
// whom to contact — with this instance's own numbers.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let withContact: TestServer;

beforeAll(async () => {
  t = await startTestServer({ RIVALS_FETCH_DELAY_MS: "2000", RIVALS_FETCH_TIMEOUT_MS: "15000" });
  withContact = await startTestServer({ RIVALS_BOT_CONTACT: "crawler@rivals.example" });
});
afterAll(async () => {
  await t.close();
  await withContact.close();
});

test("/bot explains the crawler, its pace and the robots.txt opt-out", async () => {
  const res = await fetch(`${t.base}/bot`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/html");
  const html = await res.text();
  expect(html).toContain(`RivalsBot/1.0 (+${t.base}/bot)`);
  expect(html).toContain("User-agent: RivalsBot\nDisallow: /");
  expect(html).toContain("at least 2 seconds");
  expect(html).toContain("up to 10 seconds");
  expect(html).toContain("at most once an hour");
  expect(html).toContain("15 seconds");
  expect(html).toContain(`href="${t.base}"`);
  expect(html).toContain('<a href="/pricing">'); // the site's layout
});

test("/bot names the operator's contact when one is configured", async () => {
  const html = await (await fetch(`${withContact.base}/bot`)).text();
  expect(html).toContain('href="mailto:crawler@rivals.example"');
});
