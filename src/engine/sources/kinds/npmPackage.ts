// An npm package the site links (../npm.ts), used only when its registry metadata ties it to the competitor
// (its repository under a GitHub organisation the site links, or its homepage on the site's domain): its
// version line and deprecation, never its download counts, read by its own rule; the dossier's packages, kept
// current by the cycles that see the package change.
import { npmPackage as npmPackageRule } from "../../classify/code.ts";
import { normaliseStructured } from "../../compare/normalise.ts";
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
import { getJson, linkedUrls, type SourceKind, sameAsUrls } from "./kind.ts";

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
  classifyAs: () => ({ pageKind: "npm_package", rules: [npmPackageRule] }),
  label: () => "npm package",
  discovery: {
    async read(s, io) {
      const linked = [...linkedUrls(s), ...sameAsUrls(s)];
      const orgs = githubOrgsFrom(linked);
      const out: NpmFound = [];
      for (const name of npmPackagesFrom(linked).slice(0, MAX_NPM_PACKAGES)) {
        const url = npmRegistryUrl(name);
        const r = await getJson(io.counting, url, {});
        if (!r.ok) {
          io.failed(url, r.error);
          continue;
        }
        const pkg = parseNpmPackage(r.text);
        if (!pkg) {
          io.failed(url, "unsupported_content");
          continue;
        }
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
