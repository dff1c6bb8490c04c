// What a source kind declares about itself, in one module per kind (./index.ts lists them): how research finds
// its sources on a competitor's site, how a source of it is fetched, how its body becomes a snapshot, how the
// snapshot store compares it (its snapshot kind), how the classification rules read it (the page kind they
// see, and its own rules, written in its module), and what a brief calls it.
import type { SourceObservation } from "../../../domain/observation.ts";
import type { ResearchProfile, ResearchSource } from "../../../domain/researchTypes.ts";
import type { SourceRule } from "../../classify/rule.ts";
import type { Snapshot, SnapshotKind } from "../../compare/types.ts";
import type { Link, PageExtract } from "../../extract/page.ts";
import type { Fetcher, FetchResult } from "../../fetch/index.ts";
import type { BoardRead } from "../boards/read.ts";
import type { DiscoveredPage, PageKind } from "../discover.ts";
import type { Job } from "../jobBoards.ts";

/** What reading a source now gave. */
export type SourceRead =
  | FetchResult
  | BoardRead
  | { ok: false; url: string; error: "unsupported_content"; status?: number; message: string };

export type SourceReadOk = Extract<SourceRead, { ok: true }>;

/** HTTP validators of the last good read (a conditional request). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** How the classification rules read a source (ClassifyContext's fields). */
export interface ClassifyAs {
  /** The page kind the rules see (a page's own kind: home, pricing …). */
  pageKind: string;
  /** What the source is of, when its items do not say it (a GitHub repository's name). */
  sourceName?: string;
  /** The kind's own rules: its changes of the change kinds they read go to them, not to the general rules. */
  rules?: readonly SourceRule[];
}

/** A page research read: its kind, what it says, its technologies, its HTML. */
export interface ReadPage {
  url: string;
  kind: PageKind | "home";
  extract: PageExtract;
  tech: { name: string; category: string }[];
  html: string;
}

/** The competitor's site as research read it: what each kind's discovery looks in. */
export interface SiteRead {
  site: URL;
  home: ReadPage;
  pages: ReadPage[];
  /** The pages the site links or its sitemaps list (read or not). */
  discovered: DiscoveredPage[];
}

/** Where each profile field was read: the page and an excerpt. */
export type FieldEvidence = Record<string, { url: string; excerpt: string }>;

/** How research fetches for a kind's discovery. */
export interface ResearchIo {
  /** The fetcher itself: neither counted nor seen as a baseline. */
  fetcher: Fetcher;
  /** Counted, and seen as the monitoring baseline. */
  counting: Fetcher;
  /** Counted, a failure listed, an application shell read as a browser builds it. */
  get(url: string): Promise<FetchResult>;
  /** Counts a fetch made through `fetcher`. */
  count(): void;
  /** Lists a read that failed. */
  failed(url: string, error: string): void;
}

/** How research finds a kind's sources: what it reads of the site (`found`), the sources to watch, and what the
 * dossier's reads take from it. */
export interface Discovery<R> {
  read?(site: SiteRead, io: ResearchIo): Promise<R>;
  /** `all`: what every kind's discovery found, by kind (a kind may follow another's: EDGAR by Wikidata's CIK). */
  sources(found: R, site: SiteRead, all: Readonly<Record<string, unknown>>): ResearchSource[];
  /** The dossier's reads it gives (packages, apps …). */
  reads?(found: R): Record<string, unknown> | undefined;
  /** Fills the profile fields the site does not state itself, each with where it was read. */
  profile?(found: R, profile: ResearchProfile, evidence: FieldEvidence): void;
}

export interface SourceKind<R = unknown, N extends string = string> {
  name: N;
  /** How a source of it is fetched. */
  fetch(fetcher: Fetcher, url: string, validators: Validators): Promise<SourceRead>;
  /** How its body becomes a snapshot, or why it is none. A page has none here: it is extracted in the Worker
   * pool, read in a browser when it is an application shell (cycle/check.ts). */
  parse?(read: SourceReadOk, url: string): Parsed | { error: string };
  /** How the snapshot store keeps and compares it. */
  snapshot: SnapshotKind;
  /** How the classification rules read a source of it (`kind`: the source's full kind): the page kind they see. */
  classifyAs(kind: string, url: string): Omit<ClassifyAs, "rules">;
  /** The kind's own rules, declared in its module (`rule()` of classify/rule.ts): its changes of the change kinds
   * they read go to them first. The rules table lists them with the general rules (classify/registry.ts). */
  rules?: readonly SourceRule[];
  /** What a brief calls it when it cites it (`kind`: the source's full kind). */
  label(kind: string): string;
  /** What a changed source of it says for the dossier now (none: what its page says, research/reads.ts). */
  observe?(source: { url: string; kind: string }, now: SourceNow, at: Date): Partial<SourceObservation>;
  /** How research finds its sources on the site (none: research never names it). */
  discovery?: Discovery<R>;
}

/** What a cycle read of a changed source that is no page: a job board's roles, a feed's item dates. */
export interface SourceNow {
  jobs?: Job[];
  itemDates?: string[];
  /** What the kind's `parse` read beside its snapshot (a structured source's current figures). */
  read?: Record<string, unknown>;
}

/** A source's answer as a snapshot, and what it says for the dossier beside what the snapshot compares (an app's
 * rating count, a package's downloads): what `observe` reads when the snapshot changed. */
export interface Parsed {
  snapshot: Snapshot;
  read?: Record<string, unknown>;
}

/** One GET with the validators. */
export const get = (fetcher: Fetcher, url: string, validators: Validators) =>
  fetcher.fetch({ url, ...validators });

/** One GET asking for JSON. */
export const getJson = (fetcher: Fetcher, url: string, validators: Validators) =>
  fetcher.fetch({ url, ...validators, headers: { accept: "application/json" } });

/** One read of a kind's discovery (counted, the monitoring baseline): `fetch`, then `parse` of the body. A
 * failed fetch is listed with its error and a body `parse` cannot read as `unsupported_content`; either gives
 * undefined. */
export async function discoveryRead<T>(
  io: ResearchIo,
  url: string,
  fetch: (fetcher: Fetcher, url: string, validators: Validators) => Promise<FetchResult>,
  parse: (text: string) => T | null,
): Promise<T | undefined> {
  const r = await fetch(io.counting, url, {});
  if (!r.ok) {
    io.failed(url, r.error);
    return undefined;
  }
  const read = parse(r.text);
  if (read === null) io.failed(url, "unsupported_content");
  return read ?? undefined;
}

/** Every link of a page (navigation, footer, body). */
export function allLinks(p: PageExtract): Link[] {
  return [...p.links.nav, ...p.links.footer, ...p.links.body];
}

/** The addresses of every link of the home page and the pages read. */
export function linkedUrls(s: SiteRead): string[] {
  return [s.home, ...s.pages].flatMap((p) => allLinks(p.extract).map((l) => l.url));
}

/** The addresses the site's JSON-LD sameAs declares, on the home page and the pages read. */
export function sameAsUrls(s: SiteRead): string[] {
  return [s.home, ...s.pages].flatMap((p) => p.extract.jsonLd.flatMap((j) => sameAsOf(j)));
}

/** The addresses a JSON-LD node's sameAs declares. */
export function sameAsOf(j: Record<string, unknown>): string[] {
  const v = j.sameAs;
  return Array.isArray(v)
    ? v.filter((u): u is string => typeof u === "string")
    : typeof v === "string"
      ? [v]
      : [];
}

/** The first page read of a kind. */
export function firstPage(s: SiteRead, kind: PageKind): ReadPage | undefined {
  return s.pages.find((p) => p.kind === kind);
}

/** Each item once, by a key compared without case; the first kept. */
export function uniq<T>(xs: readonly T[], key: (x: T) => string = (x) => String(x)): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x).toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
