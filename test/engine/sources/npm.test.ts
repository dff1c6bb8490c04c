// npm packages the site links (the fixture web's registry documents, in the registry's shape): the package in
// words, the check that it is the competitor's, and through the real comparison and classification a new major
// version and a deprecation as signals; download counts, maintainers and revisions are no change.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR } from "../../../fixtures/web/server.ts";
import { classify } from "../../../src/engine/classify/index.ts";
import { compare, normaliseStructured, seenOf, snapshotHash } from "../../../src/engine/compare/index.ts";
import type { Snapshot } from "../../../src/engine/compare/types.ts";
import { classifyAsOf } from "../../../src/engine/sources/kinds/index.ts";
import {
  isCompetitorsPackage,
  npmFields,
  npmPackageOf,
  npmPackagesFrom,
  npmRegistryUrl,
  parseNpmDownloads,
  parseNpmPackage,
} from "../../../src/engine/sources/npm.ts";

const doc = (v: number, name: string) =>
  readFileSync(join(SITES_DIR, "registry.npmjs.org", `v${v}`, `${name}.json`), "utf8");
const snap = (v: number, name: string): Snapshot =>
  normaliseStructured(npmRegistryUrl(name), npmFields(parseNpmPackage(doc(v, name))!));
const run = (prev: Snapshot, next: Snapshot) =>
  classify(compare(prev, next, seenOf([prev])), {
    competitor: { id: 1, name: "Globex" },
    ...classifyAsOf("npm_package", ""),
    observedAt: "2026-11-20T00:00:00.000Z",
    previous: prev,
    snapshot: next,
  });

test("the packages a site links, and the registry's document in words", () => {
  expect(
    npmPackagesFrom([
      "https://www.npmjs.com/package/globex-js",
      "https://www.npmjs.com/package/@globex/charts?activeTab=versions",
      "https://npmjs.com/package/globex-js/",
      "https://www.npmjs.com/search?q=globex",
    ]),
  ).toEqual(["globex-js", "@globex/charts"]);
  expect(npmRegistryUrl("@globex/charts")).toBe("https://registry.npmjs.org/@globex%2Fcharts");
  expect(npmPackageOf("https://registry.npmjs.org/@globex%2Fcharts")).toBe("@globex/charts");
  expect(parseNpmPackage(doc(2, "globex-legacy"))).toEqual({
    name: "globex-legacy",
    latest: "2.4.1",
    latestMajor: 2,
    latestAt: "2024-04-29T15:21:07.664Z",
    deprecated: "globex-legacy is no longer maintained. Use globex-js (npm i globex-js) instead.",
    repository: "git+https://github.com/globex-insights/globex-legacy-cli.git",
    homepage: "https://globex.example/",
    description: "Command-line client for Globex v1",
  });
  expect(parseNpmPackage('{"error":"Not found"}')).toBeNull();
  expect(
    parseNpmDownloads('{"downloads":18412,"start":"2026-11-12","end":"2026-11-18","package":"globex-js"}'),
  ).toEqual({ downloads: 18412, start: "2026-11-12", end: "2026-11-18" });
  expect(parseNpmDownloads('{"error":"package globex-jz not found"}')).toBeNull();
});

test("a package is the competitor's by its repository under a linked organisation or its homepage on the site", () => {
  const js = parseNpmPackage(doc(1, "globex-js"))!;
  expect(isCompetitorsPackage(js, "https://globex.example/", ["globex-insights"])).toBe(true);
  // its homepage is on docs.globex.example: the site's domain
  expect(isCompetitorsPackage(js, "https://globex.example/", [])).toBe(true);
  expect(isCompetitorsPackage(js, "https://initech.example/", ["initech"])).toBe(false);
  const other = { ...js, repository: "git+https://github.com/someone/left-pad.git", homepage: undefined };
  expect(isCompetitorsPackage(other, "https://globex.example/", ["globex-insights"])).toBe(false);
});

test("a deprecation is a signal; a minor version, downloads, maintainers and revisions are not", () => {
  const drafts = run(snap(1, "globex-legacy"), snap(2, "globex-legacy"));
  expect(drafts.map((d) => [d.category, d.type, d.severity, d.title])).toEqual([
    ["product", "feature_removed", "medium", "Globex deprecates its npm package globex-legacy"],
  ]);
  expect(drafts[0].evidence[0].source_url).toBe("https://www.npmjs.com/package/globex-legacy");
  expect(run(snap(1, "globex-js"), snap(2, "globex-js"))).toEqual([]);
  expect(snapshotHash(snap(3, "globex-js"))).toBe(snapshotHash(snap(2, "globex-js")));
  expect(snapshotHash(snap(3, "globex-legacy"))).toBe(snapshotHash(snap(2, "globex-legacy")));
});

test("a new major version as latest is a release signal; a patch is not", () => {
  const base = JSON.parse(doc(2, "globex-js"));
  const bump = (version: string) => {
    const d = structuredClone(base);
    d["dist-tags"].latest = version;
    d.versions[version] = { ...d.versions["4.3.0"], version };
    d.time[version] = "2026-11-24T10:00:00.000Z";
    return normaliseStructured(npmRegistryUrl("globex-js"), npmFields(parseNpmPackage(JSON.stringify(d))!));
  };
  const now = snap(2, "globex-js");
  expect(run(now, bump("4.3.1"))).toEqual([]);
  const major = run(now, bump("5.0.0"));
  expect(major.map((d) => [d.type, d.severity, d.title])).toEqual([
    ["release", "medium", "Globex released globex-js 5.0.0 on npm, a new major version"],
  ]);
});
