// GitHub, read through its REST API (api.github.com; github.com's robots.txt refuses crawlers its `.atom` feeds):
// the public repositories of an organisation the competitor's site links (GET /orgs/{org}/repos, newest first),
// and the releases of a repository it links (GET /repos/{owner}/{repo}/releases). A snapshot holds what a
// person reads — names, addresses, descriptions, release notes, dates — never stars, forks, watchers, download
// counts or push times, which move every day and say nothing: their jitter is no change at all.
import { normaliseFeed } from "../compare/normalise.ts";
import type { Snapshot } from "../compare/types.ts";
import type { Fetcher, FetchResult } from "../fetch/index.ts";
import type { FeedItem } from "./feeds.ts";
import type { Validators } from "./kinds/kind.ts";

/** One public repository as the snapshot keeps it. */
export interface GithubRepo {
  /** `org/name` */
  fullName: string;
  name: string;
  url: string;
  description?: string;
  createdAt?: string;
}

const API = "https://api.github.com";
/** The newest 100 repositories: a new one is always on the first page. */
const QUERY = "?type=public&sort=created&direction=desc&per_page=100";
const ORG = /^https:\/\/api\.github\.com\/orgs\/([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/repos(?:\?|$)/;

/** The address of an organisation's public repositories. */
export function githubOrgReposUrl(org: string): string {
  return `${API}/orgs/${org}/repos${QUERY}`;
}

/** The organisation a repositories address names. */
export function githubOrgOf(url: string): string | undefined {
  return ORG.exec(url)?.[1];
}

/** Asks as GitHub's REST API documents it: its media type and API version. */
export function fetchGithub(fetcher: Fetcher, url: string, validators: Validators): Promise<FetchResult> {
  return fetcher.fetch({
    url,
    ...validators,
    headers: { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" },
  });
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** The JSON array GitHub's list endpoints answer with, or null when the text is not one (an error object, a page). */
function jsonArray(text: string): unknown[] | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  return Array.isArray(data) ? data : null;
}

/** The public repositories of GitHub's answer (forks and archived ones left out: neither is the organisation's
 * new work), or null when the answer is not GitHub's list of repositories (an error object, a page). */
export function parseGithubRepos(text: string): GithubRepo[] | null {
  const data = jsonArray(text);
  if (!data) return null;
  const out: GithubRepo[] = [];
  for (const r of data) {
    if (!r || typeof r !== "object") return null;
    const o = r as Record<string, unknown>;
    const name = str(o.name);
    const fullName = str(o.full_name);
    const url = str(o.html_url);
    if (!name || !fullName || !url || !/^https:\/\/github\.com\//.test(url)) return null;
    if (o.private === true || o.fork === true || o.archived === true) continue;
    const repo: GithubRepo = { fullName, name, url };
    const description = str(o.description);
    if (description) repo.description = description;
    const createdAt = str(o.created_at);
    if (createdAt) repo.createdAt = createdAt;
    out.push(repo);
  }
  return out;
}

/** The snapshot of an organisation's repositories: one item per repository, by its full name. */
export function githubReposSnapshot(url: string, repos: GithubRepo[]): Snapshot {
  const org = githubOrgOf(url);
  return normaliseFeed(
    url,
    repos.map((r) => ({
      id: r.fullName,
      title: r.name,
      url: r.url,
      ...(r.createdAt ? { published: r.createdAt } : {}),
      ...(r.description ? { summary: r.description } : {}),
    })),
    org ? `${org} on GitHub` : undefined,
  );
}

// ---------------------------------------------------------------- releases

/** One published release (drafts are never public). */
export interface GithubRelease {
  tag: string;
  /** The release's title, else its tag. */
  title: string;
  url: string;
  /** Its notes as plain text. */
  notes?: string;
  publishedAt?: string;
  prerelease: boolean;
}

const REPO_RELEASES = /^https:\/\/api\.github\.com\/repos\/([^/?#]+\/[^/?#]+)\/releases(?:\?|$)/;

/** The address of a repository's releases (`org/repo`), the newest 30. */
export function githubReleasesApiUrl(repo: string): string {
  return `${API}/repos/${repo}/releases?per_page=30`;
}

/** The `org/repo` a releases address names. */
export function githubReleasesRepoOf(url: string): string | undefined {
  return REPO_RELEASES.exec(url)?.[1];
}

/** Release notes (GitHub Markdown) as the plain text a person reads: a heading leads what follows it
 * ("What's new: …"), list items and paragraphs are separated, so two lines never run into one phrase. */
function plainNotes(md: string): string {
  const text = md
    .replace(/<!--[\s\S]*?-->/g, " ")
    // GitHub's generated compare link and contributor lines are no news
    .replace(/^\s*\**(?:Full Changelog|New Contributors)\**:?.*$/gim, " ")
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1");
  const parts: string[] = [];
  for (const raw of text.split("\n")) {
    const heading = /^\s{0,3}#{1,6}\s+/.test(raw);
    const line = raw
      .replace(/^\s{0,3}(?:#{1,6}|[-*+]|\d+\.)\s+/, "")
      .replace(/[*_`>]+/g, "")
      .replace(/\s+/g, " ")
      .trim();
    if (line) parts.push(heading && !/[.:;!?]$/.test(line) ? `${line}:` : line);
  }
  return parts.reduce((out, p) => (out ? `${out}${/[.:;!?]$/.test(out) ? " " : "; "}${p}` : p), "");
}

/** The published releases of GitHub's answer, newest first as it lists them, or null when the answer is not
 * GitHub's list of releases. */
export function parseGithubReleases(text: string): GithubRelease[] | null {
  const data = jsonArray(text);
  if (!data) return null;
  const out: GithubRelease[] = [];
  for (const r of data) {
    if (!r || typeof r !== "object") return null;
    const o = r as Record<string, unknown>;
    const tag = str(o.tag_name);
    const url = str(o.html_url);
    if (!tag || !url || !/^https:\/\/github\.com\//.test(url)) return null;
    if (o.draft === true) continue;
    const release: GithubRelease = { tag, title: str(o.name) ?? tag, url, prerelease: o.prerelease === true };
    const notes = typeof o.body === "string" ? plainNotes(o.body) : "";
    if (notes) release.notes = notes.slice(0, 300);
    const at = str(o.published_at) ?? str(o.created_at);
    if (at) release.publishedAt = at;
    out.push(release);
  }
  return out;
}

/** A repository's stable releases as feed items (a pre-release is not what its users run; research counts it
 * in its own channel of the release cadence). */
export function githubReleaseItems(releases: GithubRelease[]): FeedItem[] {
  return releases
    .filter((r) => !r.prerelease)
    .map((r) => ({
      id: r.url,
      title: r.title,
      url: r.url,
      ...(r.publishedAt ? { published: r.publishedAt } : {}),
      ...(r.notes ? { summary: r.notes } : {}),
    }));
}

/** The snapshot of a repository's releases. */
export function githubReleasesSnapshot(url: string, releases: GithubRelease[]): Snapshot {
  const repo = githubReleasesRepoOf(url);
  return normaliseFeed(url, githubReleaseItems(releases), repo ? `Releases of ${repo}` : undefined);
}
