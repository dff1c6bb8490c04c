// What every classification rule shares: the run's context and output (Rules), evidence items, pushing a
// draft, and the declaration each rule carries (the change kinds it reads, the signals it gives, a line on
// when) — the table in docs/engine.md is generated from these declarations.
import type { EvidenceItem } from "../../domain/records.ts";
import { originalsOf, quoted } from "../compare/originals.ts";
import type { Change, ChangeKind } from "../compare/types.ts";
import type { ClassifyContext, SignalCategory, SignalDraft, SignalType } from "./types.ts";
import { clip, readable } from "./wording.ts";

export interface Rules {
  ctx: ClassifyContext;
  name: string;
  out: SignalDraft[];
}

const originals = (r: Rules) => r.ctx.originals ?? originalsOf(r.ctx.snapshot);

export function evidence(r: Rules, c: Change, text: string, url?: string, title?: string): EvidenceItem {
  const e: EvidenceItem = { text: clip(quoted(text, originals(r)), 600) };
  const t = title ?? r.ctx.pageTitle;
  if (t) e.source_title = t;
  e.source_url = url ?? c.url;
  e.observed_at = r.ctx.observedAt;
  return e;
}

export function push(r: Rules, d: SignalDraft): void {
  d.title = clip(readable(d.title, r.name, originals(r)), 300);
  d.summary = clip(readable(d.summary, r.name, originals(r), { summary: true }), 1000);
  r.out.push(d);
}

/** What a rule declares about itself: the change kinds it reads, the signals it can give, and when. */
export interface RuleInfo {
  /** The rule's function name. */
  id: string;
  /** The rule family (its file). */
  family: string;
  /** The change kinds it reads; `failed_check`: the cycle's failed checks of a source, not a change. */
  reads: readonly (ChangeKind | "failed_check")[];
  gives: Partial<Record<SignalCategory, readonly SignalType[]>>;
  /** How severe its signals are, in one line. */
  severity: string;
  /** When it fires, in one line. */
  when: string;
}

/** A rule: its function, with its declaration attached. */
export type Rule<F> = F & { info: RuleInfo };

/** A rule of one source kind (sources/kinds/): it reads that kind's changes one at a time. */
export type SourceRule = Rule<(r: Rules, c: Change) => unknown>;

export function rule<F extends (...args: never[]) => unknown>(info: RuleInfo, fn: F): Rule<F> {
  return Object.assign(fn, { info });
}

/** The fields of a draft about a state (a price, a headline, an address): its key, which it supersedes and
 * reverts (the same key: the newest value stands, going back reopens), and the value before and after. */
export function stateChange(key: string, before: string | null, after: string | null) {
  return { key, supersedes: key, reverts: key, value: { before, after } };
}
