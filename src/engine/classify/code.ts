// Code rules: a GitHub organisation the competitor's site links (sources/github.ts) and the npm packages it links
// (sources/npm.ts). A new public repository is a low signal with the repository as its evidence; a package's new
// major version or its deprecation is a medium one with its npm page. Stars, push times and download counts are
// not in the snapshots, so they never reach a rule.
import { possessive } from "../../domain/prose.ts";
import type { Change } from "../compare/types.ts";
import { evidence, push, type Rules, rule } from "./rule.ts";
import { clip, slug } from "./wording.ts";

export const newRepository = rule(
  {
    id: "newRepository",
    family: "code",
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

export const npmPackage = rule(
  {
    id: "npmPackage",
    family: "code",
    reads: ["field_changed"],
    gives: { product: ["release", "feature_removed"] },
    severity: "medium",
    when: "An npm package the site links (its repository or homepage the competitor's) gets a new major version as its latest, or its latest version is deprecated.",
  },
  function npmPackage(r: Rules, c: Change): boolean {
    const name = r.ctx.snapshot?.fields?.name ?? /registry\.npmjs\.org\/(.+)$/.exec(c.url)?.[1];
    if (!name) return false;
    const pkg = decodeURIComponent(name);
    const page = `https://www.npmjs.com/package/${pkg}`;
    if (c.subject === "latest_major" && c.before && c.after && Number(c.after) > Number(c.before)) {
      const latest = r.ctx.snapshot?.fields?.latest;
      const version = latest && /^\d/.test(latest) ? latest : `${c.after}.x`;
      push(r, {
        key: `product:release:npm-${slug(pkg)}-v${c.after}`,
        category: "product",
        type: "release",
        severity: "medium",
        severity_reasons: [`a new major version (${c.before} → ${c.after}): breaking changes for its users`],
        confidence: 0.9,
        confidence_reasons: ["the npm registry's latest dist-tag"],
        title: `${r.name} released ${pkg} ${version} on npm, a new major version`,
        summary: `${possessive(r.name)} npm package ${pkg} moved from major version ${c.before} to ${c.after} (${version}).`,
        evidence: [
          evidence(r, c, `${pkg}: latest ${version} (major ${c.before} → ${c.after})`, page, `${pkg} on npm`),
        ],
        subject: `${pkg} ${version}`,
      });
      return true;
    }
    if (c.subject === "deprecated" && c.after && !c.before) {
      push(r, {
        key: `product:feature_removed:npm-${slug(pkg)}`,
        category: "product",
        type: "feature_removed",
        severity: "medium",
        severity_reasons: ["a package its users depend on is deprecated"],
        confidence: 0.9,
        confidence_reasons: ["the npm registry marks the latest version deprecated"],
        title: `${r.name} deprecates its npm package ${pkg}`,
        summary: `${r.name} deprecated ${pkg} on npm: ${clip(c.after, 300)}`,
        evidence: [evidence(r, c, `${pkg} deprecated: ${c.after}`, page, `${pkg} on npm`)],
        subject: pkg,
      });
      return true;
    }
    return false;
  },
);
