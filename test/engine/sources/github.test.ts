// GitHub through its REST API (the fixture web's files, in GitHub's answer shapes): an organisation's
// repositories and a repository's releases, snapshots that hold no counters, and the organisations a site's
// links name.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR } from "../../../fixtures/web/server.ts";
import { snapshotHash } from "../../../src/engine/compare/normalise.ts";
import { githubOrgsFrom } from "../../../src/engine/sources/feeds.ts";
import {
  githubOrgOf,
  githubOrgReposUrl,
  githubReleasesApiUrl,
  githubReleasesRepoOf,
  githubReleasesSnapshot,
  githubReposSnapshot,
  parseGithubReleases,
  parseGithubRepos,
} from "../../../src/engine/sources/github.ts";

const answer = (v: number, org = "globex-insights") =>
  readFileSync(join(SITES_DIR, "api.github.com", `v${v}`, "orgs", org, "repos.json"), "utf8");

test("the public repositories of GitHub's answer: forks and archived ones left out, newest first kept", () => {
  const repos = parseGithubRepos(answer(1))!;
  expect(repos.map((r) => r.fullName)).toEqual([
    "globex-insights/globex-terraform-provider",
    "globex-insights/globex-js",
    "globex-insights/docs",
  ]);
  expect(repos[1]).toEqual({
    fullName: "globex-insights/globex-js",
    name: "globex-js",
    url: "https://github.com/globex-insights/globex-js",
    description: "The official JavaScript/TypeScript SDK for the Globex Insights API",
    createdAt: "2021-09-07T15:31:08Z",
  });
});

test("an answer that is not GitHub's list is none (an error object, a page, a list of something else)", () => {
  expect(
    parseGithubRepos(
      '{"message":"API rate limit exceeded for 203.0.113.9.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}',
    ),
  ).toBeNull();
  expect(parseGithubRepos("<html><body>Unicorn!</body></html>")).toBeNull();
  expect(parseGithubRepos('[{"login":"octocat"}]')).toBeNull();
  expect(parseGithubRepos("[]")).toEqual([]);
});

test("stars, forks, issue counts and push times are no change; a new repository is one new item", () => {
  const url = githubOrgReposUrl("globex-insights");
  const snap = (v: number) => githubReposSnapshot(url, parseGithubRepos(answer(v))!);
  const v2 = snap(2);
  // v3 moves only counters and times
  expect(snapshotHash(snap(3))).toBe(snapshotHash(v2));
  expect(snapshotHash(githubReposSnapshot(url, parseGithubRepos(answer(3, "quantive-labs"))!))).toBe(
    snapshotHash(githubReposSnapshot(url, parseGithubRepos(answer(1, "quantive-labs"))!)),
  );
  const before = new Set(snap(1).items!.map((i) => i.id));
  expect(v2.items!.filter((i) => !before.has(i.id)).map((i) => [i.id, i.url])).toEqual([
    ["globex-insights/globex-mcp-server", "https://github.com/globex-insights/globex-mcp-server"],
  ]);
  expect(v2.title).toBe("globex-insights on GitHub");
});

test("the organisations a site's links name: an organisation's page or a repository's owner, once each", () => {
  expect(
    githubOrgsFrom([
      "https://github.com/globex-insights",
      "https://github.com/globex-insights/globex-js/releases",
      "https://www.github.com/Quantive-Labs/",
      "https://github.com/quantive-labs/quantive-cli",
      "https://github.com/features/actions",
      "https://github.com/sponsors/someone",
      "https://gitlab.com/globex",
      "not a url",
    ]),
  ).toEqual(["globex-insights", "Quantive-Labs"]);
  expect(githubOrgReposUrl("globex-insights")).toBe(
    "https://api.github.com/orgs/globex-insights/repos?type=public&sort=created&direction=desc&per_page=100",
  );
  expect(githubOrgOf(githubOrgReposUrl("globex-insights"))).toBe("globex-insights");
  expect(githubOrgOf("https://api.github.com/users/x/repos")).toBeUndefined();
});

const releases = (v: number, repo = "globex-insights/globex-js") =>
  readFileSync(join(SITES_DIR, "api.github.com", `v${v}`, "repos", repo, "releases.json"), "utf8");

test("a repository's releases: title, tag page, notes as plain text, publication time; pre-releases apart", () => {
  const list = parseGithubReleases(releases(2))!;
  expect(list.map((r) => [r.tag, r.prerelease])).toEqual([
    ["v4.3.0", false],
    ["v4.3.0-rc.1", true],
    ["v4.2.0", false],
    ["v4.1.1", false],
    ["v4.1.0", false],
  ]);
  expect(list[0]).toEqual({
    tag: "v4.3.0",
    title: "v4.3.0",
    url: "https://github.com/globex-insights/globex-js/releases/tag/v4.3.0",
    notes: "What's new: New: streaming answers in the Ask API; New: track() batching options",
    publishedAt: "2026-11-19T17:05:00Z",
    prerelease: false,
  });
  const url = githubReleasesApiUrl("globex-insights/globex-js");
  expect(url).toBe("https://api.github.com/repos/globex-insights/globex-js/releases?per_page=30");
  expect(githubReleasesRepoOf(url)).toBe("globex-insights/globex-js");
  const snap = (v: number, repo?: string) =>
    githubReleasesSnapshot(url, parseGithubReleases(releases(v, repo))!);
  // the snapshot holds the stable releases only
  expect(snap(1).items!.map((i) => i.title)).toEqual(["v4.1.0", "v4.1.1", "v4.2.0"]);
  expect(snap(2).items!.map((i) => i.title)).toContain("v4.3.0");
  // reactions and download counts moving are no change
  expect(snapshotHash(snap(3))).toBe(snapshotHash(snap(2)));
  expect(snapshotHash(snap(3, "quantive-labs/quantive-cli"))).toBe(
    snapshotHash(snap(1, "quantive-labs/quantive-cli")),
  );
  expect(parseGithubReleases('{"message":"Not Found","status":"404"}')).toBeNull();
  expect(parseGithubReleases('[{"name":"x"}]')).toBeNull();
});
