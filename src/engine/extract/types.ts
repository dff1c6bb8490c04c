// The page extract every engine stage shares (coord PLAN.md, "Page extraction"): extraction (page.ts) produces
// it, comparison (../compare) normalises it into a snapshot. Types only, so either side can land first.

export type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "text"; text: string; section?: string } // section = nearest heading's text
  | { kind: "list"; items: string[]; section?: string }
  | { kind: "table"; rows: string[][]; section?: string }
  | { kind: "card"; title: string; items: string[]; section?: string };

/** Absolute URL, fragment removed. */
export interface Link {
  url: string;
  text: string;
}

/** Price monthly-normalised per ENGINE.md. */
export interface Plan {
  name: string;
  price: number | null;
  currency?: string;
  period?: "month" | "year" | "one_time";
  unit?: string;
  features: string[];
  custom?: boolean;
}

export interface PageExtract {
  url: string;
  title?: string;
  lang?: string;
  /** description, og:*, twitter:*, canonical … */
  meta: Record<string, string>;
  /** Parsed, @graph flattened. */
  jsonLd: Record<string, unknown>[];
  hero?: { headline: string; subheadline?: string };
  /** Consent banners, chat widgets, scripts, hidden elements dropped. */
  blocks: Block[];
  links: { nav: Link[]; footer: Link[]; body: Link[] };
  /** <link rel=alternate> */
  feeds: { url: string; type: string; title?: string }[];
  /** Script src URLs (for tech detection). */
  scripts: string[];
  plans: Plan[];
  features: string[];
  integrations: string[];
  /** Careers page list. */
  jobs: { title: string; department?: string; location?: string; url?: string }[];
  /** Readable text of the main content. */
  text: string;
}
