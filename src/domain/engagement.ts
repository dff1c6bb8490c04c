// The team's engagement with what Rivals found: pins (team-wide), saved signals (the caller's own list),
// notes (team-visible talking points; battlecard notes are framing for the next rewrite), ratings (one per
// caller; a new one replaces the old). Each command loads plain state in one read, then a pure decider turns state
// and command into events; projections/engagement.ts applies them.
import type { NewEvent } from "../../events/catalog.ts";
import type { Command, StreamAt } from "../../events/command.ts";
import type { Tx } from "../../events/store.ts";
import { digestEngagementRow, signalEngagementRow } from "../db/queries/engagementState.ts";
import { DomainError } from "./errors.ts";
import { InvalidInput } from "./validate.ts";
import { type Caller, type CompetitorRow, requireTrackedCompetitor } from "./watchlist.ts";

type Exec = Pick<Tx, "execute">;
type Decision<T> = { events: NewEvent[]; result: T };

/** The most characters a note, a rating's comment or a digest's "what is missing" may hold. */
export const NOTE_MAX = 2000;
/** A text's length as a person counts characters: in code points, so an emoji or another character outside
 * the Basic Multilingual Plane counts once (a JavaScript string's `length` counts its two UTF-16 units). */
export function noteLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
/** The one rule of a note's length, for the deciders and for a tool's argument schema alike. */
export const fitsNote = (text: string): boolean => noteLength(text) <= NOTE_MAX;
/** A form field's `maxlength` for a note. Browsers count UTF-16 units, so at twice NOTE_MAX every note the
 * rule allows fits, and the server's count decides the rest. */
export const NOTE_MAX_UTF16 = NOTE_MAX * 2;

function checkNote(text: string, field: string): void {
  if (!fitsNote(text)) throw new InvalidInput(`${field} is longer than ${NOTE_MAX} characters`, field);
}
export const RATING_REASONS = [
  "not_relevant",
  "inaccurate",
  "duplicate",
  "too_late",
  "low_impact",
  "other",
] as const;
/** A signal the workspace can see (open or closed, of a tracked competitor), as its commands see it. */
export interface SignalEngagement {
  id: number;
  /** Pinned for the team. */
  pinned: boolean;
  /** On the caller's own saved list. */
  saved: boolean;
}

/** State as a loader read it, with its stream's version when asked (the deciders do not look at it). */
type Versioned<T> = T & { version?: number };

/** The signal with its pin and the caller's save, in one read; undefined when the workspace cannot see it.
 * With `version`, the signal stream's version too: for a command whose decision rests on the signal's state (a pin,
 * a save), so another write to the stream meanwhile makes it run again. A note or a rating rests only on the
 * signal being there, and does not ask: notes added at once from several instances do not run each other again. */
export async function loadSignalEngagement(
  tx: Exec,
  c: Caller,
  signalId: number,
  opts: { version?: boolean } = {},
): Promise<Versioned<SignalEngagement> | undefined> {
  return signalEngagementRow(tx, c.orgId, c.actor, signalId, Boolean(opts.version));
}

/** A generated digest of the workspace, as its commands see it. */
export interface DigestEngagement {
  id: number;
  pinned: boolean;
}

/** A listed digest named by numeric id or slug (slug first, as get_digest and the REST API do), with its pin,
 * in one read; undefined when there is none. With `version`, the digest stream's version too (as for a signal). */
export async function loadDigestEngagement(
  tx: Exec,
  orgId: number,
  ref: number | string,
  opts: { version?: boolean } = {},
): Promise<Versioned<DigestEngagement> | undefined> {
  const slug = typeof ref === "string" ? ref : null;
  const n = typeof ref === "number" ? ref : /^\d+$/.test(ref) ? Number(ref) : null;
  return digestEngagementRow(tx, orgId, slug, n, Boolean(opts.version));
}

function visibleSignal(s: SignalEngagement | undefined): SignalEngagement {
  if (!s) throw new DomainError("not_found", "No signal with that id in this workspace.");
  return s;
}

function listedDigest(d: DigestEngagement | undefined): DigestEngagement {
  if (!d) throw new DomainError("not_found", "No digest with that id or slug in this workspace.");
  return d;
}

function noteBody(body: string): string {
  const b = body.trim();
  if (!b) throw new InvalidInput("body must not be empty", "body");
  checkNote(b, "body");
  return b;
}

const stream = (orgId: number, type: "signal" | "digest" | "competitor", id: number) => ({
  orgId,
  streamType: type,
  streamId: String(id),
});

/** A note's author as its events record it. */
const author = (c: Caller) => ({ author: c.actor, ...(c.actorName ? { author_name: c.actorName } : {}) });

// ---------------------------------------------------------------------------------------------------------
// Signals

export function decidePinSignal(
  signal: SignalEngagement | undefined,
  cmd: { signal_id: number; pinned: boolean },
  c: Caller,
  now: Date,
): Decision<{ changed: boolean }> {
  const s = visibleSignal(signal);
  if (s.pinned === cmd.pinned) return { events: [], result: { changed: false } };
  return {
    events: [
      {
        type: "SignalPinSet",
        ...stream(c.orgId, "signal", s.id),
        data: { signal_id: s.id, pinned: cmd.pinned, actor: c.actor, at: now.toISOString() },
      },
    ],
    result: { changed: true },
  };
}

export function decideSaveSignal(
  signal: SignalEngagement | undefined,
  cmd: { signal_id: number; saved: boolean },
  c: Caller,
  now: Date,
): Decision<{ changed: boolean }> {
  const s = visibleSignal(signal);
  if (s.saved === cmd.saved) return { events: [], result: { changed: false } };
  return {
    events: [
      {
        type: "SignalSaveSet",
        ...stream(c.orgId, "signal", s.id),
        data: { signal_id: s.id, saved: cmd.saved, actor: c.actor, at: now.toISOString() },
      },
    ],
    result: { changed: true },
  };
}

export function decideAddSignalNote(
  signal: SignalEngagement | undefined,
  cmd: { signal_id: number; body: string },
  c: Caller,
  now: Date,
  noteId: number,
): Decision<{ note_id: number }> {
  const body = noteBody(cmd.body);
  const s = visibleSignal(signal);
  return {
    events: [
      {
        type: "SignalNoteAdded",
        ...stream(c.orgId, "signal", s.id),
        data: { id: noteId, signal_id: s.id, body, ...author(c), at: now.toISOString() },
      },
    ],
    result: { note_id: noteId },
  };
}

export function decideRateSignal(
  signal: SignalEngagement | undefined,
  cmd: { signal_id: number; useful: boolean; reasons?: string[]; comment?: string },
  c: Caller,
  now: Date,
): Decision<{ changed: true }> {
  const comment = cmd.comment?.trim() || undefined;
  if (cmd.useful && (cmd.reasons?.length || cmd.comment !== undefined))
    throw new InvalidInput(
      "reasons and comment are only for a rating with useful=false",
      cmd.reasons?.length ? "reasons" : "comment",
    );
  if (comment) checkNote(comment, "comment");
  const reasons = [...new Set(cmd.reasons ?? [])];
  for (const r of reasons)
    if (!(RATING_REASONS as readonly string[]).includes(r))
      throw new InvalidInput(`reasons may hold only ${RATING_REASONS.join(", ")}`, "reasons");
  const s = visibleSignal(signal);
  return {
    events: [
      {
        type: "SignalRated",
        ...stream(c.orgId, "signal", s.id),
        data: {
          signal_id: s.id,
          actor: c.actor,
          useful: cmd.useful,
          ...(reasons.length ? { reasons } : {}),
          ...(comment ? { comment } : {}),
          at: now.toISOString(),
        },
      },
    ],
    result: { changed: true },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Digests

export function decidePinDigest(
  digest: DigestEngagement | undefined,
  cmd: { digest: number | string; pinned: boolean },
  c: Caller,
  now: Date,
): Decision<{ digest_id: number; changed: boolean }> {
  const d = listedDigest(digest);
  if (d.pinned === cmd.pinned) return { events: [], result: { digest_id: d.id, changed: false } };
  return {
    events: [
      {
        type: "DigestPinSet",
        ...stream(c.orgId, "digest", d.id),
        data: { digest_id: d.id, pinned: cmd.pinned, actor: c.actor, at: now.toISOString() },
      },
    ],
    result: { digest_id: d.id, changed: true },
  };
}

export function decideAddDigestNote(
  digest: DigestEngagement | undefined,
  cmd: { digest: number | string; body: string },
  c: Caller,
  now: Date,
  noteId: number,
): Decision<{ digest_id: number; note_id: number }> {
  const body = noteBody(cmd.body);
  const d = listedDigest(digest);
  return {
    events: [
      {
        type: "DigestNoteAdded",
        ...stream(c.orgId, "digest", d.id),
        data: { id: noteId, digest_id: d.id, body, ...author(c), at: now.toISOString() },
      },
    ],
    result: { digest_id: d.id, note_id: noteId },
  };
}

export function decideRateDigest(
  digest: DigestEngagement | undefined,
  cmd: { digest: number | string; score?: number; missing?: string },
  c: Caller,
  now: Date,
): Decision<{ digest_id: number }> {
  const missing = cmd.missing?.trim() || undefined;
  if (cmd.score === undefined && missing === undefined)
    throw new InvalidInput("Give a score (1 to 5), what is missing, or both.", "score");
  if (cmd.score !== undefined && (!Number.isInteger(cmd.score) || cmd.score < 1 || cmd.score > 5))
    throw new InvalidInput("score must be an integer from 1 to 5", "score");
  if (missing) checkNote(missing, "missing");
  const d = listedDigest(digest);
  return {
    events: [
      {
        type: "DigestRated",
        ...stream(c.orgId, "digest", d.id),
        data: {
          digest_id: d.id,
          actor: c.actor,
          ...(cmd.score !== undefined ? { score: cmd.score } : {}),
          ...(missing ? { missing } : {}),
          at: now.toISOString(),
        },
      },
    ],
    result: { digest_id: d.id },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Battlecards

export function decideAddBattlecardNote(
  competitor: { id: number },
  cmd: { competitor_id: number; body: string },
  c: Caller,
  now: Date,
  noteId: number,
): Decision<{ competitor_id: number; note_id: number }> {
  const body = noteBody(cmd.body);
  return {
    events: [
      {
        type: "BattlecardNoteAdded",
        ...stream(c.orgId, "competitor", competitor.id),
        data: { id: noteId, competitor_id: competitor.id, body, ...author(c), at: now.toISOString() },
      },
    ],
    result: { competitor_id: competitor.id, note_id: noteId },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Commands (events/command.ts runs them): load, then decide, inside the writer's transaction. A note's id is
// taken only once its subject is known to be there. A pin or a save rests on its subject's state, which is its
// stream: it names the stream at the version it read. A note or a rating rests only on the subject being there.

const signalAt = (s: Versioned<SignalEngagement> | undefined): StreamAt | undefined =>
  s?.version === undefined ? undefined : { streamType: "signal", streamId: String(s.id), version: s.version };
const digestAt = (d: Versioned<DigestEngagement> | undefined): StreamAt | undefined =>
  d?.version === undefined ? undefined : { streamType: "digest", streamId: String(d.id), version: d.version };

export const pinSignal: Command<
  { signal_id: number; pinned: boolean },
  Versioned<SignalEngagement> | undefined,
  { changed: boolean }
> = {
  load: (w, cmd, c) => loadSignalEngagement(w.tx, c, cmd.signal_id, { version: true }),
  stream: signalAt,
  decide: (s, cmd, { caller, now }) => decidePinSignal(s, cmd, caller, now),
};

export const saveSignal: Command<
  { signal_id: number; saved: boolean },
  Versioned<SignalEngagement> | undefined,
  { changed: boolean }
> = {
  load: (w, cmd, c) => loadSignalEngagement(w.tx, c, cmd.signal_id, { version: true }),
  stream: signalAt,
  decide: (s, cmd, { caller, now }) => decideSaveSignal(s, cmd, caller, now),
};

export const addSignalNote: Command<
  { signal_id: number; body: string },
  { signal: Versioned<SignalEngagement> | undefined; noteId: number },
  { note_id: number }
> = {
  load: async (w, cmd, c) => {
    const signal = await loadSignalEngagement(w.tx, c, cmd.signal_id);
    return { signal, noteId: signal ? await w.nextId() : 0 };
  },
  decide: (st, cmd, { caller, now }) => decideAddSignalNote(st.signal, cmd, caller, now, st.noteId),
};

export const rateSignal: Command<
  { signal_id: number; useful: boolean; reasons?: string[]; comment?: string },
  Versioned<SignalEngagement> | undefined,
  { changed: true }
> = {
  load: (w, cmd, c) => loadSignalEngagement(w.tx, c, cmd.signal_id),
  decide: (s, cmd, { caller, now }) => decideRateSignal(s, cmd, caller, now),
};

export const pinDigest: Command<
  { digest: number | string; pinned: boolean },
  Versioned<DigestEngagement> | undefined,
  { digest_id: number; changed: boolean }
> = {
  load: (w, cmd, c) => loadDigestEngagement(w.tx, c.orgId, cmd.digest, { version: true }),
  stream: digestAt,
  decide: (d, cmd, { caller, now }) => decidePinDigest(d, cmd, caller, now),
};

export const addDigestNote: Command<
  { digest: number | string; body: string },
  { digest: Versioned<DigestEngagement> | undefined; noteId: number },
  { digest_id: number; note_id: number }
> = {
  load: async (w, cmd, c) => {
    const digest = await loadDigestEngagement(w.tx, c.orgId, cmd.digest);
    return { digest, noteId: digest ? await w.nextId() : 0 };
  },
  decide: (st, cmd, { caller, now }) => decideAddDigestNote(st.digest, cmd, caller, now, st.noteId),
};

export const rateDigest: Command<
  { digest: number | string; score?: number; missing?: string },
  Versioned<DigestEngagement> | undefined,
  { digest_id: number }
> = {
  load: (w, cmd, c) => loadDigestEngagement(w.tx, c.orgId, cmd.digest),
  decide: (d, cmd, { caller, now }) => decideRateDigest(d, cmd, caller, now),
};

export const addBattlecardNote: Command<
  { competitor_id: number; body: string },
  { competitor: CompetitorRow; noteId: number },
  { competitor_id: number; note_id: number }
> = {
  load: async (w, cmd, c) => {
    const competitor = await requireTrackedCompetitor(w.tx, c.orgId, cmd.competitor_id);
    return { competitor, noteId: await w.nextId() };
  },
  decide: (st, cmd, { caller, now }) => decideAddBattlecardNote(st.competitor, cmd, caller, now, st.noteId),
};
