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

/** What the tools that report on monitoring cycles say about them (engine/cycle/status.ts). */
export const cycleStatusShape = z
  .object({
    cadence: z
      .string()
      .describe("How often a monitoring cycle runs now (the plan's fallback if the choice lapsed)."),
    scheduler: z.enum(["on", "off"]).describe("Whether this server runs cycles on schedule."),
    last_cycle: z
      .object({
        id: z.number().int(),
        trigger: z.string(),
        started_at: isoTime,
        finished_at: isoTime,
        pages_checked: z.number().int().optional(),
        pages_changed: z.number().int().optional(),
        pages_failed: z.number().int().optional(),
        signals_created: z.number().int().optional(),
        signals_updated: z.number().int().optional(),
        signals_closed: z.number().int().optional(),
      })
      .optional()
      .describe("The newest finished cycle and its counts."),
    running_since: isoTime.optional().describe("A cycle is running now, since then."),
    next_cycle_due_at: isoTime.optional().describe("When the scheduler runs the next cycle."),
  })
  .describe("Monitoring cycles: the last one, one running, the next one due.");
