// The kinds of source a competitor has, in one table: how each is fetched, how its body becomes a snapshot, how
// the snapshot store compares it (its snapshot kind) and which page kind the classification rules read for it.
// Research names a source's kind (home, pricing, careers … are all pages; a job board's kind names its provider:
// `job_board:greenhouse`); the cycle checks each source by its kind's row.
import { normaliseFeed, normaliseJobs, normaliseStructured } from "../compare/normalise.ts";
import type { Snapshot, SnapshotKind } from "../compare/types.ts";
import type { Fetcher, FetchResult } from "../fetch/index.ts";
import { appSnapshot, parseAppLookup } from "./appStore.ts";
import { type BoardRead, readJobBoard } from "./boards/read.ts";
import { notAFeed, parseFeed } from "./feeds.ts";
import {
  fetchGithub,
  githubReleasesSnapshot,
  githubReposSnapshot,
  parseGithubReleases,
  parseGithubRepos,
} from "./github.ts";
import { hnDomainOf, hnSnapshot, parseHnSearch } from "./hackernews.ts";
import { detectJobBoard } from "./jobBoards.ts";
import { npmFields, parseNpmPackage } from "./npm.ts";
import { parseSubmissions, secFilingsSnapshot } from "./sec.ts";
import { parseSecurityTxt } from "./securityTxt.ts";
import { readWikidata, wikidataFactsOf, wikidataFields } from "./wikidata.ts";

/** What reading a source now gave. */
export type SourceRead =
  | FetchResult
  | BoardRead
  | { ok: false; url: string; error: "unsupported_content"; status?: number; message: string };

export type SourceReadOk = Extract<SourceRead, { ok: true }>;

/** HTTP validators of the last good read (a conditional request). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type SourceKindName =
  | "page"
  | "feed"
  | "releases_feed"
  | "job_board"
  | "security_txt"
  | "github_org"
  | "github_releases"
  | "wikidata"
  | "npm_package"
  | "sec_filings"
  | "hn_mentions"
  | "app_store";

export interface SourceKind {
  name: SourceKindName;
  /** How it is fetched. */
  fetch(fetcher: Fetcher, url: string, validators: Validators): Promise<SourceRead>;
  /** How its body becomes a snapshot, or why it is none. A page has none here: it is extracted in the Worker
   * pool, read in a browser when it is an application shell (cycle/check.ts). */
  parse?(read: SourceReadOk, url: string): { snapshot: Snapshot } | { error: string };
  /** How the snapshot store keeps and compares it. */
  snapshot: SnapshotKind;
  /** The page kind the classification rules read (none: the page's own kind, home, pricing …). */
  classifyAs?: string;
  /** What a brief calls it when it cites it (`kind`: the source's full kind). */
  label(kind: string): string;
}

const get = (fetcher: Fetcher, url: string, validators: Validators) => fetcher.fetch({ url, ...validators });

export const SOURCE_KINDS: Record<SourceKindName, SourceKind> = {
  page: { name: "page", fetch: get, snapshot: "page", label: () => "page" },
  feed: {
    name: "feed",
    fetch: get,
    parse: feedSnapshot,
    snapshot: "feed",
    classifyAs: "feed",
    label: () => "feed",
  },
  releases_feed: {
    name: "releases_feed",
    fetch: get,
    parse: feedSnapshot,
    snapshot: "feed",
    classifyAs: "feed",
    label: () => "release feed",
  },
  // Read through the provider's API, in pages where it pages; an answer that is not the provider's list is a
  // failed read (boards/read.ts), never an empty board.
  job_board: {
    name: "job_board",
    fetch(fetcher, url, validators) {
      const board = detectJobBoard(url);
      if (!board)
        return Promise.resolve({
          ok: false,
          url,
          error: "unsupported_content",
          message: "not a job board's address",
        });
      return readJobBoard(fetcher, board, validators);
    },
    parse: (read, url) => ({ snapshot: normaliseJobs(url, "jobs" in read ? read.jobs : []) }),
    snapshot: "jobs",
    classifyAs: "jobs",
    label: (kind) => `job board (${kind.slice(JOB_BOARD.length)})`,
  },
  security_txt: {
    name: "security_txt",
    fetch: get,
    parse(read, url) {
      const sec = parseSecurityTxt(read.text);
      return sec
        ? { snapshot: normaliseStructured(url, sec as unknown as Record<string, unknown>) }
        : { error: "unsupported_content" };
    },
    snapshot: "structured",
    classifyAs: "security",
    label: () => "security.txt",
  },
  // The public repositories of a GitHub organisation the site links (github.ts): a new one is a new item.
  github_org: {
    name: "github_org",
    fetch: fetchGithub,
    parse(read, url) {
      const repos = parseGithubRepos(read.text);
      return repos ? { snapshot: githubReposSnapshot(url, repos) } : { error: "unsupported_content" };
    },
    snapshot: "feed",
    classifyAs: "github_org",
    label: () => "GitHub organisation",
  },
  // The releases of a GitHub repository the site links, through GitHub's REST API (github.ts): its stable
  // releases are feed items, read by the announcement rules as the release feed's are.
  github_releases: {
    name: "github_releases",
    fetch: fetchGithub,
    parse(read, url) {
      const releases = parseGithubReleases(read.text);
      return releases
        ? { snapshot: githubReleasesSnapshot(url, releases) }
        : { error: "unsupported_content" };
    },
    snapshot: "feed",
    classifyAs: "feed",
    label: () => "GitHub releases",
  },
  // The Wikidata item the site declares as itself (wikidata.ts): its facts in words, compared field by field.
  wikidata: {
    name: "wikidata",
    fetch: readWikidata,
    parse(read, url) {
      const facts = wikidataFactsOf(read.text);
      return facts
        ? { snapshot: normaliseStructured(url, wikidataFields(facts)) }
        : { error: "unsupported_content" };
    },
    snapshot: "structured",
    classifyAs: "wikidata",
    label: () => "Wikidata",
  },
  // An npm package the site links (npm.ts): its version line and deprecation, never its download counts.
  npm_package: {
    name: "npm_package",
    fetch: (fetcher, url, validators) =>
      fetcher.fetch({ url, ...validators, headers: { accept: "application/json" } }),
    parse(read, url) {
      const p = parseNpmPackage(read.text);
      return p ? { snapshot: normaliseStructured(url, npmFields(p)) } : { error: "unsupported_content" };
    },
    snapshot: "structured",
    classifyAs: "npm_package",
    label: () => "npm package",
  },
  // A public company's EDGAR filings (sec.ts), by the CIK its Wikidata item states.
  sec_filings: {
    name: "sec_filings",
    fetch: (fetcher, url, validators) =>
      fetcher.fetch({ url, ...validators, headers: { accept: "application/json" } }),
    parse(read, url) {
      const parsed = parseSubmissions(read.text);
      return parsed ? { snapshot: secFilingsSnapshot(url, parsed) } : { error: "unsupported_content" };
    },
    snapshot: "feed",
    classifyAs: "sec_filings",
    label: () => "SEC filings",
  },
  // Hacker News stories on the competitor's domain (hackernews.ts), past the points threshold.
  hn_mentions: {
    name: "hn_mentions",
    fetch: (fetcher, url, validators) =>
      fetcher.fetch({ url, ...validators, headers: { accept: "application/json" } }),
    parse(read, url) {
      const domain = hnDomainOf(url);
      const stories = domain ? parseHnSearch(read.text, domain) : null;
      return stories ? { snapshot: hnSnapshot(url, stories) } : { error: "unsupported_content" };
    },
    snapshot: "feed",
    classifyAs: "hacker_news",
    label: () => "Hacker News",
  },
  // An App Store app the site links (appStore.ts): its version, notes and rating, never its rating count.
  app_store: {
    name: "app_store",
    fetch: (fetcher, url, validators) =>
      fetcher.fetch({ url, ...validators, headers: { accept: "application/json" } }),
    parse(read, url) {
      const app = parseAppLookup(read.text);
      return app ? { snapshot: appSnapshot(url, app) } : { error: "unsupported_content" };
    },
    snapshot: "structured",
    classifyAs: "app_store",
    label: () => "App Store app",
  },
};

function feedSnapshot(read: SourceReadOk, url: string): { snapshot: Snapshot } | { error: string } {
  const wrong = notAFeed(read.text);
  return wrong ? { error: wrong } : { snapshot: normaliseFeed(url, parseFeed(read.text, url)) };
}

const JOB_BOARD = "job_board:";

/** The row of a source's kind (any kind that is not one of the others is a page). */
export function sourceKind(kind: string): SourceKind {
  if (kind.startsWith(JOB_BOARD)) return SOURCE_KINDS.job_board;
  return Object.hasOwn(SOURCE_KINDS, kind) && kind !== "job_board"
    ? SOURCE_KINDS[kind as SourceKindName]
    : SOURCE_KINDS.page;
}

/** The kind of a job board source of `provider`. */
export function jobBoardKind(provider: string): string {
  return `${JOB_BOARD}${provider}`;
}
