// The classifier's input context and output (docs/engine.md "Classification and signals").
import type { EvidenceItem } from "../../domain/records.ts";
import type { Snapshot } from "../compare/types.ts";

export type { Severity } from "../../domain/records.ts";

import type { Severity } from "../../domain/records.ts";

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
  | "integration_added"
  | "integration_removed"
  | "messaging_change"
  | "page_added"
  | "page_removed"
  | "domain_change"
  | "hiring_surge"
  | "hiring_slowdown"
  | "key_role_opening"
  | "new_location"
  | "leadership_change"
  | "funding"
  | "acquisition"
  | "partnership"
  | "office_opening"
  | "security_incident"
  | "certification"
  | "policy_change";

export interface ClassifyContext {
  competitor: { id: number; name: string };
  /** home, pricing, changelog, careers, blog, integrations, security, legal, about, feed, jobs, product,
   * docs, press, customers … (anything else is read as a non-key page). */
  pageKind: string;
  pageTitle?: string;
  observedAt: string;
  /** The source's snapshot before and after (optional): lets rules see what a change alone does not say
   * (a feature that moved to a dearer plan, a job location never seen before). */
  previous?: Snapshot;
  snapshot?: Snapshot;
}

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
}
