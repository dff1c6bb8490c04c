// Which competitor move matters most: the one order a digest's headline, its TL;DR and its lists follow
// (docs/engine/write.md, "Digests"). Pure: it reads what the signal says of itself and of its competitor.
import { severityRank } from "./records.ts";

/** What the order reads of a signal. */
export interface Move {
  id: number;
  /** The competitor's watch (`core`, `horizon`); absent for a company not on the watchlist. */
  watch?: string | null;
  type?: string;
  /** The signal's category: ranks a move whose type is not a known kind (an imported signal's). */
  category?: string;
  severity?: string;
  /** A price move's size, signed (+17 for a rise of 17%). A free tier that starts or ends is ±100. */
  percent?: number;
  confidence?: number;
  first_seen_at: string;
}

/** Kinds of move, most material first; a type not listed reads as a page or wording change. */
export const MOVE_KINDS: { kind: string; types: string[] }[] = [
  { kind: "prices", types: ["price_increase", "price_decrease", "free_tier_change"] },
  { kind: "plans", types: ["plan_added", "plan_removed"] },
  { kind: "packaging", types: ["packaging_change"] },
  { kind: "company", types: ["acquisition", "funding", "leadership_change", "security_incident"] },
  {
    kind: "product",
    types: [
      "feature_launch",
      "feature_removed",
      "release",
      "integration_added",
      "integration_removed",
      "open_source",
      "rating_drop",
    ],
  },
  { kind: "market", types: ["partnership", "certification", "office_opening", "filing"] },
  { kind: "hiring", types: ["hiring_surge", "hiring_slowdown", "key_role_opening", "new_location"] },
  {
    kind: "pages and wording",
    types: ["messaging_change", "page_added", "page_removed", "domain_change", "policy_change", "mention"],
  },
];

const KIND_RANK = new Map(MOVE_KINDS.flatMap((k, i) => k.types.map((t) => [t, i] as const)));

/** The kind a category's moves belong to when their type is not one of MOVE_KINDS'. */
const CATEGORY_KIND: Record<string, string> = {
  pricing: "prices",
  product: "product",
  company: "company",
  legal_security: "market",
  hiring: "hiring",
  marketing: "pages and wording",
};

/** The kind's place in MOVE_KINDS (0 is the most material); a type not listed is ranked by its category. */
export function kindRank(type: string | undefined, category?: string): number {
  const known = KIND_RANK.get(type ?? "");
  if (known !== undefined) return known;
  const kind = CATEGORY_KIND[category ?? ""];
  const i = MOVE_KINDS.findIndex((k) => k.kind === kind);
  return i >= 0 ? i : MOVE_KINDS.length - 1;
}

const watchRank = (w: string | null | undefined) => (w === "core" ? 2 : w === "horizon" ? 1 : 0);

/** The size a price move is ranked by: its percent, unsigned; a free tier starting or ending is 100. */
export function moveSize(m: Pick<Move, "type" | "percent">): number {
  if (m.type === "free_tier_change") return 100;
  return typeof m.percent === "number" && Number.isFinite(m.percent) ? Math.abs(m.percent) : 0;
}

/**
 * Most material first: core competitors before horizon ones and companies not on the watchlist; then severity;
 * then the kind of move (MOVE_KINDS); among price moves the larger percent; then confidence, the newest, and
 * the higher id (a stable order).
 */
export function byMateriality(a: Move, b: Move): number {
  return (
    watchRank(b.watch) - watchRank(a.watch) ||
    severityRank(b.severity) - severityRank(a.severity) ||
    kindRank(a.type, a.category) - kindRank(b.type, b.category) ||
    moveSize(b) - moveSize(a) ||
    (b.confidence ?? 0) - (a.confidence ?? 0) ||
    b.first_seen_at.localeCompare(a.first_seen_at) ||
    b.id - a.id
  );
}

/** The headline move of a set: the first by materiality. */
export function headlineMove<T extends Move>(moves: readonly T[]): T | undefined {
  return [...moves].sort(byMateriality)[0];
}

/** A signal severe enough to write a digest for at once: medium or high. */
export function isMaterial(severity: string | undefined): boolean {
  return severityRank(severity) >= severityRank("medium");
}
