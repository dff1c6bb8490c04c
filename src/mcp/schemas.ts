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

/** One plan of the pricing read (domain/pricingRead.ts): its price in named fields that cannot be misread. */
const pricingPlan = z
  .looseObject({
    name: z.string().optional(),
    price: z.unknown().optional().describe("The same figure as amount, for clients that read price."),
    amount: z
      .number()
      .optional()
      .describe(
        'What is billed each period, as the page states it: 5000 for "$5k/yr"; absent for a custom tier.',
      ),
    period: z.string().optional().describe("month, year or one_time: the period amount is billed for."),
    monthly_equivalent: z
      .number()
      .optional()
      .describe("For a yearly period: amount / 12 (416.67 for 5000 a year); not a price the page states."),
    annual: z
      .looseObject({ amount: z.number().optional(), monthly_equivalent: z.number().optional() })
      .optional()
      .describe("The same plan billed yearly, when the page offers both."),
    regular: z
      .number()
      .optional()
      .describe("Beside a sale or introductory price: the regular price it replaces, billed each period."),
    sale_term: z.string().optional().describe('The sale or introductory price\'s term ("for 3 months").'),
    page: z.string().optional().describe("The page the plan was read from, when not the read's own page."),
  })
  .describe("One plan, in the order the pricing page lists it.");

export const competitorDetail = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  watch: z.enum(["core", "horizon"]),
  reads: z
    .looseObject({
      // An imported dossier's reads are served as imported: the shape describes the engine's, never refuses one.
      pricing: z
        .looseObject({ plans: z.array(pricingPlan).optional() })
        .or(z.unknown())
        .optional()
        .describe("The pricing page's plans as it lists them now."),
    })
    .optional()
    .describe(
      "What the competitor's sources state now, kept current by research and every monitoring cycle.",
    ),
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
        pages_due_later: z
          .number()
          .int()
          .optional()
          .describe(
            "Sources on a host many competitors share (a job board provider, a public API) left for their turn in a later cycle.",
          ),
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
