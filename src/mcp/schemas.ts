// Output shapes shared by tools. API objects are described by their required fields and allow the rest,
// exactly as the REST API returns them.
import { z } from "zod";

export const isoTime = z.string().describe("ISO 8601 date-time");

export const evidenceItem = z.looseObject({
  text: z.string().optional(),
  source_title: z.string().optional(),
  source_url: z.string().optional(),
  observed_at: isoTime.optional(),
});

export const competitorSummary = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  website_url: z.string().optional(),
  category: z.string().optional(),
  watch: z.enum(["core", "horizon"]),
  url: z.string().optional(),
});

export const competitorDetail = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  watch: z.enum(["core", "horizon"]),
  links: z.looseObject({}).optional(),
});

export const signal = z.looseObject({
  id: z.number().int(),
  title: z.string(),
  competitor_id: z.number().int().optional(),
  competitor_name: z.string().optional(),
  severity: z.enum(["low", "medium", "high"]).optional(),
  status: z.string().optional(),
  first_seen_at: isoTime.optional(),
  evidence: z.array(evidenceItem),
  url: z.string(),
});

export const digest = z.looseObject({
  id: z.number().int(),
  type: z.string(),
  status: z.string(),
  url: z.string(),
});

export const battlecard = z.looseObject({
  id: z.number().int(),
  competitor_id: z.number().int(),
  status: z.string(),
  url: z.string(),
});

export const ok = { ok: z.literal(true) };
