// What page extraction reads from one page (page.ts): the shapes every engine step after it uses.
import type { Plan, UsagePrice } from "./pricing.ts";

export type { Plan, UsagePrice } from "./pricing.ts";

export type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "text"; text: string; section?: string }
  | { kind: "list"; items: string[]; section?: string }
  | { kind: "table"; rows: string[][]; section?: string }
  | { kind: "card"; title: string; items: string[]; section?: string };

export interface Link {
  url: string;
  text: string;
}

export interface Job {
  title: string;
  department?: string;
  location?: string;
  url?: string;
}

export interface PageExtract {
  url: string;
  title?: string;
  lang?: string;
  meta: Record<string, string>;
  jsonLd: Record<string, unknown>[];
  hero?: { headline: string; subheadline?: string };
  blocks: Block[];
  links: { nav: Link[]; footer: Link[]; body: Link[] };
  feeds: { url: string; type: string; title?: string }[];
  scripts: string[];
  plans: Plan[];
  /** Metered rates beside the plans ("$0.50 per 1,000 events"), on pricing pages. */
  usage?: UsagePrice[];
  features: string[];
  integrations: string[];
  /** An integrations directory's further pages (next pages, category pages), to be followed. */
  integrationPages?: string[];
  jobs: Job[];
  text: string;
}
