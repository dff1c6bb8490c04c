// The team's engagement with what Rivals found: pins (team-wide), saved signals (the caller's own list),
// notes (team-visible talking points; battlecard notes are framing for the next rewrite), ratings (one per
// caller; a new one replaces the old). Each command loads plain state in one read, then a pure decider turns state
// and command into events; projections/engagement.ts applies them.
import type { NewEvent } from "../../events/catalog.ts";
import type { Tx, WriteContext } from "../../events/store.ts";
import { DomainError } from "./errors.ts";
import { InvalidInput } from "./validate.ts";
import { type Caller, requireTrackedCompetitor } from "./watchlist.ts";

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

/** The signal with its pin and the caller's save, in one read; undefined when the workspace cannot see it. */
export async function loadSignalEngagement(
  tx: Exec,
  c: Caller,
  signalId: number,
): Promise<SignalEngagement | undefined> {
  const r = await tx.execute({
    sql: `SELECT s.id,
            EXISTS (SELECT 1 FROM pins p WHERE p.subject_type = 'signal' AND p.subject_id = s.id AND p.org_id = s.org_id) AS pinned,
            EXISTS (SELECT 1 FROM saved_signals v WHERE v.org_id = s.org_id AND v.actor = ? AND v.signal_id = s.id) AS saved
          FROM signals s WHERE s.id = ? AND s.org_id = ? AND s.visible = 1`,
    args: [c.actor, signalId, c.orgId],
  });
  const row = r.rows[0];
  return row ? { id: Number(row.id), pinned: Boolean(row.pinned), saved: Boolean(row.saved) } : undefined;
}

/** A generated digest of the workspace, as its commands see it. */
export interface DigestEngagement {
  id: number;
  pinned: boolean;
}

/** A listed digest named by numeric id or slug (slug first, as get_digest and the REST API do), with its pin,
 * in one read; undefined when there is none. */
export async function loadDigestEngagement(
  tx: Exec,
  orgId: number,
  ref: number | string,
): Promise<DigestEngagement | undefined> {
  const slug = typeof ref === "string" ? ref : null;
  const n = typeof ref === "number" ? ref : /^\d+$/.test(ref) ? Number(ref) : null;
  const r = await tx.execute({
    sql: `SELECT d.id,
            EXISTS (SELECT 1 FROM pins p WHERE p.subject_type = 'digest' AND p.subject_id = d.id AND p.org_id = ?) AS pinned
          FROM (SELECT id, 0 AS by_id FROM digests WHERE org_id = ? AND slug = ? AND listed = 1
                UNION ALL
                SELECT id, 1 AS by_id FROM digests WHERE org_id = ? AND id = ? AND listed = 1) d
          ORDER BY d.by_id LIMIT 1`,
    args: [orgId, orgId, slug, orgId, n],
  });
  const row = r.rows[0];
  return row ? { id: Number(row.id), pinned: Boolean(row.pinned) } : undefined;
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
// Handlers: load, then decide, inside the writer's transaction. A note's id is taken only once its subject
// is known to be there.

export async function pinSignal(w: WriteContext, c: Caller, cmd: { signal_id: number; pinned: boolean }) {
  return decidePinSignal(await loadSignalEngagement(w.tx, c, cmd.signal_id), cmd, c, w.now);
}

export async function saveSignal(w: WriteContext, c: Caller, cmd: { signal_id: number; saved: boolean }) {
  return decideSaveSignal(await loadSignalEngagement(w.tx, c, cmd.signal_id), cmd, c, w.now);
}

export async function addSignalNote(w: WriteContext, c: Caller, cmd: { signal_id: number; body: string }) {
  const signal = await loadSignalEngagement(w.tx, c, cmd.signal_id);
  return decideAddSignalNote(signal, cmd, c, w.now, signal ? await w.nextId() : 0);
}

export async function rateSignal(
  w: WriteContext,
  c: Caller,
  cmd: { signal_id: number; useful: boolean; reasons?: string[]; comment?: string },
) {
  return decideRateSignal(await loadSignalEngagement(w.tx, c, cmd.signal_id), cmd, c, w.now);
}

export async function pinDigest(
  w: WriteContext,
  c: Caller,
  cmd: { digest: number | string; pinned: boolean },
) {
  return decidePinDigest(await loadDigestEngagement(w.tx, c.orgId, cmd.digest), cmd, c, w.now);
}

export async function addDigestNote(
  w: WriteContext,
  c: Caller,
  cmd: { digest: number | string; body: string },
) {
  const digest = await loadDigestEngagement(w.tx, c.orgId, cmd.digest);
  return decideAddDigestNote(digest, cmd, c, w.now, digest ? await w.nextId() : 0);
}

export async function rateDigest(
  w: WriteContext,
  c: Caller,
  cmd: { digest: number | string; score?: number; missing?: string },
) {
  return decideRateDigest(await loadDigestEngagement(w.tx, c.orgId, cmd.digest), cmd, c, w.now);
}

export async function addBattlecardNote(
  w: WriteContext,
  c: Caller,
  cmd: { competitor_id: number; body: string },
) {
  const competitor = await requireTrackedCompetitor(w.tx, c.orgId, cmd.competitor_id);
  return decideAddBattlecardNote(competitor, cmd, c, w.now, await w.nextId());
}
