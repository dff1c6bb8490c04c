// Delivery rules: which signals a channel gets (email, Slack, Teams, each webhook endpoint). A rule names the
// competitors (by id, or the core or horizon list), the categories and the least severity; an absent field
// matches everything, so no rules at all is what every channel got before rules existed.
import { SEVERITY, type Severity, severityRank, WATCH } from "./records.ts";
import { InvalidInput } from "./validate.ts";
import { CATEGORY_LABEL } from "./vocabulary.ts";

export interface DeliveryRules {
  competitor_ids?: number[];
  watch?: (typeof WATCH)[number];
  categories?: string[];
  min_severity?: Severity;
}

/** What rules are matched against: known facts of a signal (or, for a competitor's news, of its competitor). */
export interface RuleSubject {
  competitor_id?: number | null;
  watch?: string | null;
  category?: string | null;
  severity?: string | null;
}

export const RULE_CATEGORIES = Object.keys(CATEGORY_LABEL);

/** Rules as given, checked; undefined when they narrow nothing. */
export function checkRules(r: DeliveryRules | undefined | null, field = "rules"): DeliveryRules | undefined {
  if (!r) return undefined;
  const out: DeliveryRules = {};
  if (r.competitor_ids?.length) {
    if (r.competitor_ids.length > 100) throw new InvalidInput(`${field}.competitor_ids: at most 100`, field);
    out.competitor_ids = [...new Set(r.competitor_ids)];
  }
  if (r.watch !== undefined && r.watch !== null) {
    if (!(WATCH as readonly string[]).includes(r.watch))
      throw new InvalidInput(`${field}.watch must be one of ${WATCH.join(", ")}`, field);
    out.watch = r.watch;
  }
  if (r.categories?.length) {
    const unknown = r.categories.filter((c) => !RULE_CATEGORIES.includes(c));
    if (unknown.length)
      throw new InvalidInput(
        `${field}.categories: unknown ${unknown.map((c) => JSON.stringify(c)).join(", ")}; the categories are ${RULE_CATEGORIES.join(", ")}`,
        field,
      );
    out.categories = [...new Set(r.categories)];
  }
  if (r.min_severity !== undefined && r.min_severity !== null) {
    if (!(SEVERITY as readonly string[]).includes(r.min_severity))
      throw new InvalidInput(`${field}.min_severity must be one of ${SEVERITY.join(", ")}`, field);
    out.min_severity = r.min_severity;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Whether a competitor passes the rules' competitor part. */
export function competitorMatches(r: DeliveryRules | undefined, s: RuleSubject): boolean {
  if (!r) return true;
  if (r.competitor_ids && !r.competitor_ids.includes(Number(s.competitor_id))) return false;
  if (r.watch && s.watch !== r.watch) return false;
  return true;
}

/** Whether a signal passes the rules. */
export function signalMatches(r: DeliveryRules | undefined, s: RuleSubject): boolean {
  if (!r) return true;
  if (!competitorMatches(r, s)) return false;
  if (r.categories && !r.categories.includes(String(s.category))) return false;
  if (r.min_severity && severityRank(s.severity) < severityRank(r.min_severity)) return false;
  return true;
}

/** The rules in words, for the pages ("every signal" when there are none). */
export function describeRules(r: DeliveryRules | undefined, competitorName: (id: number) => string): string {
  if (!r) return "every signal";
  const parts = [
    r.watch ? `${r.watch === "core" ? "core watchlist" : "horizon"} competitors` : "",
    r.competitor_ids?.length ? `competitors ${r.competitor_ids.map(competitorName).join(", ")}` : "",
    r.categories?.length
      ? `categories ${r.categories.map((c) => CATEGORY_LABEL[c as keyof typeof CATEGORY_LABEL] ?? c).join(", ")}`
      : "",
    r.min_severity ? `severity ${r.min_severity} or higher` : "",
  ].filter(Boolean);
  return `only ${parts.join("; ")}`;
}
