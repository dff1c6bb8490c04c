// A GitHub organisation's repositories through the real comparison and classification: a new public
// repository is one low open-source signal with the repository as evidence; counters moving are nothing.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR } from "../../../fixtures/web/server.ts";
import { classify } from "../../../src/engine/classify/index.ts";
import { compare, seenOf } from "../../../src/engine/compare/index.ts";
import type { Snapshot } from "../../../src/engine/compare/types.ts";
import {
  githubOrgReposUrl,
  githubReposSnapshot,
  parseGithubRepos,
} from "../../../src/engine/sources/github.ts";
import { classifyAsOf } from "../../../src/engine/sources/kinds/index.ts";

const URL_ = githubOrgReposUrl("globex-insights");
const snap = (v: number): Snapshot =>
  githubReposSnapshot(
    URL_,
    parseGithubRepos(
      readFileSync(join(SITES_DIR, "api.github.com", `v${v}`, "orgs/globex-insights/repos.json"), "utf8"),
    )!,
  );

function run(prev: Snapshot, next: Snapshot) {
  return classify(compare(prev, next, seenOf([prev])), {
    competitor: { id: 1, name: "Globex" },
    ...classifyAsOf("github_org", ""),
    pageTitle: next.title,
    observedAt: "2026-11-24T12:00:00.000Z",
    previous: prev,
    snapshot: next,
  });
}

test("a new public repository: product/open_source, low, its GitHub page as evidence", () => {
  const drafts = run(snap(1), snap(2));
  expect(drafts.length).toBe(1);
  const d = drafts[0];
  expect([d.category, d.type, d.severity]).toEqual(["product", "open_source", "low"]);
  expect(d.title).toBe(
    "Globex publishes a new public repository on GitHub: globex-insights/globex-mcp-server",
  );
  expect(d.summary).toContain("Model Context Protocol server");
  expect(d.evidence).toEqual([
    {
      text: "globex-insights/globex-mcp-server — Model Context Protocol server that lets AI assistants query Globex Insights dashboards and metrics",
      source_title: "globex-insights on GitHub",
      source_url: "https://github.com/globex-insights/globex-mcp-server",
      observed_at: "2026-11-24T12:00:00.000Z",
    },
  ]);
  expect(d.key).toBe("product:open_source:globex-insights-globex-mcp-server");
});

test("stars, forks and push times moving give nothing; a repository already seen coming back gives nothing", () => {
  expect(run(snap(2), snap(3))).toEqual([]);
  // v2 → v1 → v2: the repository was seen before
  const back = classify(compare(snap(1), snap(2), seenOf([snap(1), snap(2)])), {
    competitor: { id: 1, name: "Globex" },
    pageKind: "github_org",
    observedAt: "2026-11-24T12:00:00.000Z",
  });
  expect(back).toEqual([]);
});
