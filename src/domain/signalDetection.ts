// The decider for signals the engine detects (docs/engine/classify.md): given the open
// engine signals of one competitor and the drafts a cycle classified, which signals open, which gain evidence
// and which close. One real-world event (same dedup key, or the same named launch on another source) is one
// signal; a change that restores an open signal's old value reverts (closes) it; a change to another value
// supersedes it (closes it and opens a new one).
import type { NewEvent } from "../../events/catalog.ts";
import { LIST } from "./limits.ts";
import { type EvidenceItem, type SignalRecord, severityRank } from "./records.ts";
import type { SignalDraft } from "./signalDraft.ts";

export interface OpenEngineSignal {
  id: number;
  dedupKey: string;
  category: string;
  type: string;
  subject: string | null;
  valueBefore: string | null;
  valueAfter: string | null;
  record: SignalRecord;
}

export interface DetectSignalsCommand {
  orgId: number;
  competitorId: number;
  /** Its name, left out when launch subjects are matched. */
  competitorName?: string;
  drafts: SignalDraft[];
  now: string;
}

export interface DetectSignalsOutcome {
  events: NewEvent[];
  created: number[];
  updated: number[];
  closed: number[];
}

/** At most this many evidence items are kept on one signal; later sightings only move last_seen_at. */
export const MAX_EVIDENCE = LIST.evidence;

const STOP = new Set([
  "a",
  "an",
  "and",
  "the",
  "of",
  "for",
  "to",
  "in",
  "on",
  "with",
  "new",
  "our",
  "your",
  "now",
  "is",
  "are",
  "by",
  "at",
  "from",
]);

/** The significant words of a subject (the company's own name left out), for matching one launch named
 * slightly differently on two sources. */
export function subjectTokens(s: string | null | undefined, company = ""): Set<string> {
  const own = new Set(company.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return new Set(
    (s ?? "")
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 2 && !STOP.has(w) && !own.has(w)),
  );
}

/** Same named thing: the word sets overlap by ≥ 60%, or one holds the other's 2+ words and they are at
 * least half of it ("Saved questions" and "Saved questions in Globex Ask"; not "Ask" and that). */
export function sameSubject(
  a: string | null | undefined,
  b: string | null | undefined,
  company = "",
): boolean {
  const x = subjectTokens(a, company);
  const y = subjectTokens(b, company);
  if (x.size === 0 || y.size === 0) return false;
  const common = [...x].filter((w) => y.has(w)).length;
  if (common === 0) return false;
  if (common / new Set([...x, ...y]).size >= 0.6) return true;
  const [small, big] = x.size <= y.size ? [x, y] : [y, x];
  return common === small.size && small.size >= 2 && small.size / big.size >= 0.5;
}

/** Types whose drafts from different sources name the same event by its subject (a launch on the blog, the
 * changelog and the feed). */
const FUZZY = new Set([
  "feature_launch",
  "release",
  "funding",
  "acquisition",
  "partnership",
  "leadership_change",
  "certification",
  "security_incident",
  "office_opening",
]);

function fuzzyMatch<T extends { category: string; type: string; subject: string | null }>(
  candidates: Iterable<T>,
  d: SignalDraft,
  company: string,
): T | undefined {
  if (!FUZZY.has(d.type) || !d.subject) return undefined;
  const launchLike = (t: string) => t === "feature_launch" || t === "release";
  for (const c of candidates) {
    if (c.category !== d.category) continue;
    if (c.type !== d.type && !(launchLike(c.type) && launchLike(d.type))) continue;
    if (sameSubject(c.subject, d.subject, company)) return c;
  }
  return undefined;
}

/** One piece of evidence: its page and its text; for a site-wide change (a navigation link every page shows)
 * its text alone, whichever page it was read on. */
const evidenceId = (e: EvidenceItem, sitewide?: boolean) =>
  sitewide ? (e.text ?? "") : `${e.source_url ?? ""}\u0000${e.text ?? ""}`;

function novelEvidence(have: EvidenceItem[], add: EvidenceItem[], sitewide?: boolean): EvidenceItem[] {
  const seen = new Set(have.map((e) => evidenceId(e, sitewide)));
  const out: EvidenceItem[] = [];
  for (const e of add) {
    const id = evidenceId(e, sitewide);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(e);
  }
  return out;
}

function freshEvidence(have: EvidenceItem[], add: EvidenceItem[], sitewide?: boolean): EvidenceItem[] {
  return novelEvidence(have, add, sitewide).slice(0, Math.max(0, MAX_EVIDENCE - have.length));
}

const sources = (ev: EvidenceItem[]) => new Set(ev.map((e) => e.source_url ?? "")).size;

/** Confidence after corroboration: +0.05 for each further distinct source, at most 0.99. */
function corroborated(base: number, before: number, after: number): number {
  return Math.min(0.99, Math.round((base + 0.05 * Math.max(0, after - before)) * 100) / 100);
}

/** A signal the command opens; its id is given after matching, in the order signals open. */
interface Pending {
  draft: SignalDraft;
  evidence: EvidenceItem[];
  severity: SignalDraft["severity"];
  severityReasons: string[];
  confidence: number;
  confidenceReasons: string[];
  supersedes?: number;
  category: string;
  type: string;
  subject: string | null;
}

interface Update {
  evidence: EvidenceItem[];
  severity?: SignalDraft["severity"];
  severityReasons?: string[];
  confidence?: number;
  confidenceReasons?: string[];
}

/** The row key of an engine signal in `signals` (unique per signal; the dedup key can recur after a close). */
export function signalRowKey(competitorId: number, dedupKey: string, id: number): string {
  return `engine:${competitorId}:${dedupKey}:${id}`;
}

interface Matched {
  /** In the order they open. */
  pending: Map<string, Pending>;
  updates: Map<number, Update>;
  closes: { s: OpenEngineSignal; reason: "reverted" | "superseded"; by?: Pending; ev?: EvidenceItem[] }[];
}

/** Matches the drafts against the open signals and each other: what opens, gains evidence and closes. */
function match(open: OpenEngineSignal[], cmd: DetectSignalsCommand): Matched {
  const byKey = new Map(open.map((s) => [s.dedupKey, s]));
  const openLeft = new Set(open);
  const pending = new Map<string, Pending>();
  const updates = new Map<number, Update>();
  const closes: Matched["closes"] = [];

  const openNew = (d: SignalDraft, supersedes?: number): Pending => {
    const p: Pending = {
      draft: d,
      evidence: freshEvidence([], d.evidence, d.sitewide),
      severity: d.severity,
      severityReasons: [...d.severity_reasons],
      confidence: d.confidence,
      confidenceReasons: [...d.confidence_reasons],
      category: d.category,
      type: d.type,
      subject: d.subject ?? null,
      ...(supersedes !== undefined ? { supersedes } : {}),
    };
    pending.set(d.key, p);
    return p;
  };

  const mergeInto = (
    have: EvidenceItem[],
    cur: { severity: SignalDraft["severity"]; confidence: number },
    d: SignalDraft,
  ): Update | null => {
    const novel = novelEvidence(have, d.evidence, d.sitewide);
    const add = novel.slice(0, Math.max(0, MAX_EVIDENCE - have.length));
    const u: Update = { evidence: add };
    if (severityRank(d.severity) > severityRank(cur.severity)) {
      u.severity = d.severity;
      u.severityReasons = d.severity_reasons;
    }
    const before = sources(have);
    const after = sources([...have, ...add]);
    if (after > before) {
      u.confidence = corroborated(Math.max(cur.confidence, d.confidence), before, after);
      u.confidenceReasons = [`seen on ${after} sources`];
    } else if (d.confidence > cur.confidence) {
      u.confidence = d.confidence;
      u.confidenceReasons = d.confidence_reasons;
    }
    // Nothing new (the very same evidence again): no event. Novel evidence past the cap still moves last_seen_at.
    if (novel.length === 0 && !u.severity && u.confidence === undefined) return null;
    return u;
  };

  for (const d of cmd.drafts) {
    // Already opened by this command (the same launch on several sources of one cycle).
    const p = pending.get(d.key) ?? fuzzyMatch(pending.values(), d, cmd.competitorName ?? "");
    if (p) {
      const u = mergeInto(p.evidence, p, d);
      if (u) {
        p.evidence.push(...u.evidence);
        if (u.severity) {
          p.severity = u.severity;
          p.severityReasons = u.severityReasons ?? p.severityReasons;
        }
        if (u.confidence !== undefined) {
          p.confidence = u.confidence;
          p.confidenceReasons = [...p.confidenceReasons, ...(u.confidenceReasons ?? [])];
        }
      }
      continue;
    }
    const s = byKey.get(d.key) ?? fuzzyMatch(openLeft, d, cmd.competitorName ?? "");
    if (!s) {
      openNew(d);
      continue;
    }
    const hasValue = d.value !== undefined && (s.valueBefore !== null || s.valueAfter !== null);
    if (hasValue && d.reverts === s.dedupKey && s.valueBefore === d.value!.after) {
      closes.push({ s, reason: "reverted", ev: d.evidence });
      byKey.delete(s.dedupKey);
      openLeft.delete(s);
      continue;
    }
    if (hasValue && d.supersedes === s.dedupKey && s.valueAfter !== d.value!.after) {
      byKey.delete(s.dedupKey);
      openLeft.delete(s);
      const np = openNew(d, s.id);
      closes.push({ s, reason: "superseded", by: np });
      continue;
    }
    const prior = updates.get(s.id);
    const have = [...s.record.evidence, ...(prior?.evidence ?? [])];
    const cur = {
      severity: prior?.severity ?? s.record.severity ?? "low",
      confidence: prior?.confidence ?? s.record.confidence ?? 0,
    };
    const u = mergeInto(have, cur, d);
    if (!u) continue;
    updates.set(s.id, {
      evidence: [...(prior?.evidence ?? []), ...u.evidence],
      severity: u.severity ?? prior?.severity,
      severityReasons: u.severityReasons ?? prior?.severityReasons,
      confidence: u.confidence ?? prior?.confidence,
      confidenceReasons: u.confidenceReasons ?? prior?.confidenceReasons,
    });
  }

  return { pending, updates, closes };
}

/** How many signals the command opens: the ids decideDetectSignals needs allocated. */
export function signalsToOpen(open: OpenEngineSignal[], cmd: DetectSignalsCommand): number {
  return match(open, cmd).pending.size;
}

/** `ids`: one pre-allocated id per signal the command opens (signalsToOpen), given in the order they open. */
export function decideDetectSignals(
  open: OpenEngineSignal[],
  cmd: DetectSignalsCommand,
  ids: number[],
): DetectSignalsOutcome {
  const { pending, updates, closes } = match(open, cmd);
  if (ids.length !== pending.size)
    throw new Error(`decideDetectSignals: ${pending.size} signal ids needed, ${ids.length} given`);
  const idOf = new Map([...pending.values()].map((p, i) => [p, ids[i]]));
  const stream = (id: number) => ({ orgId: cmd.orgId, streamType: "signal" as const, streamId: String(id) });

  const events: NewEvent[] = [];
  const closed: number[] = [];
  for (const c of closes) {
    const ev = c.ev ? freshEvidence(c.s.record.evidence, c.ev) : [];
    events.push({
      type: "SignalClosed",
      ...stream(c.s.id),
      data: {
        id: c.s.id,
        closed_at: cmd.now,
        reason: c.reason,
        ...(c.by ? { by: idOf.get(c.by)! } : {}),
        ...(ev.length ? { evidence: ev } : {}),
      },
    });
    closed.push(c.s.id);
  }
  const created: number[] = [];
  for (const p of pending.values()) {
    const id = idOf.get(p)!;
    const d = p.draft;
    const record: SignalRecord = {
      title: d.title,
      summary: d.summary,
      category: d.category,
      type: d.type,
      severity: p.severity,
      status: "open",
      first_seen_at: cmd.now,
      last_seen_at: cmd.now,
      confidence: p.confidence,
      evidence: p.evidence,
    };
    events.push({
      type: "SignalDetected",
      ...stream(id),
      data: {
        id,
        key: signalRowKey(cmd.competitorId, d.key, id),
        competitor_id: cmd.competitorId,
        dedup_key: d.key,
        record,
        severity_reasons: p.severityReasons,
        confidence_reasons: p.confidenceReasons,
        ...(d.value ? { value: d.value } : {}),
        ...(d.subject ? { subject: d.subject } : {}),
        ...(p.supersedes !== undefined ? { supersedes: p.supersedes } : {}),
      },
    });
    created.push(id);
  }
  const updated: number[] = [];
  for (const [id, u] of updates) {
    events.push({
      type: "SignalEvidenceAdded",
      ...stream(id),
      data: {
        id,
        evidence: u.evidence,
        last_seen_at: cmd.now,
        ...(u.severity ? { severity: u.severity, severity_reasons: u.severityReasons ?? [] } : {}),
        ...(u.confidence !== undefined
          ? { confidence: u.confidence, confidence_reasons: u.confidenceReasons ?? [] }
          : {}),
      },
    });
    updated.push(id);
  }
  return { events, created, updated, closed };
}

/** Open engine signals unseen for `ttlDays` close as expired. */
export function decideExpire(
  orgId: number,
  expired: number[],
  now: string,
): { events: NewEvent[]; closed: number[] } {
  return {
    events: expired.map((id) => ({
      type: "SignalClosed" as const,
      orgId,
      streamType: "signal" as const,
      streamId: String(id),
      data: { id, closed_at: now, reason: "expired" as const },
    })),
    closed: expired,
  };
}
