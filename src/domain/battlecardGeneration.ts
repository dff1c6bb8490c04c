// generate_battlecard: the rules around writing a battlecard (plan or free first week, first-brief lock,
// core competitor with finished research, daily cap), then the engine composes it and one
// BattlecardGenerated event stores it, the people's lines kept (battlecardProposals.ts); after a cycle the same
// composition is a first card or a proposal (projections/battlecards.ts and projections/engagement.ts).

import type { NewEvent } from "../../events/catalog.ts";
import type { Command, Loading } from "../../events/command.ts";
import type { Tx } from "../../events/store.ts";
import {
  battlecardGenerationsBetween,
  cardNotes,
  cardSignals,
  competitorCard,
} from "../db/queries/cardInputs.ts";
import {
  decideCardProposal,
  generatedCard,
  type Replaced,
  type StoredCard,
  teamOf,
} from "./battlecardProposals.ts";
import type { BattlecardNote, BattlecardSignal, ComposeBattlecard } from "./battlecardTypes.ts";
import { formatTime } from "./dates.ts";
import { DomainError } from "./errors.ts";
import { dailyCapReached, LOWEST_PAID, PLANS, planOf } from "./plans.ts";
import type { CompetitorRecord } from "./records.ts";
import { prune } from "./validate.ts";
import {
  type Caller,
  type CompetitorRow,
  findTrackedCompetitor,
  loadOrg,
  type OrgRow,
  refuseNonCore,
} from "./watchlist.ts";
import { loadSettings, utcDay, type WorkspaceSettings } from "./workspace.ts";

type Exec = Pick<Tx, "execute">;
const DAY = 86_400_000;
export const FREE_WEEK_DAYS = 7;
/** How many of the competitor's newest open signals a battlecard reads. */
export const SIGNALS_READ = 20;

/** Research is finished when the dossier holds at least one research read (`reads`) or research has
 * stamped it (`freshness.state_updated_at`). A name and website alone (a fresh add_competitor) is not. */
export function researchFinished(r: CompetitorRecord): boolean {
  return Boolean(r.freshness?.state_updated_at) || Object.keys(r.reads ?? {}).length > 0;
}

export async function battlecardsGeneratedToday(tx: Exec, orgId: number, now: Date): Promise<number> {
  const { start, end } = utcDay(now);
  return battlecardGenerationsBetween(tx, orgId, start, end);
}

export interface GenerateResult {
  battlecard_id: number;
  competitor_id: number;
  rewritten: boolean;
  /** What the new card replaced (absent for a first card). */
  replaced?: Replaced;
  generations_today: { used: number; limit: number; plan: string };
}

/** What a card is composed from besides the dossier: the competitor's newest signals, the team's newest notes,
 * and the card it has already (replaced under the same id and key). */
export interface CardInputs {
  signals: BattlecardSignal[];
  notes: BattlecardNote[];
  notesTotal: number;
  existing?: { id: number; key: string; stored: StoredCard };
}

export async function loadCardInputs(tx: Exec, orgId: number, competitorId: number): Promise<CardInputs> {
  // The newest notes only: the card, and every result that carries it, stays bounded however many the team wrote.
  const [signals, notes, existing] = await Promise.all([
    cardSignals(tx, orgId, competitorId, SIGNALS_READ),
    cardNotes(tx, orgId, competitorId),
    competitorCard<StoredCard>(tx, orgId, competitorId),
  ]);
  return { signals, notes: notes.notes, notesTotal: notes.total, ...(existing ? { existing } : {}) };
}

/** The id a card is stored under: the existing card's, else a new one. */
export async function cardId(w: Pick<Loading, "nextId">, inputs: CardInputs): Promise<number> {
  return inputs.existing ? inputs.existing.id : await w.nextId();
}

export interface GenerateBattlecardState {
  org: OrgRow;
  settings: WorkspaceSettings;
  /** The competitor named, when this workspace tracks it. */
  comp: CompetitorRow | undefined;
  /** Battlecard generations of the workspace this UTC day. */
  usedToday: number;
  /** Read when the competitor is tracked. */
  card?: CardInputs;
}

export async function loadGenerateBattlecard(
  tx: Exec,
  c: Caller,
  cmd: { competitor_id: number },
  now: Date,
): Promise<GenerateBattlecardState> {
  const org = await loadOrg(tx, c.orgId);
  const settings = await loadSettings(tx, c.orgId);
  const comp = await findTrackedCompetitor(tx, c.orgId, cmd.competitor_id);
  const usedToday = await battlecardsGeneratedToday(tx, c.orgId, now);
  return {
    org,
    settings,
    comp,
    usedToday,
    ...(comp ? { card: await loadCardInputs(tx, c.orgId, comp.id) } : {}),
  };
}

/** generate_battlecard, with the composer that writes the card's text (the engine's, passed in). Its state is
 * the workspace's plan, settings and day's use besides the card: no one stream. */
export function generateBattlecard(
  composeBattlecard: ComposeBattlecard,
): Command<{ competitor_id: number }, GenerateBattlecardState & { cardId: number }, GenerateResult> {
  return {
    load: async (w, cmd, c) => {
      const st = await loadGenerateBattlecard(w.tx, c, cmd, w.now);
      // No card without a tracked competitor: the decider refuses before it needs an id.
      return { ...st, cardId: st.card ? await cardId(w, st.card) : 0 };
    },
    decide: (st, cmd, { caller, now }) =>
      decideGenerateBattlecard(st, caller, cmd, { now, cardId: st.cardId, composeBattlecard }),
  };
}

/** `cardId`: the id the card is stored under (cardId); `composeBattlecard` writes its text (pure). */
export function decideGenerateBattlecard(
  st: GenerateBattlecardState,
  c: Caller,
  cmd: { competitor_id: number },
  opts: { now: Date; cardId: number; composeBattlecard: ComposeBattlecard },
): { events: NewEvent[]; result: GenerateResult } {
  const { now } = opts;
  const plan = planOf(st.org.plan);
  const freeWeekEnds = Date.parse(st.org.created_at) + FREE_WEEK_DAYS * DAY;
  if (!plan.paid && now.getTime() >= freeWeekEnds)
    throw new DomainError(
      "plan_required",
      `generate_battlecard needs a paid plan (${PLANS[LOWEST_PAID].label} or higher) after the workspace's free first week, which ended ${formatTime(new Date(freeWeekEnds))}; this workspace is on ${plan.label}.`,
      { plan: plan.name, plan_needed: LOWEST_PAID, free_week_ended_at: new Date(freeWeekEnds).toISOString() },
    );
  if (st.settings.firstBrief === "running")
    throw new DomainError(
      "locked",
      "Battlecards are locked while the workspace's first brief runs; try again when the first brief has finished.",
    );
  const comp = refuseNonCore(st.comp?.id === cmd.competitor_id ? st.comp : undefined, "generate_battlecard");
  if (!researchFinished(comp.record))
    throw new DomainError(
      "research_required",
      `${comp.name} has no finished research yet (no research reads in its dossier); run research_competitor first, then generate the battlecard.`,
      { competitor_id: comp.id },
    );
  const used = st.usedToday;
  if (used >= plan.dailyCaps.battlecards) throw dailyCapReached(plan, "battlecards", used, utcDay(now).end);
  if (!st.card)
    throw new Error("decideGenerateBattlecard: a tracked competitor's state includes its card inputs");

  const card = composeCard(
    { orgId: c.orgId, comp, own: st.settings.profile, by: { trigger: "tool" } },
    st.card,
    opts,
  );
  return {
    events: card.event ? [card.event] : [],
    result: {
      battlecard_id: card.id,
      competitor_id: comp.id,
      rewritten: card.rewritten,
      ...(card.replaced ? { replaced: card.replaced } : {}),
      generations_today: { used: used + 1, limit: plan.dailyCaps.battlecards, plan: plan.name },
    },
  };
}

/** Who wrote a card: `generate_battlecard` (counts toward the daily cap) or a monitoring cycle that recorded a
 * new medium or high signal about the competitor (does not). */
export type CardTrigger = { trigger: "tool" } | { trigger: "cycle"; cycle_id: number };

export interface ComposedCardEvent {
  /** None when a cycle finds nothing to propose. */
  event?: NewEvent;
  id: number;
  rewritten: boolean;
  /** A cycle proposed an update instead of writing the card. */
  proposed: boolean;
  replaced?: Replaced;
}

/** Composes the competitor's card from its dossier, newest signals and the team's newest notes. On request
 * (`tool`) or for a competitor without a card, one BattlecardGenerated event stores it (same id when it replaces
 * an earlier card; the person's lines kept). After a cycle, a card that exists is never rewritten: a
 * BattlecardProposed event stores what the engine would change, for a member to accept or dismiss. */
export function composeCard(
  about: { orgId: number; comp: CompetitorRow; own: WorkspaceSettings["profile"]; by: CardTrigger },
  inputs: CardInputs,
  opts: { now: Date; cardId: number; composeBattlecard: ComposeBattlecard },
): ComposedCardEvent {
  const { orgId, comp, by } = about;
  const stored = inputs.existing?.stored;
  const team = teamOf(stored);
  const composed = opts.composeBattlecard({
    competitorId: comp.id,
    competitor: comp.record,
    signals: inputs.signals,
    notes: inputs.notes,
    notesTotal: inputs.notesTotal,
    own: about.own,
    now: opts.now.toISOString(),
    ...(team ? { team } : {}),
  });
  const id = opts.cardId;
  if (by.trigger === "cycle" && inputs.existing && stored) {
    const proposed = decideCardProposal({ id, competitor_id: comp.id, orgId, stored }, composed, {
      now: opts.now,
      cycle_id: by.cycle_id,
    });
    return {
      ...(proposed
        ? {
            event: {
              type: proposed.type,
              orgId,
              streamType: "battlecard",
              streamId: String(id),
              data: proposed.data,
            } as NewEvent,
          }
        : {}),
      id,
      rewritten: false,
      proposed: Boolean(proposed),
    };
  }
  const key = inputs.existing ? inputs.existing.key : `generated-${comp.id}`;
  const { record, replaced } = generatedCard(stored, composed, opts.now);
  return {
    event: {
      type: "BattlecardGenerated",
      orgId,
      streamType: "battlecard",
      streamId: String(id),
      data: {
        id,
        key,
        competitor_id: comp.id,
        record: prune(record) as StoredCard,
        ...(by.trigger === "cycle" ? by : {}),
      },
    },
    id,
    rewritten: Boolean(inputs.existing),
    proposed: false,
    ...(replaced ? { replaced } : {}),
  };
}

/** A competitor whose card a cycle keeps: tracked on the core watchlist, its research done. */
function cardKeptAfterCycle(comp: CompetitorRow | undefined): CompetitorRow | undefined {
  return comp && comp.watch === "core" && researchFinished(comp.record) ? comp : undefined;
}

export interface CycleCardState {
  own: WorkspaceSettings["profile"];
  /** The competitor, when a cycle keeps its card. */
  comp?: CompetitorRow;
  card?: CardInputs;
  cardId?: number;
}

/** After a cycle that recorded a new medium or high signal about a competitor: its first card, or a proposal
 * for the card it has (composeCard). A competitor removed, moved to the horizon or not yet researched gets
 * nothing. The composer that writes the card's text is the engine's, passed in. */
export function cardAfterCycle(
  composeBattlecard: ComposeBattlecard,
): Command<{ competitor_id: number; cycle_id: number }, CycleCardState, "written" | "proposed" | "none"> {
  return {
    load: async (w, input, c) => {
      const own = (await loadSettings(w.tx, c.orgId)).profile;
      const comp = cardKeptAfterCycle(await findTrackedCompetitor(w.tx, c.orgId, input.competitor_id));
      if (!comp) return { own };
      const card = await loadCardInputs(w.tx, c.orgId, comp.id);
      return { own, comp, card, cardId: await cardId(w, card) };
    },
    decide: (st, input, { caller, now }) => {
      const comp = cardKeptAfterCycle(st.comp);
      if (!comp || !st.card || st.cardId === undefined) return { events: [], result: "none" };
      const out = composeCard(
        { orgId: caller.orgId, comp, own: st.own, by: { trigger: "cycle", cycle_id: input.cycle_id } },
        st.card,
        { now, cardId: st.cardId, composeBattlecard },
      );
      if (!out.event) return { events: [], result: "none" };
      return { events: [out.event], result: out.proposed ? "proposed" : "written" };
    },
  };
}
