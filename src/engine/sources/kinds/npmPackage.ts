// An npm package the site links (../npm.ts), used only when its registry metadata ties it to the competitor
// (its repository under a GitHub organisation the site links, or its homepage on the site's domain): its
// version line and deprecation, never its download counts, read by its own rule; the dossier's packages, kept
// current by the cycles that see the package change.
import { possessive } from "../../../domain/prose.ts";
import { evidence, push, type Rules, rule } from "../../classify/rule.ts";
import { clip, slug } from "../../classify/wording.ts";
import { normaliseStructured } from "../../compare/normalise.ts";
import type { Change } from "../../compare/types.ts";
import { githubOrgsFrom } from "../feeds.ts";
import {
  downloadsOf,
  isCompetitorsPackage,
  type NpmPackage,
  npmDownloadsUrl,
  npmFields,
  npmPackagesFrom,
  npmPage,
  npmRegistryUrl,
  parseNpmDownloads,
  parseNpmPackage,
  readNpm,
} from "../npm.ts";
import { discoveryRead, getJson, linkedUrls, type SourceKind, sameAsUrls } from "./kind.ts";

/** What the dossier says of a package now (its entry of `reads.packages` but its name, page and source). */
function packageNow(
  pkg: NpmPackage,
  downloads: { downloads: number; start: string; end: string } | undefined,
  downloadsUrl: string | undefined,
): Record<string, unknown> {
  return {
    latest: pkg.latest,
    latest_at: pkg.latestAt,
    deprecated: pkg.deprecated,
    ...(downloads
      ? {
          weekly_downloads: downloads.downloads,
          downloads_week: { start: downloads.start, end: downloads.end },
          downloads_source: downloadsUrl,
        }
      : {}),
  };
}

/** npm packages research reads. */
const MAX_NPM_PACKAGES = 4;

/** The competitor's packages, with last week's downloads when read. */
export type NpmFound = {
  url: string;
  pkg: NpmPackage;
  downloads?: { downloads: number; start: string; end: string };
  downloadsUrl?: string;
}[];

export const npmPackageRule = rule(
  {
    id: "npmPackage",
    family: "npm_package",
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

export const npmPackage: SourceKind<NpmFound, "npm_package"> = {
  name: "npm_package",
  fetch: readNpm,
  parse(read, url) {
    const p = parseNpmPackage(read.text);
    const d = downloadsOf(read.text);
    return p
      ? { snapshot: normaliseStructured(url, npmFields(p)), read: packageNow(p, d, d?.source) }
      : { error: "unsupported_content" };
  },
  // A cycle that sees the package change (a version, a deprecation) reads its downloads now too.
  observe: (_src, now) => (now.read ? { package: now.read } : {}),
  snapshot: "structured",
  classifyAs: () => ({ pageKind: "npm_package" }),
  rules: [npmPackageRule],
  label: () => "npm package",
  discovery: {
    async read(s, io) {
      const linked = [...linkedUrls(s), ...sameAsUrls(s)];
      const orgs = githubOrgsFrom(linked);
      const out: NpmFound = [];
      for (const name of npmPackagesFrom(linked).slice(0, MAX_NPM_PACKAGES)) {
        const url = npmRegistryUrl(name);
        const pkg = await discoveryRead(io, url, getJson, parseNpmPackage);
        if (!pkg) continue;
        if (!isCompetitorsPackage(pkg, s.site.href, orgs)) {
          io.failed(url, "not_competitors_package");
          continue;
        }
        const downloadsUrl = npmDownloadsUrl(pkg.name);
        io.count();
        const d = await getJson(io.fetcher, downloadsUrl, {});
        if (!d.ok) io.failed(downloadsUrl, d.error);
        const downloads = d.ok ? parseNpmDownloads(d.text) : null;
        out.push({ url, pkg, ...(downloads ? { downloads, downloadsUrl } : {}) });
      }
      return out;
    },
    sources: (found) => found.map((n) => ({ url: n.url, kind: "npm_package" })),
    reads: (found) =>
      found.length
        ? {
            packages: {
              packages: found.map((n) =>
                Object.fromEntries(
                  Object.entries({
                    name: n.pkg.name,
                    registry: "npm",
                    ...packageNow(n.pkg, n.downloads, n.downloadsUrl),
                    page: npmPage(n.pkg.name),
                    source: n.url,
                  }).filter(([, v]) => v !== undefined),
                ),
              ),
            },
          }
        : undefined,
  },
};
