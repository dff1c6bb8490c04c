// One vocabulary of signal categories and types for imported history, the engine, the filters, the API and
// the tools (docs/engine/classify.md's taxonomy, plus the kinds of news only imported history carries), the names
// other tools use for the same things mapped onto it, and the one label a person reads for every slug
// (categories, types, cadences, digest types, severities).
import type { SignalCategory, SignalType } from "./signalDraft.ts";

/** Kinds of news the engine does not detect but imported history records. */
export type ImportedOnlyType = "feature_update" | "customer_win" | "layoffs" | "event" | "outage";

/** A price change whose direction the record does not state. */
export type VocabularyType = SignalType | ImportedOnlyType | "price_change";

export const CATEGORY_LABEL: Record<SignalCategory, string> = {
  pricing: "Pricing",
  product: "Product",
  marketing: "Marketing",
  hiring: "Hiring",
  company: "Company",
  legal_security: "Legal and security",
};

/** Every type: its label and its category. */
export const TYPES: Record<VocabularyType, { label: string; category: SignalCategory }> = {
  price_increase: { label: "Price increase", category: "pricing" },
  price_decrease: { label: "Price cut", category: "pricing" },
  price_change: { label: "Price change", category: "pricing" },
  plan_added: { label: "Plan added", category: "pricing" },
  plan_removed: { label: "Plan removed", category: "pricing" },
  packaging_change: { label: "Packaging change", category: "pricing" },
  free_tier_change: { label: "Free tier change", category: "pricing" },
  feature_launch: { label: "Feature launch", category: "product" },
  feature_update: { label: "Feature update", category: "product" },
  feature_removed: { label: "Feature removed", category: "product" },
  release: { label: "Release", category: "product" },
  rating_drop: { label: "Rating drop", category: "product" },
  integration_added: { label: "Integration added", category: "product" },
  integration_removed: { label: "Integration removed", category: "product" },
  open_source: { label: "Open source", category: "product" },
  outage: { label: "Outage", category: "product" },
  messaging_change: { label: "Messaging change", category: "marketing" },
  page_added: { label: "Page added", category: "marketing" },
  page_removed: { label: "Page removed", category: "marketing" },
  domain_change: { label: "Domain change", category: "marketing" },
  mention: { label: "Mention", category: "marketing" },
  event: { label: "Event", category: "marketing" },
  hiring_surge: { label: "Hiring surge", category: "hiring" },
  hiring_slowdown: { label: "Hiring slowdown", category: "hiring" },
  key_role_opening: { label: "Key role opening", category: "hiring" },
  new_location: { label: "New hiring location", category: "hiring" },
  layoffs: { label: "Layoffs", category: "company" },
  leadership_change: { label: "Leadership change", category: "company" },
  funding: { label: "Funding", category: "company" },
  acquisition: { label: "Acquisition", category: "company" },
  filing: { label: "SEC filing", category: "company" },
  partnership: { label: "Partnership", category: "company" },
  office_opening: { label: "Office opening", category: "company" },
  customer_win: { label: "Customer win", category: "company" },
  security_incident: { label: "Security incident", category: "legal_security" },
  certification: { label: "Certification", category: "legal_security" },
  policy_change: { label: "Policy change", category: "legal_security" },
};

/** Names other tools (and older exports) give the same types. */
const TYPE_ALIASES: Record<string, VocabularyType> = {
  integration: "integration_added",
  new_integration: "integration_added",
  funding_round: "funding",
  fundraise: "funding",
  exec_change: "leadership_change",
  executive_change: "leadership_change",
  leadership: "leadership_change",
  hiring_spike: "hiring_surge",
  product_launch: "feature_launch",
  launch: "feature_launch",
  new_feature: "feature_launch",
  new_plan: "plan_added",
  security: "security_incident",
  partnerships: "partnership",
  acquisitions: "acquisition",
  price_rise: "price_increase",
  price_cut: "price_decrease",
};

/** Names other tools give the categories. */
const CATEGORY_ALIASES: Record<string, SignalCategory> = {
  corporate: "company",
  funding: "company",
  leadership: "company",
  partnerships: "company",
  partnership: "company",
  customers: "company",
  people: "company",
  security: "legal_security",
  legal: "legal_security",
  compliance: "legal_security",
  reliability: "product",
  jobs: "hiring",
  talent: "hiring",
};

const slugOf = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");

const RISE =
  /\b(?:rais(?:es|ed|ing)|increas(?:es|ed|ing)|hikes?|hiked|up from|more expensive|grows? (?:its )?price)\b/i;
const CUT =
  /\b(?:cuts?|lower(?:s|ed)?|reduc(?:es|ed)|drops?|dropped|decreas(?:es|ed)|discount(?:s|ed)?|cheaper)\b/i;

/** A price change's direction as the first text that states one says it: the title before the summary, so "raises
 * … by 20%" is a rise though its summary adds "annual discount unchanged". */
function direction(texts: readonly (string | undefined)[]): "price_increase" | "price_decrease" | undefined {
  for (const text of texts) {
    if (!text) continue;
    const rise = RISE.test(text);
    if (rise !== CUT.test(text)) return rise ? "price_increase" : "price_decrease";
  }
  return undefined;
}

/** A record's category and type in the one vocabulary: aliases mapped, a price change's direction read from
 * its own title and summary when they state it, the category the type belongs to. Names the vocabulary does
 * not know are kept (as slugs). */
export function inVocabulary(
  category: string | undefined,
  type: string | undefined,
  texts: readonly (string | undefined)[] = [],
): { category?: string; type?: string } {
  let t = type === undefined ? undefined : slugOf(type) || undefined;
  if (t && TYPE_ALIASES[t]) t = TYPE_ALIASES[t];
  if (t === "price_change") t = direction(texts) ?? t;
  const known = t && t in TYPES ? TYPES[t as VocabularyType] : undefined;
  let c = category === undefined ? undefined : slugOf(category) || undefined;
  if (c && CATEGORY_ALIASES[c]) c = CATEGORY_ALIASES[c];
  if (known) c = known.category;
  return { ...(c ? { category: c } : {}), ...(t ? { type: t } : {}) };
}

/** Labels of the other slugs a person reads: cadences, digest types, severities, statuses, watch levels. */
const OTHER_LABELS: Record<string, string> = {
  hourly: "Hourly",
  twice_daily: "Twice a day",
  daily: "Daily",
  weekly: "Weekly",
  monthly: "Monthly",
  daily_digest: "Daily digest",
  weekly_digest: "Weekly digest",
  weekly_tldr: "Weekly TL;DR",
  monthly_digest: "Monthly digest",
  low: "Low",
  medium: "Medium",
  high: "High",
  core: "Core",
  horizon: "Horizon",
};

/** The label a person reads for any slug of the product ("price_increase" → "Price increase", "twice_daily" →
 * "Twice a day", "legal_security" → "Legal and security"); an unknown slug is written as words. */
export function label(slug: string | null | undefined): string {
  if (!slug) return "";
  const s = slug.trim();
  const key = slugOf(s);
  if (key in CATEGORY_LABEL) return CATEGORY_LABEL[key as SignalCategory];
  if (key in TYPES) return TYPES[key as VocabularyType].label;
  if (TYPE_ALIASES[key]) return TYPES[TYPE_ALIASES[key]].label;
  if (OTHER_LABELS[key]) return OTHER_LABELS[key];
  const words = s.replace(/[_-]+/g, " ").replace(/\s+/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : "";
}

/** The same label inside a sentence: lower case, except names and abbreviations ("twice a day", "price cut",
 * "weekly TL;DR"). */
export function labelInText(slug: string | null | undefined): string {
  const l = label(slug);
  return /^[A-Z][a-z]/.test(l) ? l[0].toLowerCase() + l.slice(1) : l;
}
