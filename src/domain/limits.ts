// The sizes of what the read API returns: the OpenAPI document states them (contract/schemas.ts), the importer
// refuses records that exceed them (domain/records.ts), and every stored API object is fitted to them when
// it is projected (contract/fit.ts), so what the engine writes holds them too.

/** Longest strings, in characters (UTF-16 code units, as JSON Schema's maxLength counts them). */
export const TEXT = {
  /** Competitor names. */
  name: 200,
  /** Short labels: categories, types, industries, cities, tickers, topics. */
  label: 200,
  /** Signal, digest and section titles and headlines. */
  title: 500,
  /** Paragraph fields: descriptions, summaries, evidence excerpts, list items of a battlecard. */
  text: 5000,
  /** A whole digest rendered as Markdown. */
  document: 200_000,
  /** Every URL the API returns or accepts. */
  url: 2048,
  /** An ISO 8601 time as the API writes it (`2026-11-20T12:00:00.000Z`), with room for an offset. */
  timestamp: 32,
  /** A digest slug. */
  slug: 200,
} as const;

/** Longest lists, in items. */
export const LIST = {
  /** Competitors one workspace tracks, core and horizon together: the competitor and battlecard lists. */
  trackedCompetitors: 500,
  topics: 50,
  /** Evidence excerpts kept per signal. */
  evidence: 25,
  digestItems: 500,
  digestSignals: 1000,
  /** Strengths, weaknesses or talk tracks of a battlecard. */
  sectionItems: 50,
  fortnightSentences: 20,
  /** Plans of a pricing read, and the features listed under one plan. */
  pricingPlans: 50,
  planFeatures: 200,
} as const;

/** Largest record id: 15 digits, what an id in a path may have (api/routes.ts), well within JavaScript's
 * safe integers. */
export const MAX_ID = 999_999_999_999_999;
/** Largest employee count a competitor record holds. */
export const MAX_COMPANY_SIZE = 10_000_000;
/** Priorities order the competitor list; lower first. */
export const PRIORITY = { min: -1_000_000, max: 1_000_000 } as const;

/** Problem details' `detail` and `hint`, which may quote what a client sent. */
export const PROBLEM_TEXT = 1000;
/** Request ids are UUIDs the server makes. */
export const REQUEST_ID_MAX = 36;

/** `s` cut to at most `max` characters, an ellipsis marking the cut. */
export function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** The public free-brief form's limits (docs/web.md "Free briefs"): what one anonymous visitor can make the
 * server do — email, research, publish — is bounded here and nowhere else. */
export const FREE_BRIEF = {
  /** One brief per company (registrable domain) within this many days; a later request gets that brief. */
  periodDays: 30,
  /** Emails about one company within the period, whoever asks: its one confirmation (the brief then goes
   * only to the address that confirmed). Further requesters see the brief on the thank-you page. */
  emailsPerCompany: 1,
  /** Confirmation emails to one address within `recipientDays`. */
  emailsPerRecipient: 3,
  recipientDays: 7,
  /** Confirmation emails asked for from one client network (an IPv4 address, an IPv6 /64) within a day. */
  emailsPerNetwork: 5,
  /** How long a confirmation link works after its email was sent. */
  confirmHours: 48,
  /** A brief's research stops after this long (RIVALS_FREE_BRIEF_BUDGET_MS); what was read by then is what
   * the brief reports, and a home page not read by then fails the request. */
  researchBudgetMs: 120_000,
  /** Domains researched at once. */
  concurrency: 3,
  /** The longest robots.txt Crawl-delay a free brief's research waits between two requests to one host
   * (monitoring honours up to 10 s): a site asking for more is read less within the budget. */
  crawlDelayCeilingMs: 2_000,
} as const;
