// npm packages the competitor's site links (npmjs.com/package/<name>), used only when the registry's metadata
// ties the package to the competitor: its repository on a GitHub organisation the site links, or its homepage
// on the site's own domain. Read through the one fetcher: the registry's package document
// (registry.npmjs.org/<name>) and the downloads API's last week (api.npmjs.org), which joins the answer but is
// never compared.
import type { Fetcher, FetchResult } from "../fetch/index.ts";
import type { Validators } from "./kinds/kind.ts";

/** What the package's metadata says now. */
export interface NpmPackage {
  name: string;
  /** The `latest` dist-tag. */
  latest: string;
  /** Its major version. */
  latestMajor: number;
  /** When the latest version was published (the document's `time`). */
  latestAt?: string;
  /** The latest version's deprecation message, when it is deprecated. */
  deprecated?: string;
  repository?: string;
  homepage?: string;
  description?: string;
}

const NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]{0,213}$/;
const PAGE = /^https?:\/\/(?:www\.)?npmjs\.com\/package\/((?:@[^/?#]+\/)?[^/?#]+)\/?(?:[?#]|$)/i;
const REGISTRY = "https://registry.npmjs.org/";

/** The packages among the addresses a site links, once each. */
export function npmPackagesFrom(urls: readonly string[]): string[] {
  const out: string[] = [];
  for (const u of urls) {
    const m = typeof u === "string" ? PAGE.exec(u.trim()) : null;
    if (!m) continue;
    const name = decodeURIComponent(m[1]).toLowerCase();
    if (NAME.test(name) && !out.includes(name)) out.push(name);
  }
  return out;
}

/** The registry's document of a package (a scoped name's slash escaped, as the registry asks). */
export function npmRegistryUrl(name: string): string {
  return `${REGISTRY}${name.replace("/", "%2F")}`;
}

/** The package a registry address names. */
export function npmPackageOf(url: string): string | undefined {
  if (!url.startsWith(REGISTRY)) return undefined;
  const name = decodeURIComponent(url.slice(REGISTRY.length));
  return NAME.test(name) ? name : undefined;
}

/** The downloads API's last week of a package. */
export function npmDownloadsUrl(name: string): string {
  return `https://api.npmjs.org/downloads/point/last-week/${name}`;
}

/** The npm page a person reads. */
export function npmPage(name: string): string {
  return `https://www.npmjs.com/package/${name}`;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** A registry document's package, or null when the answer is not one (an error object, a page). */
export function parseNpmPackage(text: string): NpmPackage | null {
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(d) || !isObj(d["dist-tags"]) || !isObj(d.versions)) return null;
  const name = str(d.name);
  const latest = str(d["dist-tags"].latest);
  const major = latest ? /^(\d+)\./.exec(latest)?.[1] : undefined;
  if (!name || !latest || major === undefined) return null;
  const v = d.versions[latest];
  const p: NpmPackage = { name, latest, latestMajor: Number(major) };
  const at = isObj(d.time) ? str(d.time[latest]) : undefined;
  if (at) p.latestAt = at;
  const deprecated = isObj(v) ? str(v.deprecated) : undefined;
  if (deprecated) p.deprecated = deprecated.slice(0, 300);
  const repo = isObj(d.repository) ? str(d.repository.url) : str(d.repository);
  if (repo) p.repository = repo;
  const home = str(d.homepage);
  if (home) p.homepage = home;
  const description = str(d.description);
  if (description) p.description = description.slice(0, 300);
  return p;
}

/** Last week's downloads of a downloads API answer. */
export function parseNpmDownloads(text: string): { downloads: number; start: string; end: string } | null {
  try {
    const d = JSON.parse(text) as Obj;
    return typeof d.downloads === "number" && typeof d.start === "string" && typeof d.end === "string"
      ? { downloads: d.downloads, start: d.start, end: d.end }
      : null;
  } catch {
    return null;
  }
}

const host = (u: string) => {
  try {
    return new URL(u.replace(/^git\+/, "").replace(/^git:\/\//, "https://")).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
};

/** Whether the package is the competitor's: its repository under a GitHub organisation the site links, or its
 * homepage on the site's domain (or a subdomain of it). */
export function isCompetitorsPackage(p: NpmPackage, site: string, githubOrgs: readonly string[]): boolean {
  const siteHost = host(site);
  const orgs = githubOrgs.map((o) => o.toLowerCase());
  const repo = p.repository?.replace(/^git\+/, "").replace(/^git:\/\//, "https://");
  const owner = repo ? /github\.com[/:]([^/]+)\//i.exec(repo)?.[1]?.toLowerCase() : undefined;
  if (owner && orgs.includes(owner)) return true;
  const h = p.homepage ? host(p.homepage) : "";
  return !!siteHost && !!h && (h === siteHost || h.endsWith(`.${siteHost}`));
}

/** The fields a snapshot compares: the version line and deprecation, not download counts or publish times. */
export function npmFields(p: NpmPackage): Record<string, unknown> {
  return {
    name: p.name,
    latest: p.latest,
    latest_major: String(p.latestMajor),
    deprecated: p.deprecated,
  };
}

/** The key under which `readNpm` adds last week's downloads to the registry document (no registry key). */
const DOWNLOADS_KEY = "rivals_last_week_downloads";

/** Reads a package: its registry document, then last week's downloads, which join the answer. A downloads answer
 * that cannot be read leaves the document as the registry gave it. */
export async function readNpm(fetcher: Fetcher, url: string, validators: Validators): Promise<FetchResult> {
  const r = await fetcher.fetch({ url, ...validators, headers: { accept: "application/json" } });
  if (!r.ok || r.notModified) return r;
  const pkg = parseNpmPackage(r.text);
  if (!pkg) return r;
  const source = npmDownloadsUrl(pkg.name);
  const d = await fetcher.fetch({ url: source, headers: { accept: "application/json" } });
  const downloads = d.ok && !d.notModified ? parseNpmDownloads(d.text) : null;
  if (!downloads) return r;
  return {
    ...r,
    text: JSON.stringify({ ...(JSON.parse(r.text) as Obj), [DOWNLOADS_KEY]: { ...downloads, source } }),
  };
}

/** Last week's downloads an answer `readNpm` composed holds, with where they were read. */
export function downloadsOf(
  text: string,
): { downloads: number; start: string; end: string; source: string } | undefined {
  try {
    const d = (JSON.parse(text) as Obj)[DOWNLOADS_KEY];
    return isObj(d) && typeof d.downloads === "number" && typeof d.source === "string"
      ? (d as { downloads: number; start: string; end: string; source: string })
      : undefined;
  } catch {
    return undefined;
  }
}
