// What one page says for the dossier's reads, from its extract alone: made where the page was extracted (the
// extraction Worker in a cycle, so only the read crosses to the main thread) and by research (index.ts).
import type { Evidence } from "../../domain/observation.ts";
import type { PageExtract } from "../extract/page.ts";
import { profileFrom } from "../extract/profile.ts";
import type { Technology } from "../extract/tech.ts";
import { changelogEntries } from "../sources/releases.ts";
import { certifications } from "./statements.ts";

/** What a page extract holds for the reads (a cycle keeps only this of a changed page). */
export type PageRead = Pick<
  PageExtract,
  "hero" | "plans" | "usage" | "features" | "integrations" | "jobs"
> & {
  /** The page's own summary: its meta description, else og:description. */
  description?: string;
  /** A security page: the certifications it names. */
  certifications?: string[];
  /** A changelog page: the dates of its entries. */
  releaseDates?: string[];
  /** The technologies the page shows (a page whose technologies are read: readsTech). */
  tech?: Technology[];
  /** The company facts the page states on its own, where each was read, and the page's address as read. */
  profile?: { url: string; fields: Record<string, unknown>; evidence: Record<string, Evidence> };
};

/** Pages whose technologies are read: the home page, and those whose scripts say most about the stack beyond it
 * (checkout and billing, job widgets, integrations). */
export function readsTech(kind: string): boolean {
  return kind === "home" || kind === "pricing" || kind === "careers" || kind === "integrations";
}

/** Each block's text on its own (a fact table's row, a list item, a paragraph), so a sentence never runs
 * across blocks. */
export function blockTexts(p: PageExtract): string[] {
  const out: string[] = [];
  for (const b of p.blocks) {
    if (b.kind === "text") out.push(b.text);
    else if (b.kind === "list") out.push(...b.items);
    else if (b.kind === "card") out.push(b.title, ...b.items);
    else if (b.kind === "table") out.push(...b.rows.map((r) => r.join(": ")));
  }
  return out;
}

/** The read of a page that states nothing (removed): its plans, features, facts … are gone with it. */
export function nothingRead(url: string): PageRead {
  return { plans: [], features: [], integrations: [], jobs: [], profile: { url, fields: {}, evidence: {} } };
}

/** The read of a page of research's `kind` (home, pricing, security, changelog …). */
export function pageRead(p: PageExtract, kind?: string, tech?: Technology[]): PageRead {
  const description = p.meta.description ?? p.meta["og:description"];
  const read: PageRead = {
    hero: p.hero,
    plans: p.plans,
    ...(p.usage?.length ? { usage: p.usage } : {}),
    features: p.features,
    integrations: p.integrations,
    jobs: p.jobs,
    ...(description ? { description } : {}),
  };
  if (kind === "security")
    read.certifications = certifications(blockTexts(p).map((text) => ({ url: p.url, text }))).map(
      (c) => c.name,
    );
  if (kind === "changelog") read.releaseDates = changelogEntries(p, p.url).map((e) => e.date);
  if (tech && kind && readsTech(kind)) read.tech = tech;
  // What the page states on its own (positioning and evidence are not enumerable: only the fields spread).
  const profile = profileFrom([p]);
  const { urls: _urls, ...fields } = profile as typeof profile & { urls?: unknown };
  read.profile = { url: p.url, fields, evidence: { ...profile.evidence } as Record<string, Evidence> };
  return read;
}
