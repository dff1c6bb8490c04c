// The shapes research records (events/catalog.ts: ResearchStarted / ResearchFinished). Kept apart from the
// decider so the catalog and the engine can import them without a cycle.
import type { ReadSources } from "./observation.ts";
import type { CompetitorRecord } from "./records.ts";

export type ResearchTrigger = "research_competitor" | "refresh_watchlist" | "operator" | "app";

/** Profile fields research may fill: only those a source states are present. */
export type ResearchProfile = Partial<
  Pick<
    CompetitorRecord,
    | "description"
    | "category"
    | "industry"
    | "business_model"
    | "company_type"
    | "company_size"
    | "founding_year"
    | "headquarters"
    | "target_customer"
    | "ownership"
  >
>;

/** One source research found to watch: a page (with its kind), a feed, a job board or a release feed. */
export interface ResearchSource {
  url: string;
  kind: string;
}

export interface ResearchDossier {
  profile: ResearchProfile;
  /** Keys of the dossier's `urls` map (pricing, docs, changelog, careers, linkedin, github, x, …). */
  urls: Record<string, string>;
  /** The `reads` domains research fills (docs/engine/research.md); a domain no source states is absent. */
  reads: Record<string, unknown>;
  sources: ResearchSource[];
  /** Where each profile field was read: the page and an excerpt (kept internal, not served). */
  profile_evidence?: Record<string, { url: string; excerpt: string }>;
  /** What each page names of the reads several pages make (features, integrations), in research's order: what a
   * cycle that sees one of them change starts from (kept internal). */
  read_sources?: ReadSources;
  /** How many pages, feeds and APIs were read. */
  fetched: number;
}

/** The `reads` domains a research run owns: a finished run replaces them as a whole. */
export const RESEARCH_READ_DOMAINS = [
  "positioning",
  "product",
  "pricing",
  "tech_stack",
  "integrations",
  "release_cadence",
  "hiring",
  "funding",
  "regulation",
  "packages",
  "apps",
] as const;
