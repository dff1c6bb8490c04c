// robots.txt answers live in the database (migration 0092): two fetchers of two processes on one database read
// an origin's robots.txt once per its lifetime (the response's Cache-Control max-age, else a day), and the rules
// one of them read are obeyed by the other without asking the site again.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import { createFetcher, type FetchResult, workspaceFetcher } from "../../../src/engine/fetch/index.ts";
import { robotsStoreOf } from "../../../src/engine/fetch/robotsStore.ts";
import { openServices, type Services } from "../../../src/services.ts";

let site: ReturnType<typeof Bun.serve>;
let dir: string;
let a: Services;
let b: Services;
const robotsAsked: string[] = [];
const clock = { now: new Date("2026-11-20T12:00:00Z") };

beforeAll(async () => {
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const host = req.headers.get("host") ?? "";
      const path = new URL(req.url).pathname;
      if (path === "/robots.txt") {
        robotsAsked.push(host);
        if (host.startsWith("short.test"))
          return new Response("User-agent: *\nDisallow: /private\n", {
            headers: { "cache-control": "max-age=600" },
          });
        return new Response("User-agent: *\nDisallow: /private\n");
      }
      return new Response("<p>page</p>", { headers: { "content-type": "text/html" } });
    },
  });
  dir = mkdtempSync(join(tmpdir(), "rivals-robots-"));
  const env = {
    RIVALS_DB: `file:${join(dir, "shared.db")}`,
    RIVALS_ARCHIVE_MONTHS: "0",
    RIVALS_FETCH_DELAY_MS: "0",
    RIVALS_FETCH_REWRITE: `http://team.test=http://127.0.0.1:${site.port}`,
  };
  a = await openServices(loadConfig(env), () => clock.now);
  b = await openServices(loadConfig(env), () => clock.now);
});
afterAll(() => {
  a.close();
  b.close();
  site.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

const fetcherOf = (s: Services) =>
  createFetcher({
    userAgent: "RivalsBot/1.0 (+http://rivals.test/bot)",
    delayMs: 0,
    clock: () => clock.now,
    rewrite: ["short.test", "daily.test"].map((h) => ({
      from: `http://${h}`,
      to: `http://127.0.0.1:${site.port}`,
    })),
    robotsStore: robotsStoreOf(s),
  });
const ok = (r: FetchResult) => r.ok;
const advance = (ms: number) => {
  clock.now = new Date(clock.now.getTime() + ms);
};

test("a second process on the database obeys the robots.txt the first read, without asking the site", async () => {
  const one = fetcherOf(a);
  const two = fetcherOf(b);
  expect(ok(await one.fetch({ url: "http://daily.test/page" }))).toBe(true);
  expect(robotsAsked.filter((h) => h.startsWith("daily.test"))).toHaveLength(1);
  const refused = await two.fetch({ url: "http://daily.test/private/plans" });
  expect(refused.ok ? "fetched" : refused.error).toBe("robots_disallowed");
  expect(ok(await two.fetch({ url: "http://daily.test/page" }))).toBe(true);
  expect(robotsAsked.filter((h) => h.startsWith("daily.test"))).toHaveLength(1);
  // Without a lifetime of its own the answer lasts a day: a fresh process a day later asks again.
  advance(23 * 3_600_000);
  expect(ok(await fetcherOf(b).fetch({ url: "http://daily.test/page" }))).toBe(true);
  expect(robotsAsked.filter((h) => h.startsWith("daily.test"))).toHaveLength(1);
  advance(2 * 3_600_000);
  expect(ok(await fetcherOf(b).fetch({ url: "http://daily.test/page" }))).toBe(true);
  expect(robotsAsked.filter((h) => h.startsWith("daily.test"))).toHaveLength(2);
});

test("the response's max-age is the answer's lifetime, in every process", async () => {
  const one = fetcherOf(a);
  expect(ok(await one.fetch({ url: "http://short.test/page" }))).toBe(true);
  expect(ok(await fetcherOf(b).fetch({ url: "http://short.test/page" }))).toBe(true);
  expect(robotsAsked.filter((h) => h.startsWith("short.test"))).toHaveLength(1);
  advance(601_000);
  expect(ok(await fetcherOf(b).fetch({ url: "http://short.test/page" }))).toBe(true);
  expect(ok(await one.fetch({ url: "http://short.test/page" }))).toBe(true);
  expect(robotsAsked.filter((h) => h.startsWith("short.test"))).toHaveLength(2);
});

test("the workspace fetcher of each instance shares the database's answers", async () => {
  const one = (await workspaceFetcher(a, 1)).fetcher;
  const two = (await workspaceFetcher(b, 1)).fetcher;
  expect(one).not.toBe(two);
  expect(ok(await one.fetch({ url: "http://team.test/page" }))).toBe(true);
  const refused = await two.fetch({ url: "http://team.test/private" });
  expect(refused.ok ? "fetched" : refused.error).toBe("robots_disallowed");
  expect(robotsAsked.filter((h) => h.startsWith("team.test"))).toHaveLength(1);
});
