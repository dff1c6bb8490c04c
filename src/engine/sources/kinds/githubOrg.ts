// The public repositories of a GitHub organisation the site itself links (its pages' links and its JSON-LD
// sameAs), through GitHub's REST API (../github.ts): a new one is a new item, read by its own rule.
import { evidence, push, type Rules, rule } from "../../classify/rule.ts";
import { clip, slug } from "../../classify/wording.ts";
import type { Change } from "../../compare/types.ts";
import { githubOrgsFrom } from "../feeds.ts";
import {
  fetchGithub,
  type GithubRepo,
  githubOrgReposUrl,
  githubReposSnapshot,
  parseGithubRepos,
} from "../github.ts";
import { discoveryRead, linkedUrls, type SourceKind, sameAsUrls } from "./kind.ts";

/** GitHub organisations research reads (GitHub answers 60 requests an hour to a caller without a token). */
const MAX_GITHUB_ORGS = 2;

export type GithubOrgsFound = { url: string; org: string; repos: GithubRepo[] }[];

export const newRepository = rule(
  {
    id: "newRepository",
    family: "github_org",
    reads: ["feed_item_added"],
    gives: { product: ["open_source"] },
    severity: "low",
    when: "A new public repository (not a fork, not archived) under a GitHub organisation the site links.",
  },
  function newRepository(r: Rules, c: Change): void {
    const org = r.ctx.pageTitle?.replace(/ on GitHub$/, "") ?? "GitHub";
    const name = c.subject;
    const about = c.context ? clip(c.context, 300) : undefined;
    const text = about ? `${org}/${name} — ${about}` : `${org}/${name}`;
    push(r, {
      key: `product:open_source:${slug(`${org}-${name}`)}`,
      category: "product",
      type: "open_source",
      severity: "low",
      severity_reasons: ["a new public repository: work in the open, not yet a release"],
      confidence: 0.9,
      confidence_reasons: ["listed by GitHub's API among the organisation's public repositories"],
      title: `${r.name} publishes a new public repository on GitHub: ${org}/${name}`,
      summary: about
        ? `${r.name} published ${org}/${name} on GitHub: ${about}`
        : `${r.name} published ${org}/${name} on GitHub.`,
      evidence: [evidence(r, c, text, c.link ?? c.url, `${org} on GitHub`)],
      subject: `${org}/${name}`,
    });
  },
);

export const githubOrg: SourceKind<GithubOrgsFound, "github_org"> = {
  name: "github_org",
  fetch: fetchGithub,
  parse(read, url) {
    const repos = parseGithubRepos(read.text);
    return repos ? { snapshot: githubReposSnapshot(url, repos) } : { error: "unsupported_content" };
  },
  snapshot: "feed",
  classifyAs: () => ({ pageKind: "github_org" }),
  rules: [newRepository],
  label: () => "GitHub organisation",
  discovery: {
    /** An organisation found any other way than the site's own links is not the competitor's by its own word. */
    async read(s, io) {
      const orgs = githubOrgsFrom([...linkedUrls(s), ...sameAsUrls(s)]).slice(0, MAX_GITHUB_ORGS);
      const out: GithubOrgsFound = [];
      for (const org of orgs) {
        const url = githubOrgReposUrl(org);
        const repos = await discoveryRead(io, url, fetchGithub, parseGithubRepos);
        if (repos) out.push({ url, org, repos });
      }
      return out;
    },
    sources: (orgs) => orgs.map((g) => ({ url: g.url, kind: "github_org" })),
  },
};
