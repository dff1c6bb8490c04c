// The releases of a GitHub repository the site links, through GitHub's REST API (../github.ts): its stable
// releases are feed items, read by the announcement rules as GitHub releases, named by their repository.
import type { FeedItem } from "../feeds.ts";
import { githubReposFrom } from "../feeds.ts";
import {
  fetchGithub,
  type GithubRelease,
  githubReleaseItems,
  githubReleasesApiUrl,
  githubReleasesRepoOf,
  githubReleasesSnapshot,
  parseGithubReleases,
} from "../github.ts";
import { cadenceNow } from "./feed.ts";
import { allLinks, discoveryRead, type SourceKind } from "./kind.ts";

const MAX_REPOS = 2;

/** The releases of the repositories the site links (`items`: the stable ones). */
export type ReleasesFound = { url: string; repo?: string; items: FeedItem[]; releases?: GithubRelease[] }[];

export const githubReleases: SourceKind<ReleasesFound, "github_releases"> = {
  name: "github_releases",
  fetch: fetchGithub,
  parse(read, url) {
    const releases = parseGithubReleases(read.text);
    return releases ? { snapshot: githubReleasesSnapshot(url, releases) } : { error: "unsupported_content" };
  },
  snapshot: "feed",
  classifyAs: (_, url) => ({ pageKind: "github", sourceName: githubReleasesRepoOf(url)?.split("/")[1] }),
  label: () => "GitHub releases",
  observe: cadenceNow,
  discovery: {
    async read(s, io) {
      const repos = githubReposFrom([s.home, ...s.pages].flatMap((p) => allLinks(p.extract))).slice(
        0,
        MAX_REPOS,
      );
      const out: ReleasesFound = [];
      for (const repo of repos) {
        const url = githubReleasesApiUrl(repo);
        const releases = await discoveryRead(io, url, fetchGithub, parseGithubReleases);
        if (releases) out.push({ url, repo, items: githubReleaseItems(releases), releases });
      }
      return out;
    },
    sources: (feeds) =>
      feeds.map((f) => ({
        url: f.url,
        kind: githubReleasesRepoOf(f.url) ? "github_releases" : "releases_feed",
      })),
  },
};
