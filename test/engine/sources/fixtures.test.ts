// The source readers on the fixture web's v1 (fixtures/web): every value expected.ts says a feed, job
// board, changelog, security.txt, sitemap or the pages' technologies state is read, and nothing more.
import { expect, test } from "bun:test";
import { SITES } from "../../../fixtures/web/expected.ts";
import { resolveFixture } from "../../../fixtures/web/server.ts";
import { detectTech } from "../../../src/engine/extract/tech.ts";
import { githubReleasesFeedUrl, parseFeed } from "../../../src/engine/sources/feeds.ts";
import {
  detectJobBoard,
  hiringRead,
  jobBoardApiUrl,
  parseJobBoard,
} from "../../../src/engine/sources/jobBoards.ts";
import { changelogEntries, releaseCadence } from "../../../src/engine/sources/releases.ts";
import { parseSecurityTxt } from "../../../src/engine/sources/securityTxt.ts";
import { parseSitemap } from "../../../src/engine/sources/sitemap.ts";

function get(url: string): { status: number; headers: Record<string, string>; text: string } {
  const u = new URL(url);
  const r = resolveFixture(u.host, u.pathname + u.search, 1);
  return { status: r.status, headers: r.headers, text: r.body ? new TextDecoder().decode(r.body) : "" };
}

const sortBy = <T>(xs: T[]) => [...xs].sort();

for (const site of SITES) {
  test(`${site.key}: technologies over the site's own pages and headers`, () => {
    const urls = new Set([`${site.origin}/`, ...Object.values(site.pages), ...(site.sitemap?.urls ?? [])]);
    const found = new Map<string, string>();
    for (const url of urls) {
      if (new URL(url).host !== site.host) continue;
      const r = get(url);
      if (r.status !== 200) continue;
      for (const t of detectTech({ html: r.text, headers: r.headers })) found.set(t.name, t.evidence);
    }
    expect(sortBy([...found.keys()])).toEqual(sortBy(site.tech));
  });

  if (site.changelog) {
    const cl = site.changelog;
    test(`${site.key}: changelog entries and the feed that mirrors them`, () => {
      const entries = changelogEntries(get(cl.page).text, cl.page);
      expect(entries.map(({ title, date }) => ({ title, date }))).toEqual(cl.entries);
      if (cl.feed) {
        const items = parseFeed(get(cl.feed).text, cl.feed);
        expect(items.map((i) => ({ title: i.title, date: i.published?.slice(0, 10) }))).toEqual(cl.entries);
        expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
      }
      const cadence = releaseCadence(
        entries.map((e) => e.date),
        new Date("2026-11-22T00:00:00Z"),
        cl.page,
      );
      expect(cadence?.last_release_at.slice(0, 10)).toBe(cl.entries[0].date);
    });
  }

  if (site.feeds.length) {
    test(`${site.key}: every advertised feed parses to dated items with URLs`, () => {
      for (const feed of site.feeds) {
        const items = parseFeed(get(feed).text, feed);
        expect(items.length).toBeGreaterThan(0);
        for (const item of items) {
          expect(item.published).toMatch(/^\d{4}-\d{2}-\d{2}T/);
          expect(item.url).toMatch(/^https:\/\//);
        }
      }
    });
  }

  if (site.github) {
    const gh = site.github;
    test(`${site.key}: GitHub releases feed`, () => {
      expect(githubReleasesFeedUrl(gh.repo)).toBe(gh.releasesFeed);
      const items = parseFeed(get(gh.releasesFeed).text, gh.releasesFeed);
      expect(items.map((i) => ({ title: i.title, date: i.published?.slice(0, 10) }))).toEqual(gh.releases);
    });
  }

  if (site.jobs?.board) {
    const jobs = site.jobs;
    const board = jobs.board!;
    test(`${site.key}: ${board.provider} board detected, read through its API, hiring read`, () => {
      const b = detectJobBoard(board.url);
      expect(b).toEqual({ provider: board.provider, token: board.token });
      expect(jobBoardApiUrl(b!)).toBe(board.apiUrl);
      const list = parseJobBoard(b!.provider, get(board.apiUrl).text);
      expect(sortBy(list.map((j) => j.title))).toEqual(sortBy(jobs.titles));
      const read = hiringRead(list, b!.provider);
      expect(read.open_roles).toBe(jobs.open_roles);
      expect(read.by_department).toEqual(jobs.by_department);
      expect(sortBy(read.locations)).toEqual(sortBy(jobs.locations));
      expect(read.board).toBe(board.provider);
    });
  }

  if (site.securityTxt) {
    const sec = site.securityTxt;
    test(`${site.key}: security.txt`, () => {
      const parsed = parseSecurityTxt(get(`${site.origin}/.well-known/security.txt`).text);
      expect(parsed?.contact).toEqual(sec.contact);
      expect(parsed?.expires).toBe(new Date(sec.expires).toISOString());
    });
  }

  if (site.sitemap) {
    const sm = site.sitemap;
    test(`${site.key}: sitemap${sm.index ? " index" : ""} from robots.txt`, () => {
      const robots = get(`${site.origin}/robots.txt`).text;
      expect(robots).toContain(`Sitemap: ${sm.robotsSitemap}`);
      const top = parseSitemap(get(sm.robotsSitemap).text, sm.robotsSitemap);
      expect(top.sitemaps.length > 0).toBe(sm.index);
      let urls = top.urls;
      for (const child of top.sitemaps) urls = urls.concat(parseSitemap(get(child).text, child).urls);
      expect(urls).toEqual(sm.urls);
    });
  }
}
