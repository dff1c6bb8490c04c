// The table of source kinds: each kind research names is fetched, parsed, compared and classified by its row;
// any other kind is a page.
import { expect, test } from "bun:test";
import type { Fetcher, FetchResult } from "../../../src/engine/fetch/index.ts";
import {
  classifyAsOf,
  jobBoardKind,
  type SourceReadOk,
  sourceKind,
} from "../../../src/engine/sources/kinds/index.ts";

const answer = (url: string, text: string, contentType = "text/plain"): SourceReadOk => ({
  ok: true,
  url,
  finalUrl: url,
  status: 200,
  notModified: false,
  headers: {},
  contentType,
  text,
  bytes: text.length,
  redirects: [],
  fetchedAt: "2026-01-01T00:00:00.000Z",
});

test("each kind's snapshot kind, the page kind its rules read, and its name in a brief", () => {
  const rows = [
    "home",
    "pricing",
    "monitored",
    "feed",
    "releases_feed",
    jobBoardKind("lever"),
    "security_txt",
    "github_org",
    "github_releases",
    "wikidata",
  ].map((k) => {
    const row = sourceKind(k);
    return [k, row.name, row.snapshot, row.classifyAs(k, "https://a.test/x.xml").pageKind, row.label(k)];
  });
  expect(rows).toEqual([
    ["home", "page", "page", "home", "page"],
    ["pricing", "page", "page", "pricing", "page"],
    ["monitored", "page", "page", "monitored", "page"],
    ["feed", "feed", "feed", "feed", "feed"],
    ["releases_feed", "releases_feed", "feed", "feed", "release feed"],
    ["job_board:lever", "job_board", "jobs", "jobs", "job board (lever)"],
    ["security_txt", "security_txt", "structured", "security", "security.txt"],
    ["github_org", "github_org", "feed", "github_org", "GitHub organisation"],
    ["github_releases", "github_releases", "feed", "github", "GitHub releases"],
    ["wikidata", "wikidata", "structured", "wikidata", "Wikidata"],
  ]);
  // a kind without its provider, or a name an object inherits, is a page
  expect(sourceKind("job_board").name).toBe("page");
  expect(sourceKind("toString").name).toBe("page");
  expect(sourceKind("home").parse).toBeUndefined();
});

test("a feed is read by the announcement rules as a repository's releases, a changelog's feed or a feed", () => {
  const feed = sourceKind("feed");
  expect(feed.classifyAs("feed", "https://github.com/globex/globex-js/releases.atom")).toEqual({
    pageKind: "github",
    sourceName: "globex-js",
  });
  expect(feed.classifyAs("feed", "https://a.test/changelog/rss.xml")).toEqual({ pageKind: "changelog" });
  expect(feed.classifyAs("feed", "https://a.test/blog/rss.xml")).toEqual({ pageKind: "feed" });
  const api = "https://api.github.com/repos/globex/globex-js/releases?per_page=30";
  expect(sourceKind("github_releases").classifyAs("github_releases", api)).toEqual({
    pageKind: "github",
    sourceName: "globex-js",
  });
  // a kind with its own rules routes its changes to them
  expect(classifyAsOf("wikidata", "").rules?.map((r) => r.info.id)).toEqual(["chiefExecutive"]);
});

test("a feed that is no feed and a security.txt without fields are errors, not empty snapshots", () => {
  const feed = sourceKind("feed").parse!;
  expect(
    feed(answer("https://a.test/feed.xml", "<html><body>Down for maintenance</body></html>"), "x"),
  ).toEqual({
    error: "not_feed_response",
  });
  const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>A</title>
    <item><title>Launch</title><link>https://a.test/launch</link><pubDate>Mon, 05 Jan 2026 10:00:00 GMT</pubDate></item>
    </channel></rss>`;
  const read = feed(answer("https://a.test/feed.xml", rss, "application/rss+xml"), "https://a.test/feed.xml");
  expect("snapshot" in read && read.snapshot.kind).toBe("feed");
  const sec = sourceKind("security_txt").parse!;
  expect(sec(answer("https://a.test/.well-known/security.txt", "<html>nope</html>"), "x")).toEqual({
    error: "unsupported_content",
  });
  const ok = sec(
    answer(
      "https://a.test/.well-known/security.txt",
      "Contact: mailto:security@a.test\nExpires: 2027-01-01T00:00:00Z\n",
    ),
    "https://a.test/.well-known/security.txt",
  );
  expect("snapshot" in ok && ok.snapshot.kind).toBe("structured");
});

test("a job board source whose address names no board fails without a request", async () => {
  const asked: string[] = [];
  const fetcher: Fetcher = {
    fetch(req) {
      asked.push(req.url);
      return Promise.resolve({
        ok: false,
        url: req.url,
        error: "network",
        message: "no",
        fetchedAt: "",
      } as FetchResult);
    },
  };
  const r = await sourceKind(jobBoardKind("greenhouse")).fetch(fetcher, "https://a.test/careers", {});
  expect(r.ok).toBe(false);
  expect(!r.ok && r.error).toBe("unsupported_content");
  expect(asked).toEqual([]);
  // a page is one GET, with the validators it is given
  await sourceKind("pricing").fetch(fetcher, "https://a.test/pricing", { etag: '"v1"' });
  expect(asked).toEqual(["https://a.test/pricing"]);
});

test("what a changed source says for the dossier comes from its kind: a feed's cadence, a board's hiring", () => {
  const at = new Date("2026-11-24T12:00:00.000Z");
  const dates = ["2026-11-20", "2026-11-06", "2026-10-23", "2026-10-09"].map((d) => `${d}T10:00:00.000Z`);
  const src = (kind: string) => ({ url: "https://a.test/changelog.xml", kind });
  for (const k of ["feed", "releases_feed", "github_releases"])
    expect(sourceKind(k).observe?.(src(k), { itemDates: dates }, at).release_cadence).toBeDefined();
  // a GitHub organisation's new repositories are feed items, not releases
  expect(sourceKind("github_org").observe).toBeUndefined();
  const board = jobBoardKind("lever");
  const hiring = sourceKind(board).observe?.(src(board), { jobs: [{ title: "Engineer" }] }, at).hiring;
  expect(hiring).toMatchObject({ open_roles: 1, board: "lever" });
});
