// A battlecard holds two kinds of words: a person's (an imported or curated card, or what a member accepted) and
// the engine's. The engine never overwrites a person's line: after a cycle what it would change is stored as a
// proposal (lines to add, lines to drop and why) that a member accepts or dismisses; generate_battlecard, asked
// for, replaces only the engine's own lines and says what it replaced. These are the pure rules; the card's
// text comes from the composer (engine/battlecards.ts), passed in.
import type { NewEvent } from "../../events/catalog.ts";
import type { Command, StreamAt } from "../../events/command.ts";
import type { Tx } from "../../events/store.ts";
import { listedCardById } from "../db/queries/cardInputs.ts";
import type { CardLine, ComposedBattlecard, OutdatedLine } from "./battlecardTypes.ts";
import { formatDay } from "./dates.ts";
import { DomainError } from "./errors.ts";
import { TEXT } from "./limits.ts";
import type { BattlecardRecord } from "./records.ts";

type Obj = Record<string, unknown>;

const DATE_WORDS = new Set("jan feb mar apr may jun jul aug sep oct nov dec since seen".split(" "));
/** Words of a line, for telling two lines apart: its dates left out (two moves of one week are not alike). */
function words(s: string): Set<string> {
  return new Set(
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}$%]+/gu, " ")
      .split(" ")
      .filter((w) => w.length > 2 && !DATE_WORDS.has(w) && !/^(?:19|20)\d\d$/.test(w)),
  );
}
/** Two lines say the same thing when most of their words are shared (Jaccard ≥ 0.6, or `at` given). */
export function sameThing(a: string, b: string, at = 0.6): boolean {
  const x = words(a);
  const y = words(b);
  if (!x.size || !y.size) return a.trim().toLowerCase() === b.trim().toLowerCase();
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  return both / (x.size + y.size - both) >= at;
}

/** The sections a card lists line by line; `overview` is one paragraph. */
export const LIST_SECTIONS = ["strengths", "weaknesses", "talk_tracks", "landmines", "recent_moves"] as const;

export interface ProposalLine {
  section: string;
  text: string;
  /** Why a line would go: the newer fact, or that the engine no longer states it. */
  because?: string;
  signal_id?: number;
  source_url?: string;
  observed_at?: string;
}

export interface BattlecardProposal {
  proposed_at: string;
  cycle_id?: number;
  /** The card version the proposal was made on (accepting a proposal made on another is refused). */
  base_generated_at?: string;
  add: ProposalLine[];
  drop: ProposalLine[];
  /** The card once accepted. */
  sections: Obj;
  evidence: Obj;
  team?: Obj;
}

/** A team line whose drop a member dismissed, and the fact that proposed it. */
export interface KeptLine {
  section: string;
  text: string;
  because: string;
}

/** How many dismissed drops a card remembers (the newest). */
const KEPT_MAX = 50;

/** The card as stored (projections/battlecards.ts `state`). */
export interface StoredCard extends BattlecardRecord {
  team?: Obj;
  team_at?: string;
  proposal?: BattlecardProposal;
  /** Drops a member dismissed: the line stays, and the same fact does not propose its drop again. */
  kept?: KeptLine[];
}

/** The card's dismissed drops with `more` added, newest last, bounded. */
export function keptWith(card: StoredCard | undefined, more: readonly KeptLine[] = []): KeptLine[] {
  const all = [...(card?.kept ?? [])];
  for (const k of more)
    if (!all.some((x) => x.section === k.section && x.text === k.text && x.because === k.because))
      all.push(k);
  return all.slice(-KEPT_MAX);
}

/** The outdated lines a member has not already kept against the same fact. */
function notKept(outdated: readonly OutdatedLine[], card: StoredCard | undefined): OutdatedLine[] {
  const kept = card?.kept ?? [];
  return outdated.filter(
    (o) =>
      !kept.some(
        (k) => k.section === o.section && k.text === o.text && k.because === `Newer fact: ${o.because}`,
      ),
  );
}

const lines = (v: unknown): string[] =>
  typeof v === "string"
    ? v.trim()
      ? [v]
      : []
    : Array.isArray(v)
      ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "")
      : [];

/** The person's sections of a stored card: what it says it holds, else all of a card the engine did not
 * compose (an imported or curated card), else none. */
export function teamOf(card: StoredCard | undefined): { sections: Obj; at?: string } | undefined {
  if (!card) return undefined;
  const method = (card.evidence as Obj | undefined)?.method;
  const composed = typeof method === "string" && /^rules-v\d/.test(method);
  const sections = card.team ?? (composed ? undefined : card.sections);
  if (!sections) return undefined;
  const { team_framing: _notes, ...own } = sections as Obj;
  return Object.keys(own).length
    ? {
        sections: own,
        ...((card.team_at ?? card.generated_at) ? { at: card.team_at ?? card.generated_at } : {}),
      }
    : undefined;
}

/** The card a composition gives: the person's lines first (minus `drop`), then the engine's lines (minus those
 * held back), the person's overview over the engine's. */
export function mergeCard(
  team: Obj | undefined,
  composed: ComposedBattlecard,
  opts: { drop?: OutdatedLine[]; hold?: (l: CardLine) => boolean } = {},
): { sections: Obj; team?: Obj; lines: CardLine[] } {
  const dropped = (section: string, text: string) =>
    (opts.drop ?? []).some((d) => d.section === section && d.text === text);
  const keptTeam: Obj = {};
  const all: CardLine[] = [];
  const sections: Obj = {};
  const teamOverview = lines(team?.overview)[0];
  if (teamOverview) {
    keptTeam.overview = teamOverview;
    sections.overview = teamOverview;
    all.push({ section: "overview", text: teamOverview, by: "team" });
  } else if (composed.sections.overview) sections.overview = composed.sections.overview;
  for (const k of Object.keys(team ?? {}))
    if (!(LIST_SECTIONS as readonly string[]).includes(k) && k !== "overview" && team?.[k] !== undefined) {
      keptTeam[k] = team[k];
      sections[k] = team[k];
    }
  for (const section of LIST_SECTIONS) {
    const own = lines(team?.[section]).filter((t) => !dropped(section, t));
    if (own.length) keptTeam[section] = own;
    const engine = composed.lines.filter((l) => l.section === section && !(opts.hold?.(l) ?? false));
    for (const t of own) all.push({ section, text: t, by: "team" });
    all.push(...engine);
    const merged = [...own, ...engine.map((l) => l.text)];
    if (merged.length) sections[section] = merged;
  }
  if (composed.sections.team_framing.length) sections.team_framing = composed.sections.team_framing;
  return { sections, ...(team ? { team: keptTeam } : {}), lines: all };
}

/** The card's evidence: the composer's, every line with its trace, and the sources the person's card cited. */
export function cardEvidence(composed: ComposedBattlecard, merged: CardLine[], previous?: StoredCard): Obj {
  const before = (previous?.evidence ?? {}) as Obj;
  const theirs = Array.isArray(before.sources) ? (before.sources as Obj[]) : [];
  const ours = Array.isArray(composed.evidence.sources) ? (composed.evidence.sources as Obj[]) : [];
  const keptSources = previous && teamOf(previous) ? theirs.filter((s) => !("signal_id" in s)) : [];
  const seen = new Set<unknown>();
  const sources = [...keptSources, ...ours].filter((s) => {
    if (seen.has(s.url)) return false;
    seen.add(s.url);
    return true;
  });
  return {
    ...composed.evidence,
    ...(sources.length ? { sources } : {}),
    lines: merged.map(({ replaces: _r, ...l }) => l),
  };
}

/** What changes between the card as it is and the card a composition gives. */
export function diffCard(current: Obj, next: Obj, outdated: OutdatedLine[], nextLines: CardLine[]) {
  const add: ProposalLine[] = [];
  const drop: ProposalLine[] = [];
  for (const section of ["overview", ...LIST_SECTIONS]) {
    const was = lines(current[section]);
    const is = lines(next[section]);
    for (const text of is)
      if (!was.includes(text)) {
        const l = nextLines.find((x) => x.section === section && x.text === text);
        add.push({
          section,
          text,
          ...(l?.signal_id !== undefined ? { signal_id: l.signal_id } : {}),
          ...(l?.source_url ? { source_url: l.source_url } : {}),
          ...(l?.observed_at ? { observed_at: l.observed_at } : {}),
        });
      }
    for (const text of was)
      if (!is.includes(text)) {
        const o = outdated.find((x) => x.section === section && x.text === text);
        // An engine line that a newer line on the same thing replaces ("Team plan raised from $49 to $59" →
        // "from $59 to $69").
        const newer = add.find((a) => a.section === section && sameThing(a.text, text, 0.35));
        drop.push({
          section,
          text,
          because: o
            ? `Newer fact: ${o.because}`
            : newer
              ? `Newer fact: ${newer.text}`
              : section === "overview"
                ? "The overview is written again from the dossier."
                : "No longer among the newest, most material facts.",
          ...(o?.signal_id !== undefined ? { signal_id: o.signal_id } : {}),
        });
      }
  }
  return { add, drop };
}

const sameLines = (a: ProposalLine[], b: ProposalLine[]) =>
  a.length === b.length && a.every((x, i) => x.section === b[i].section && x.text === b[i].text);

/** After a cycle, for a card that exists: the proposal the engine's composition makes, or nothing when it
 * would change no line or repeats the pending proposal. */
export function decideCardProposal(
  card: { id: number; competitor_id: number; orgId: number; stored: StoredCard },
  composed: ComposedBattlecard,
  opts: { now: Date; cycle_id?: number },
): { type: "BattlecardProposed"; data: BattlecardProposedData } | undefined {
  const team = teamOf(card.stored);
  const outdated = notKept(composed.outdated, card.stored);
  const merged = mergeCard(team?.sections, composed, { drop: outdated });
  const { add, drop } = diffCard(card.stored.sections ?? {}, merged.sections, outdated, merged.lines);
  if (!add.length && !drop.length) return undefined;
  const pending = card.stored.proposal;
  if (pending && sameLines(pending.add, add) && sameLines(pending.drop, drop)) return undefined;
  const proposal: BattlecardProposal = {
    proposed_at: opts.now.toISOString(),
    ...(opts.cycle_id !== undefined ? { cycle_id: opts.cycle_id } : {}),
    ...(card.stored.generated_at ? { base_generated_at: card.stored.generated_at } : {}),
    add,
    drop,
    sections: merged.sections,
    evidence: cardEvidence(composed, merged.lines, card.stored),
    ...(merged.team ? { team: merged.team } : {}),
  };
  return { type: "BattlecardProposed", data: { id: card.id, competitor_id: card.competitor_id, proposal } };
}

export interface BattlecardProposedData {
  id: number;
  competitor_id: number;
  proposal: BattlecardProposal;
}

/** What generate_battlecard replaced, for its result. */
export interface Replaced {
  previous_generated_at?: string;
  removed: ProposalLine[];
  added: number;
  team_lines_kept: number;
  /** A proposal pending before, now replaced by this card (and by `pending_proposal` when there is one). */
  proposal_superseded?: string;
  summary: string;
}

/** generate_battlecard's card: the person's lines all kept, the engine's replaced; a fact that contradicts a
 * person's line goes into a proposal with that line's drop, for a member to accept. */
export function generatedCard(
  previous: StoredCard | undefined,
  composed: ComposedBattlecard,
  now: Date,
): { record: StoredCard; replaced?: Replaced } {
  const team = teamOf(previous);
  const hold = (l: CardLine) => Boolean(l.replaces?.length);
  const merged = mergeCard(team?.sections, composed, { hold });
  const evidence = cardEvidence(composed, merged.lines, previous);
  let proposal: BattlecardProposal | undefined;
  const outdated = notKept(composed.outdated, previous);
  if (outdated.length) {
    const full = mergeCard(team?.sections, composed, { drop: outdated });
    const { add, drop } = diffCard(merged.sections, full.sections, outdated, full.lines);
    if (add.length || drop.length)
      proposal = {
        proposed_at: now.toISOString(),
        base_generated_at: now.toISOString(),
        add,
        drop,
        sections: full.sections,
        evidence: cardEvidence(composed, full.lines, previous),
        ...(full.team ? { team: full.team } : {}),
      };
  }
  const record: StoredCard = {
    status: "generated",
    generated_at: now.toISOString(),
    sections: merged.sections,
    evidence,
    ...(team ? { team: merged.team ?? {}, ...(team.at ? { team_at: team.at } : {}) } : {}),
    ...(proposal ? { proposal } : {}),
    ...(previous?.kept?.length ? { kept: previous.kept } : {}),
  };
  if (!previous) return { record };
  const { add, drop } = diffCard(previous.sections ?? {}, merged.sections, [], merged.lines);
  const kept = merged.lines.filter((l) => l.by === "team").length;
  const removed = drop.map(({ because: _b, ...l }) => l);
  const superseded = previous.proposal?.proposed_at;
  const parts = [
    previous.generated_at
      ? `Replaced the card of ${formatDay(previous.generated_at)}`
      : "Replaced the earlier card",
    `${removed.length} line${removed.length === 1 ? "" : "s"} the engine wrote removed, ${add.length} added`,
    team
      ? `the team's ${kept} line${kept === 1 ? "" : "s"} kept as written`
      : "the card held no lines of the team",
  ];
  if (superseded) parts.push("the pending proposal replaced by this card");
  if (proposal)
    parts.push(
      `${proposal.drop.length} of the team's lines contradicted by newer facts: see the card's proposal to accept or dismiss`,
    );
  return {
    record,
    replaced: {
      ...(previous.generated_at ? { previous_generated_at: previous.generated_at } : {}),
      removed,
      added: add.length,
      team_lines_kept: kept,
      ...(superseded ? { proposal_superseded: superseded } : {}),
      summary: `${parts.join("; ")}.`,
    },
  };
}

/** A member accepts the pending proposal: the card becomes what it proposed. */
export function decideAcceptProposal(
  card: { id: number; key: string; competitor_id: number; stored: StoredCard } | undefined,
  cmd: { proposed_at?: string },
  now: Date,
): { type: "BattlecardProposalAccepted"; data: BattlecardProposalAcceptedData } {
  const p = pendingProposal(card, cmd);
  const record: StoredCard = {
    status: "generated",
    generated_at: now.toISOString(),
    sections: p.sections,
    evidence: p.evidence,
    ...(p.team ? { team: p.team } : {}),
    ...(card!.stored.team_at || p.team ? { team_at: card!.stored.team_at ?? card!.stored.generated_at } : {}),
    ...(card!.stored.kept?.length ? { kept: card!.stored.kept } : {}),
  };
  return {
    type: "BattlecardProposalAccepted",
    data: {
      id: card!.id,
      key: card!.key,
      competitor_id: card!.competitor_id,
      proposed_at: p.proposed_at,
      record,
    },
  };
}

export interface BattlecardProposalAcceptedData {
  id: number;
  key: string;
  competitor_id: number;
  proposed_at: string;
  record: StoredCard;
}

/** A member dismisses the pending proposal: the card stays as it is. */
export function decideDismissProposal(
  card: { id: number; competitor_id: number; stored: StoredCard } | undefined,
  cmd: { proposed_at?: string },
) {
  const p = pendingProposal(card, cmd);
  // The team's lines it would have dropped stay; the facts behind those drops propose them no more.
  const teamLines = teamOf(card!.stored)?.sections ?? {};
  const kept = p.drop
    .filter((d) => d.because && lines(teamLines[d.section]).includes(d.text))
    .map((d) => ({ section: d.section, text: d.text, because: d.because! }));
  return {
    type: "BattlecardProposalDismissed" as const,
    data: {
      id: card!.id,
      competitor_id: card!.competitor_id,
      proposed_at: p.proposed_at,
      ...(kept.length ? { kept } : {}),
    },
  };
}

function pendingProposal(card: { stored: StoredCard } | undefined, cmd: { proposed_at?: string }) {
  if (!card) throw new DomainError("not_found", "No battlecard with that id in this workspace.");
  const p = card.stored.proposal;
  if (!p) throw new DomainError("conflict", "This battlecard has no proposed update to accept or dismiss.");
  if (cmd.proposed_at && cmd.proposed_at !== p.proposed_at)
    throw new DomainError(
      "conflict",
      "The proposed update changed since this page was loaded; reload the battlecard to see the current one.",
    );
  if (p.base_generated_at && card.stored.generated_at && p.base_generated_at !== card.stored.generated_at)
    throw new DomainError(
      "conflict",
      "The battlecard changed after this update was proposed; the next cycle proposes again from the new card.",
    );
  return p;
}

type Exec = Pick<Tx, "execute">;

/** A battlecard of the workspace, by id, with its stored state. */
export function loadCard(tx: Exec, orgId: number, id: number): Promise<LoadedCard | undefined> {
  return listedCardById<StoredCard>(tx, orgId, id);
}

/** A listed card as its commands read it, with its stream's version. */
export interface LoadedCard {
  id: number;
  key: string;
  competitor_id: number;
  stored: StoredCard;
  version: number;
}

/** A decided event on the card's stream. */
const onCard = (e: object, orgId: number, id: number) =>
  ({ ...e, orgId, streamType: "battlecard", streamId: String(id) }) as NewEvent;

const cardAt = (card: LoadedCard | undefined): StreamAt | undefined =>
  card && { streamType: "battlecard", streamId: String(card.id), version: card.version };

/** Accept or dismiss a card's pending proposal. */
export const reviewProposal: Command<
  { battlecard_id: number; decision: "accept" | "dismiss"; proposed_at?: string },
  LoadedCard | undefined,
  { battlecard_id: number; decision: "accept" | "dismiss" }
> = {
  load: (w, cmd, c) => loadCard(w.tx, c.orgId, cmd.battlecard_id),
  stream: cardAt,
  decide: (card, cmd, { caller, now }) => {
    const e =
      cmd.decision === "accept" ? decideAcceptProposal(card, cmd, now) : decideDismissProposal(card, cmd);
    return {
      events: [onCard(e, caller.orgId, cmd.battlecard_id)],
      result: { battlecard_id: cmd.battlecard_id, decision: cmd.decision },
    };
  },
};

/** How many lines a member may give one section of a card (the card still prints on two pages with the team's
 * usual few); each line at most TEXT.text characters. */
export const EDIT_MAX_LINES = 12;
const EDITABLE = ["overview", ...LIST_SECTIONS] as const;

/** A member edits the card: the sections sent replace the card's (an empty one clears it) and become the team's
 * words, which no cycle or generate_battlecard rewrites; a pending proposal is dropped (it was made on the card
 * as it was). */
export function decideEditCard(
  card: { id: number; key: string; competitor_id: number; stored: StoredCard } | undefined,
  cmd: { sections: Record<string, string> },
  now: Date,
): { type: "BattlecardEdited"; data: BattlecardEditedData } {
  if (!card) throw new DomainError("not_found", "No battlecard with that id in this workspace.");
  const edited: Obj = {};
  for (const [k, raw] of Object.entries(cmd.sections)) {
    if (!(EDITABLE as readonly string[]).includes(k))
      throw new DomainError("invalid_argument", `A battlecard has no section "${k}" to edit.`, {
        argument: k,
      });
    const text = raw.replace(/\r\n?/g, "\n").trim();
    const items =
      k === "overview"
        ? text
          ? [text.replace(/\s*\n\s*/g, " ")]
          : []
        : text
            .split("\n")
            .map((l) => l.replace(/^\s*[-*•]\s+/, "").trim())
            .filter(Boolean);
    if (items.length > EDIT_MAX_LINES)
      throw new DomainError(
        "invalid_argument",
        `Give at most ${EDIT_MAX_LINES} lines for ${k.replace("_", " ")}: the card is printed on two pages.`,
        { argument: k },
      );
    const long = items.find((l) => l.length > TEXT.text);
    if (long)
      throw new DomainError("invalid_argument", `A line is longer than ${TEXT.text} characters.`, {
        argument: k,
      });
    // A section sent as it is stays whoever's it was: only what the member changed becomes the team's.
    const current = lines(card.stored.sections?.[k]);
    if (current.length === items.length && current.every((l, i) => l === items[i])) continue;
    edited[k] = k === "overview" ? items[0] : items;
  }
  if (!Object.keys(edited).length)
    throw new DomainError("invalid_argument", "Nothing to save: no section of the card was changed.");
  const was = card.stored;
  const sections: Obj = { ...(was.sections ?? {}) };
  for (const [k, v] of Object.entries(edited)) {
    if (v === undefined || (Array.isArray(v) && !v.length)) delete sections[k];
    else sections[k] = v;
  }
  const team: Obj = { ...(teamOf(was)?.sections ?? {}) };
  for (const [k, v] of Object.entries(edited)) {
    if (v === undefined || (Array.isArray(v) && !v.length)) delete team[k];
    else team[k] = v;
  }
  // Every line of an edited section is the member's now; the others keep their trace.
  const ev = (was.evidence ?? {}) as Obj;
  const before = Array.isArray(ev.lines) ? (ev.lines as Obj[]) : [];
  const traced = [
    ...before.filter((l) => !(String(l.section) in edited)),
    ...Object.entries(edited).flatMap(([section, v]) =>
      (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((text) => ({ section, text, by: "team" })),
    ),
  ];
  const { proposal: _dropped, ...rest } = was;
  const record: StoredCard = {
    ...rest,
    status: "generated",
    generated_at: now.toISOString(),
    sections,
    evidence: { ...ev, lines: traced },
    team,
    team_at: now.toISOString(),
  };
  return {
    type: "BattlecardEdited",
    data: { id: card.id, key: card.key, competitor_id: card.competitor_id, record },
  };
}

export interface BattlecardEditedData {
  id: number;
  key: string;
  competitor_id: number;
  record: StoredCard;
}

/** A member's edit of a card, in the writer's transaction. */
/** A member's edit of a card's sections. */
export const editCard: Command<
  { battlecard_id: number; sections: Record<string, string> },
  LoadedCard | undefined,
  { battlecard_id: number }
> = {
  load: (w, cmd, c) => loadCard(w.tx, c.orgId, cmd.battlecard_id),
  stream: cardAt,
  decide: (card, cmd, { caller, now }) => {
    const e = decideEditCard(card, cmd, now);
    return {
      events: [onCard(e, caller.orgId, cmd.battlecard_id)],
      result: { battlecard_id: cmd.battlecard_id },
    };
  },
};
