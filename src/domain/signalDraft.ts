// What the engine's classification proposes and the domain decides on (domain/signalDetection.ts): a signal
// draft in the taxonomy of docs/engine/classify.md, with its evidence. Declared here, where the decision is made; the
// classifier (engine/classify) produces them.
import type { EvidenceItem, Severity } from "./records.ts";

export type SignalCategory = "pricing" | "product" | "marketing" | "hiring" | "company" | "legal_security";

export type SignalType =
  | "price_increase"
  | "price_decrease"
  | "plan_added"
  | "plan_removed"
  | "packaging_change"
  | "free_tier_change"
  | "feature_launch"
  | "feature_removed"
  | "release"
  | "rating_drop"
  | "open_source"
  | "integration_added"
  | "integration_removed"
  | "messaging_change"
  | "page_added"
  | "page_removed"
  | "domain_change"
  | "mention"
  | "hiring_surge"
  | "hiring_slowdown"
  | "key_role_opening"
  | "new_location"
  | "leadership_change"
  | "funding"
  | "acquisition"
  | "filing"
  | "partnership"
  | "office_opening"
  | "security_incident"
  | "certification"
  | "policy_change";

export interface SignalDraft {
  /** Dedup key: the same real-world event gives the same key across sources and cycles (per competitor). */
  key: string;
  category: SignalCategory;
  type: SignalType;
  severity: Severity;
  severity_reasons: string[];
  /** 0..1 */
  confidence: number;
  confidence_reasons: string[];
  title: string;
  summary: string;
  evidence: EvidenceItem[];
  /** The key of an open signal this change replaces when its value differs (a price changed again). */
  supersedes?: string;
  /** The key of an open signal this change undoes when it restores that signal's old value. */
  reverts?: string;
  /** The state the signal records, compared with open signals of the same key: equal `after` is the same
   * change seen again; this `after` equal to the open one's `before` is a revert. */
  value?: { before: string | null; after: string | null };
  /** Named subject (feature, product, plan, integration …) for matching the same launch across sources. */
  subject?: string;
  /** The change shows on every page of the site (a navigation link): the same evidence text read on
   * another page is not another piece of evidence. */
  sitewide?: boolean;
}
