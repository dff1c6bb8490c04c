// List-like tool results carry compact items: what an agent needs to choose one (id, title, a one-line
// summary, severity, dates, links); the whole record comes from the get_… tool each item names. A list of 20
// whole signals with their evidence, or three whole battlecards, cost an agent more context than its question.
import { z } from "zod";
import { firstSentences } from "../domain/prose.ts";
import { isoTime } from "./schemas.ts";

type Obj = Record<string, unknown>;

/** The length a one-line summary is cut to (at a sentence where one fits). */
const LINE = 200;

function line(v: unknown): string | undefined {
  if (typeof v !== "string" || v.trim() === "") return undefined;
  return firstSentences(v.replace(/\s+/g, " ").trim(), LINE);
}

/** Drops the keys whose value is undefined, so a compact item never names a field it does not have. */
function defined(o: Obj): Obj {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export function signalItem(s: Obj): Obj {
  const evidence = Array.isArray(s.evidence) ? (s.evidence as Obj[]) : [];
  const source = evidence.find((e) => typeof e?.source_url === "string")?.source_url;
  return defined({
    id: s.id,
    title: s.title,
    summary: line(s.summary),
    competitor_id: s.competitor_id,
    competitor_name: s.competitor_name,
    severity: s.severity,
    category: s.category,
    type: s.type,
    first_seen_at: s.first_seen_at,
    evidence_count: evidence.length,
    source_url: source,
    url: s.url,
  });
}

export const signalItemShape = z.looseObject({
  id: z.number().int(),
  title: z.string(),
  summary: z.string().optional(),
  competitor_id: z.number().int().optional(),
  competitor_name: z.string().optional(),
  severity: z.enum(["low", "medium", "high"]).optional(),
  first_seen_at: isoTime.optional(),
  evidence_count: z.number().int(),
  source_url: z.string().optional(),
  url: z.string(),
});

export function digestItem(d: Obj): Obj {
  return defined({
    id: d.id,
    slug: d.slug,
    type: d.type,
    title: d.title,
    headline: line(d.headline),
    tldr: line(d.tldr),
    coverage_period_start: d.coverage_period_start,
    coverage_period_end: d.coverage_period_end,
    generated_at: d.generated_at,
    url: d.url,
  });
}

export const digestItemShape = z.looseObject({
  id: z.number().int(),
  slug: z.string().optional(),
  type: z.string(),
  title: z.string().optional(),
  headline: z.string().optional(),
  tldr: z.string().optional(),
  generated_at: isoTime.optional(),
  url: z.string(),
});

export function battlecardItem(c: Obj): Obj {
  const sections = (c.sections ?? {}) as Obj;
  return defined({
    id: c.id,
    competitor_id: c.competitor_id,
    competitor_name: c.competitor_name,
    overview: line(sections.overview),
    generated_at: c.generated_at,
    url: c.url,
  });
}

export const battlecardItemShape = z.looseObject({
  id: z.number().int(),
  competitor_id: z.number().int(),
  competitor_name: z.string().optional(),
  overview: z.string().optional(),
  generated_at: isoTime.optional(),
  url: z.string(),
});
