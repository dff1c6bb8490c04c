// The classifier's input context and output (docs/engine.md "Classification and signals").
import type { Originals } from "../compare/normalise.ts";
import type { Snapshot } from "../compare/types.ts";
import type { SourceRule } from "./rule.ts";

export type { Severity } from "../../domain/records.ts";
export type { SignalCategory, SignalDraft, SignalType } from "../../domain/signalDraft.ts";

export interface ClassifyContext {
  competitor: { id: number; name: string };
  /** home, pricing, changelog, careers, blog, integrations, security, legal, about, feed, jobs, product,
   * docs, press, customers … (anything else is read as a non-key page). */
  pageKind: string;
  /** What the source is of, when its items do not say it (a GitHub repository's name). */
  sourceName?: string;
  /** The source kind's own rules (sources/kinds/): its changes of the change kinds they read go to them. */
  rules?: readonly SourceRule[];
  pageTitle?: string;
  observedAt: string;
  /** The source's snapshot before and after (optional): lets rules see what a change alone does not say
   * (a feature that moved to a dearer plan, a job location never seen before). */
  previous?: Snapshot;
  snapshot?: Snapshot;
  /** The texts masking changed in the new snapshot, as the page wrote them: titles, summaries and evidence
   * quote these, never a placeholder. */
  originals?: Originals;
}
