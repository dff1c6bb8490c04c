// The registry of source kinds: one module each (./kind.ts says what a module declares). Research runs every
// kind's discovery and lists their sources in this order; a cycle checks each source by its kind's module.
// Research names a source's kind (home, pricing, careers … are all pages; a job board's kind names its provider:
// `job_board:greenhouse`).
import type { ResearchProfile, ResearchSource } from "../../../domain/researchTypes.ts";
import { appStore } from "./appStore.ts";
import { feed } from "./feed.ts";
import { githubOrg } from "./githubOrg.ts";
import { githubReleases } from "./githubReleases.ts";
import { hnMentions } from "./hnMentions.ts";
import { JOB_BOARD, jobBoard } from "./jobBoard.ts";
import type { ClassifyAs, FieldEvidence, ResearchIo, SiteRead, SourceKind } from "./kind.ts";
import { npmPackage } from "./npmPackage.ts";
import { page } from "./page.ts";
import { releasesFeed } from "./releasesFeed.ts";
import { secFilings } from "./secFilings.ts";
import { securityTxt } from "./securityTxt.ts";
import { wikidata } from "./wikidata.ts";

export { jobBoardKind } from "./jobBoard.ts";
export type * from "./kind.ts";

export const SOURCE_KINDS = [
  page,
  feed,
  jobBoard,
  githubReleases,
  releasesFeed,
  securityTxt,
  githubOrg,
  wikidata,
  secFilings,
  hnMentions,
  npmPackage,
  appStore,
] as const;

type Kinds = (typeof SOURCE_KINDS)[number];

/** What each kind's discovery found on a site, by kind. */
export type Found = { [K in Kinds as K["name"]]: K extends SourceKind<infer R, string> ? R : never };

const BY_NAME = new Map<string, SourceKind>(SOURCE_KINDS.map((k) => [k.name, k as SourceKind]));

/** The module of a source's kind (any kind that is not one of the others is a page). */
export function sourceKind(kind: string): SourceKind {
  if (kind.startsWith(JOB_BOARD)) return jobBoard as SourceKind;
  return (kind !== jobBoard.name && BY_NAME.get(kind)) || (page as SourceKind);
}

/** How the classification rules read a source: the page kind its kind's module says, and the kind's own rules. */
export function classifyAsOf(kind: string, url: string): ClassifyAs {
  const k = sourceKind(kind);
  return { ...k.classifyAs(kind, url), ...(k.rules ? { rules: k.rules } : {}) };
}

const foundOf = (found: Found, k: Kinds) => found[k.name] as never;

/** Runs every kind's discovery on a site, side by side (the fetcher keeps each host to one request at a time). */
export async function discoverAll(site: SiteRead, io: ResearchIo): Promise<Found> {
  const reads = await Promise.all(SOURCE_KINDS.map((k) => k.discovery?.read?.(site, io)));
  return Object.fromEntries(SOURCE_KINDS.map((k, i) => [k.name, reads[i]])) as Found;
}

/** Every kind's sources to watch, in the registry's order. */
export function discoveredSources(found: Found, site: SiteRead): ResearchSource[] {
  return SOURCE_KINDS.flatMap((k) => k.discovery?.sources(foundOf(found, k), site, found) ?? []);
}

/** What the kinds' discoveries give the dossier's reads (packages, apps). */
export function discoveredReads(found: Found): Record<string, unknown> {
  return Object.assign({}, ...SOURCE_KINDS.map((k) => k.discovery?.reads?.(foundOf(found, k))));
}

/** Fills the profile fields the site does not state itself from what the kinds' discoveries read (Wikidata). */
export function discoveredProfile(found: Found, profile: ResearchProfile, evidence: FieldEvidence): void {
  for (const k of SOURCE_KINDS) k.discovery?.profile?.(foundOf(found, k), profile, evidence);
}
