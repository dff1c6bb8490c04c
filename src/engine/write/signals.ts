// Writing the engine's signals (docs/engine/classify.md): drafts from
// the classifier become SignalDetected / SignalEvidenceAdded / SignalClosed events through the single writer,
// projected into the same `signals` read table imported signals use (REST, MCP, app pages, search).
import type { WriteContext } from "../../../events/store.ts";
import {
  competitorNameAndRecord,
  openEngineSignalRows,
  staleEngineSignals,
} from "../../db/queries/cycleWrites.ts";
import { icpIsSet } from "../../domain/icpOverlap.ts";
import { decideObservation, type SourceObservation, type StatedRound } from "../../domain/observation.ts";
import { type CompetitorRecord, type SignalRecord, severityRank } from "../../domain/records.ts";
import {
  decideDetectSignals,
  decideExpire,
  type OpenEngineSignal,
  signalsToOpen,
} from "../../domain/signalDetection.ts";
import { loadSettings } from "../../domain/workspace.ts";
import type { Services } from "../../services.ts";
import type { SignalDraft } from "../classify/types.ts";
import { fundingRounds } from "../research/statements.ts";

export interface RecordResult {
  created: number[];
  updated: number[];
  closed: number[];
}

const iso = (d: Date | string) => (typeof d === "string" ? new Date(d).toISOString() : d.toISOString());

async function openSignals(
  w: WriteContext,
  orgId: number,
  competitorId: number,
): Promise<OpenEngineSignal[]> {
  return (await openEngineSignalRows(w.tx, orgId, competitorId)).map((row) => {
    const { competitor_id: _c, ...record } = JSON.parse(String(row.state)) as SignalRecord & {
      competitor_id: number;
    };
    return {
      id: Number(row.id),
      dedupKey: String(row.dedup_key),
      category: String(row.category),
      type: String(row.type),
      subject: row.subject === null ? null : String(row.subject),
      valueBefore: row.value_before === null ? null : String(row.value_before),
      valueAfter: row.value_after === null ? null : String(row.value_after),
      record,
    };
  });
}

/** The strongest drafts first, launches before releases: a signal opened from several drafts takes its type,
 * title and wording from the most telling one. */
function ordered(drafts: SignalDraft[]): SignalDraft[] {
  const pref = (d: SignalDraft) => (d.type === "feature_launch" ? 0 : 1);
  return drafts
    .map((d, i) => ({ d, i }))
    .sort(
      (a, b) => severityRank(b.d.severity) - severityRank(a.d.severity) || pref(a.d) - pref(b.d) || a.i - b.i,
    )
    .map((x) => x.d);
}

/** The names a sentence about the company itself uses: its name, the name's first word ("Globex" of "Globex
 * Insights") and its domain's label ("globex" of globex.example). */
function namesOf(name: string, website: unknown): string[] {
  const first = name.split(/\s+/)[0] ?? "";
  let label = "";
  try {
    label = new URL(String(website)).hostname.replace(/^www\./, "").split(".")[0] ?? "";
  } catch {}
  return [...new Set([name, first, label].filter((n) => n.length >= 4))];
}

/** The rounds the funding drafts' evidence announces, read sentence by sentence as research reads a page
 * (a sentence about the company itself that names a round and a raise). */
function announcedRounds(drafts: SignalDraft[], names: string[]): StatedRound[] {
  const texts = drafts
    .filter((d) => d.type === "funding")
    .flatMap((d) =>
      d.evidence.flatMap((e) => (e.text && e.source_url ? [{ url: e.source_url, text: e.text }] : [])),
    );
  return texts.length ? fundingRounds(texts, names) : [];
}

/** Records one competitor's classified drafts of a cycle: new signals, evidence appended to open ones (same
 * dedup key or the same named launch), and signals closed by a revert or a superseding change; in the same
 * command, what its changed sources say now on its dossier (`observed`, domain/observation.ts). */
export async function recordDrafts(
  services: Services,
  orgId: number,
  competitorId: number,
  drafts: SignalDraft[],
  now: Date | string,
  observed: SourceObservation[] = [],
): Promise<RecordResult> {
  if (drafts.length === 0 && observed.length === 0) return { created: [], updated: [], closed: [] };
  const at = iso(now);
  const { result } = await services.store.execute<RecordResult>(
    async (w) => {
      const c = await competitorNameAndRecord(w.tx, orgId, competitorId);
      if (!c) throw new Error(`competitor ${competitorId} is not in workspace ${orgId}`);
      const open = await openSignals(w, orgId, competitorId);
      const cmd = {
        orgId,
        competitorId,
        competitorName: c.name,
        drafts: ordered(drafts),
        now: at,
      };
      const ids: number[] = [];
      for (let n = signalsToOpen(open, cmd); n > 0; n--) ids.push(await w.nextId());
      const out = decideDetectSignals(open, cmd, ids);
      // The ICP overlap is read again when what the dossier says changes (as research and update_icp read it).
      const icp = observed.length ? (await loadSettings(w.tx, orgId)).icp : undefined;
      const seen = decideObservation(JSON.parse(c.state) as CompetitorRecord, {
        orgId,
        competitorId,
        observed,
        funding: announcedRounds(drafts, namesOf(c.name, c.websiteUrl)),
        signalsSeen: out.created.length + out.updated.length > 0,
        now: at,
        ...(icpIsSet(icp) ? { icp } : {}),
      });
      return {
        events: [...out.events, ...seen],
        result: { created: out.created, updated: out.updated, closed: out.closed },
      };
    },
    { actor: "engine", source: "engine" },
  );
  return result;
}

/** Closes the workspace's open engine signals that have not been seen for RIVALS_SIGNAL_TTL_DAYS. */
export async function closeExpiredSignals(
  services: Services,
  orgId: number,
  now: Date | string,
): Promise<{ closed: number[] }> {
  const at = iso(now);
  const cutoff = new Date(Date.parse(at) - services.config.signalTtlDays * 86_400_000).toISOString();
  const { result } = await services.store.execute<{ closed: number[] }>(
    async (w) => {
      const out = decideExpire(orgId, await staleEngineSignals(w.tx, orgId, cutoff), at);
      return { events: out.events, result: { closed: out.closed } };
    },
    { actor: "engine", source: "engine" },
  );
  return result;
}
