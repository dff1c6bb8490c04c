// How much a competitor goes after the workspace's ideal customer profile: each ICP entry (an industry, a
// buyer role) is compared with the text of the competitor's stored dossier, field by field.
//
// Text is reduced to word stems (lowercase, plural endings dropped, filler words removed; for buyer roles
// also seniority words, so "VP of Sales" is about "sales"). An entry matches a field fully when every stem
// of the entry occurs in the field, partly when at least half do (entries of two or more stems). A
// dimension's score is (full matches + ½ partial matches) / entries; the overall score is the mean of the
// dimensions the ICP has. Levels: high ≥ 0.67, medium ≥ 0.34, low > 0, none = 0; `unknown` when the dossier
// has no text to compare yet.
import type { NewEvent } from "../../events/catalog.ts";
import type { CompetitorRecord } from "./records.ts";
import type { IcpDimension, IcpProfile } from "./workspaceTypes.ts";

type Obj = Record<string, unknown>;

const FILLER = new Set([
  "a",
  "an",
  "and",
  "the",
  "of",
  "for",
  "to",
  "in",
  "on",
  "at",
  "by",
  "or",
  "with",
  "from",
  "who",
  "that",
  "their",
  "our",
  "your",
  "team",
  "company",
  "business",
  "organization",
  "organisation",
  "industry",
  "sector",
  "it",
  "is",
  "are",
  "we",
  "you",
]);

const SENIORITY = new Set([
  "vp",
  "vice",
  "president",
  "head",
  "director",
  "chief",
  "manager",
  "lead",
  "leader",
  "senior",
  "sr",
  "junior",
  "officer",
  "executive",
  "principal",
  "staff",
  "owner",
]);

/** C-level abbreviations stand for their function. */
const ROLE_ABBREVIATIONS: Record<string, string[]> = {
  cfo: ["finance"],
  cmo: ["marketing"],
  cto: ["engineering"],
  cro: ["revenue"],
  ciso: ["security"],
  coo: ["operation"],
  cpo: ["product"],
  revop: ["revenue", "operation"],
};

export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) w = w.slice(0, -1);
  return w;
}

/** The distinct stems of a text, in order, without filler words. */
export function stems(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const s = stem(m[0]);
    if (!FILLER.has(s) && !out.includes(s)) out.push(s);
  }
  return out;
}

function entryStems(entry: string, dimension: IcpDimension): string[] {
  let words = stems(entry);
  if (dimension === "buyer_roles") {
    words = words.flatMap((w) => ROLE_ABBREVIATIONS[w] ?? [w]);
    const functional = words.filter((w) => !SENIORITY.has(w));
    if (functional.length) words = functional;
  }
  return [...new Set(words)];
}

function flatten(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return "";
  if (Array.isArray(v)) return v.map(flatten).join(" ");
  if (v && typeof v === "object")
    return Object.values(v as Obj)
      .map(flatten)
      .join(" ");
  return "";
}

/** The dossier fields each dimension is compared with, strongest evidence first. */
const FIELDS: Record<IcpDimension, string[]> = {
  industries: ["industry", "category", "target_customer", "market", "description", "positioning"],
  buyer_roles: ["target_customer", "positioning", "market", "description"],
};

export function dossierTexts(r: CompetitorRecord): Record<string, string> {
  const reads = (r.reads ?? {}) as Obj;
  return {
    industry: r.industry ?? "",
    category: r.category ?? "",
    target_customer: r.target_customer ?? "",
    market: flatten(reads.market),
    description: r.description ?? "",
    positioning: flatten(reads.positioning),
  };
}

export interface EntryMatch {
  value: string;
  match: "full" | "partial";
  fields: string[];
}

export interface DimensionOverlap {
  score: number;
  matched: EntryMatch[];
  unmatched: string[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function dimensionOverlap(
  entries: string[],
  dimension: IcpDimension,
  fieldStems: Record<string, Set<string>>,
): DimensionOverlap {
  const matched: EntryMatch[] = [];
  const unmatched: string[] = [];
  let weight = 0;
  for (const value of entries) {
    const want = entryStems(value, dimension);
    const full: string[] = [];
    const partial: string[] = [];
    if (want.length) {
      for (const field of FIELDS[dimension]) {
        const have = fieldStems[field];
        if (!have || have.size === 0) continue;
        const hits = want.filter((w) => have.has(w)).length;
        if (hits === want.length) full.push(field);
        else if (want.length >= 2 && hits * 2 >= want.length) partial.push(field);
      }
    }
    if (full.length) {
      matched.push({ value, match: "full", fields: full });
      weight += 1;
    } else if (partial.length) {
      matched.push({ value, match: "partial", fields: partial });
      weight += 0.5;
    } else unmatched.push(value);
  }
  return { score: entries.length ? round2(weight / entries.length) : 0, matched, unmatched };
}

function level(score: number): string {
  if (score >= 0.67) return "high";
  if (score >= 0.34) return "medium";
  if (score > 0) return "low";
  return "none";
}

/** The `workspace.icp_overlap` object of one competitor, or null when the ICP is empty. */
/** An ICP with something to compare: an industry or a buyer role. */
export function icpIsSet(icp: IcpProfile | undefined): icp is IcpProfile {
  return Boolean(icp?.industries?.length || icp?.buyer_roles?.length);
}

export function computeIcpOverlap(icp: IcpProfile, r: CompetitorRecord): Obj | null {
  const dims = (["industries", "buyer_roles"] as const).filter((d) => (icp[d]?.length ?? 0) > 0);
  if (dims.length === 0) return null;
  const texts = dossierTexts(r);
  const fieldStems: Record<string, Set<string>> = {};
  for (const [k, v] of Object.entries(texts)) fieldStems[k] = new Set(stems(v));
  if (Object.values(fieldStems).every((s) => s.size === 0))
    return {
      level: "unknown",
      reason: "The dossier has no industry, category, target customer, description or reads to compare yet.",
    };
  const out: Obj = {};
  let total = 0;
  for (const d of dims) {
    const o = dimensionOverlap(icp[d]!, d, fieldStems);
    out[d] = o;
    total += o.score;
  }
  const score = round2(total / dims.length);
  return { score, level: level(score), ...out };
}

/** The event that records a competitor's overlap with the ICP as read from `after`, or none when it is the
 * overlap already recorded (`previous`). */
export function overlapChange(
  orgId: number,
  competitorId: number,
  icp: IcpProfile,
  after: CompetitorRecord,
  previous: unknown,
): NewEvent[] {
  const overlap = computeIcpOverlap(icp, after);
  if (JSON.stringify(overlap ?? null) === JSON.stringify(previous ?? null)) return [];
  return [
    {
      type: "CompetitorIcpOverlapComputed",
      orgId,
      streamType: "competitor",
      streamId: String(competitorId),
      data: { id: competitorId, icp_overlap: overlap },
    },
  ];
}
