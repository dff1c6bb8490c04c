// The engine's signal commands (src/engine/write/signals.ts, src/engine/archive/record.ts run them): a
// competitor's classified drafts recorded with what its changed sources now say on its dossier, and open
// signals closed once unseen for the TTL. Loaders read in the writer's transaction; the deciders are
// signalDetection.ts, observation.ts and history.ts.
import type { NewEvent } from "../../events/catalog.ts";
import type { Command } from "../../events/command.ts";
import { staleCompetitorSignals } from "../db/archiveHistory.ts";
import {
  competitorNameAndRecord,
  openEngineSignalRows,
  staleEngineSignals,
} from "../db/queries/cycleWrites.ts";
import { decideHistoryExpiry } from "./history.ts";
import { icpIsSet } from "./icpOverlap.ts";
import { decideObservation, type SourceObservation, type StatedRound } from "./observation.ts";
import { type CompetitorRecord, type SignalRecord, severityRank } from "./records.ts";
import {
  type DetectSignalsCommand,
  decideDetectSignals,
  decideExpire,
  type OpenEngineSignal,
  signalsToOpen,
} from "./signalDetection.ts";
import type { SignalDraft } from "./signalDraft.ts";
import { loadSettings } from "./workspace.ts";
import type { IcpProfile } from "./workspaceTypes.ts";

export interface RecordDraftsInput {
  competitorId: number;
  drafts: SignalDraft[];
  /** What the changed sources say now (domain/observation.ts). */
  observed: SourceObservation[];
  now: string;
}

export interface RecordDraftsState {
  competitor: { name: string; websiteUrl: string | null; record: CompetitorRecord };
  open: OpenEngineSignal[];
  /** One id per signal the drafts open. */
  ids: number[];
  /** The workspace's ideal customer profile, read when the dossier may change. */
  icp?: IcpProfile;
}

export interface RecordDraftsResult {
  created: number[];
  updated: number[];
  closed: number[];
}

/** The funding rounds the drafts' evidence announces about the company (`name`, `website`): the engine's
 * sentence reader, passed in. */
export type AnnouncedRounds = (drafts: SignalDraft[], name: string, website: string | null) => StatedRound[];

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

const detectCommand = (orgId: number, name: string, input: RecordDraftsInput): DetectSignalsCommand => ({
  orgId,
  competitorId: input.competitorId,
  competitorName: name,
  drafts: ordered(input.drafts),
  now: input.now,
});

function openSignal(row: Record<string, unknown>): OpenEngineSignal {
  const { competitor_id: _c, ...record } = JSON.parse(String(row.state)) as SignalRecord & {
    competitor_id: number;
  };
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id: Number(row.id),
    dedupKey: String(row.dedup_key),
    category: String(row.category),
    type: String(row.type),
    subject: str(row.subject),
    valueBefore: str(row.value_before),
    valueAfter: str(row.value_after),
    record,
  };
}

/** Records one competitor's classified drafts: new signals, evidence appended to open ones, signals closed by a
 * revert or a superseding change (decideDetectSignals); in the same command, what its changed sources say now
 * on its dossier (decideObservation). Its state is the competitor and its open signals: no one stream. */
export function recordSignalDrafts(
  announcedRounds: AnnouncedRounds,
): Command<RecordDraftsInput, RecordDraftsState, RecordDraftsResult> {
  return {
    load: async (w, input, c) => {
      const comp = await competitorNameAndRecord(w.tx, c.orgId, input.competitorId);
      if (!comp) throw new Error(`competitor ${input.competitorId} is not in workspace ${c.orgId}`);
      const open = (await openEngineSignalRows(w.tx, c.orgId, input.competitorId)).map((row) =>
        openSignal(row as Record<string, unknown>),
      );
      const ids: number[] = [];
      for (let n = signalsToOpen(open, detectCommand(c.orgId, comp.name, input)); n > 0; n--)
        ids.push(await w.nextId());
      // The ICP overlap is read again when what the dossier says changes (as research and update_icp read it).
      const icp = input.observed.length ? (await loadSettings(w.tx, c.orgId)).icp : undefined;
      return {
        competitor: {
          name: comp.name,
          websiteUrl: comp.websiteUrl,
          record: JSON.parse(comp.state) as CompetitorRecord,
        },
        open,
        ids,
        ...(icpIsSet(icp) ? { icp } : {}),
      };
    },
    decide: (st, input, { caller }) => {
      const { name, websiteUrl, record } = st.competitor;
      const out = decideDetectSignals(st.open, detectCommand(caller.orgId, name, input), st.ids);
      const seen = decideObservation(record, {
        orgId: caller.orgId,
        competitorId: input.competitorId,
        observed: input.observed,
        funding: announcedRounds(input.drafts, name, websiteUrl),
        signalsSeen: out.created.length + out.updated.length > 0,
        now: input.now,
        ...(st.icp ? { icp: st.icp } : {}),
      });
      const events: NewEvent[] = [...out.events, ...seen];
      return { events, result: { created: out.created, updated: out.updated, closed: out.closed } };
    },
  };
}

/** Closes the workspace's open engine signals last seen before `cutoff` (at most a thousand a command). */
export const expireSignals: Command<{ cutoff: string; now: string }, number[], { closed: number[] }> = {
  load: (w, input, c) => staleEngineSignals(w.tx, c.orgId, input.cutoff),
  decide: (stale, input, { caller }) => {
    const out = decideExpire(caller.orgId, stale, input.now);
    return { events: out.events, result: { closed: out.closed } };
  },
};

/** History's expiry: closes a competitor's open signals that would have expired by `at` (decideHistoryExpiry). */
export const expireHistoricalSignals: Command<
  { competitorId: number; at: string; ttlDays: number },
  { id: number; lastSeenAt: string }[],
  number[]
> = {
  load: (w, input, c) => {
    const cutoff = new Date(Date.parse(input.at) - input.ttlDays * 86_400_000).toISOString();
    return staleCompetitorSignals(w.tx, c.orgId, input.competitorId, cutoff);
  },
  decide: (stale, input, { caller }) => {
    const out = decideHistoryExpiry(caller.orgId, stale, input.at, input.ttlDays);
    return { events: out.events, result: out.closed };
  },
};
