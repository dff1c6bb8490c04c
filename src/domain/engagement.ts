// The team's engagement with what Rivals found: pins (team-wide), saved signals (the caller's own list),
// notes (team-visible talking points; battlecard notes are framing for the next rewrite), ratings (one per
// caller; a new one replaces the old). Deciders only; projections/engagement.ts applies the events.
import type { NewEvent } from "../../events/catalog.ts";
import type { Tx, WriteContext } from "../../events/store.ts";
import { DomainError } from "./errors.ts";
import { InvalidInput } from "./validate.ts";
import { type Caller, requireTrackedCompetitor } from "./watchlist.ts";

type Exec = Pick<Tx, "execute">;
type Decision<T> = { events: NewEvent[]; result: T };

export const NOTE_MAX = 2000;
export const RATING_REASONS = [
  "not_relevant",
  "inaccurate",
  "duplicate",
  "too_late",
  "low_impact",
  "other",
] as const;
export type RatingReason = (typeof RATING_REASONS)[number];

/** A signal the workspace can see (open or closed, of a tracked competitor); anything else is unknown. */
export async function requireVisibleSignal(tx: Exec, orgId: number, id: number): Promise<{ id: number }> {
  const r = await tx.execute({
    sql: "SELECT id FROM signals WHERE id = ? AND org_id = ? AND visible = 1",
    args: [id, orgId],
  });
  if (!r.rows[0]) throw new DomainError("not_found", "No signal with that id in this workspace.");
  return { id };
}

/** A generated digest, named by numeric id or slug (slug first, as get_digest and the REST API do). */
export async function requireDigest(tx: Exec, orgId: number, ref: number | string): Promise<{ id: number }> {
  const bySlug =
    typeof ref === "string"
      ? await tx.execute({
          sql: "SELECT id FROM digests WHERE org_id = ? AND slug = ? AND listed = 1 LIMIT 1",
          args: [orgId, ref],
        })
      : undefined;
  let row = bySlug?.rows[0];
  const n = typeof ref === "number" ? ref : /^\d+$/.test(ref) ? Number(ref) : undefined;
  if (!row && n !== undefined)
    row = (
      await tx.execute({
        sql: "SELECT id FROM digests WHERE org_id = ? AND id = ? AND listed = 1",
        args: [orgId, n],
      })
    ).rows[0];
  if (!row) throw new DomainError("not_found", "No digest with that id or slug in this workspace.");
  return { id: Number(row.id) };
}

function noteBody(body: string): string {
  const b = body.trim();
  if (!b) throw new InvalidInput("body must not be empty", "body");
  if ([...b].length > NOTE_MAX) throw new InvalidInput(`body is longer than ${NOTE_MAX} characters`, "body");
  return b;
}

const stream = (orgId: number, type: "signal" | "digest" | "competitor", id: number) => ({
  orgId,
  streamType: type,
  streamId: String(id),
});

// ---------------------------------------------------------------------------------------------------------
// Signals

export async function decidePinSignal(
  w: WriteContext,
  c: Caller,
  cmd: { signal_id: number; pinned: boolean },
): Promise<Decision<{ changed: boolean }>> {
  await requireVisibleSignal(w.tx, c.orgId, cmd.signal_id);
  const r = await w.tx.execute({
    sql: "SELECT 1 FROM pins WHERE subject_type = 'signal' AND subject_id = ?",
    args: [cmd.signal_id],
  });
  if (Boolean(r.rows[0]) === cmd.pinned) return { events: [], result: { changed: false } };
  return {
    events: [
      {
        type: "SignalPinSet",
        ...stream(c.orgId, "signal", cmd.signal_id),
        data: { signal_id: cmd.signal_id, pinned: cmd.pinned, actor: c.actor, at: w.now.toISOString() },
      },
    ],
    result: { changed: true },
  };
}

export async function decideSaveSignal(
  w: WriteContext,
  c: Caller,
  cmd: { signal_id: number; saved: boolean },
): Promise<Decision<{ changed: boolean }>> {
  await requireVisibleSignal(w.tx, c.orgId, cmd.signal_id);
  const r = await w.tx.execute({
    sql: "SELECT 1 FROM saved_signals WHERE org_id = ? AND actor = ? AND signal_id = ?",
    args: [c.orgId, c.actor, cmd.signal_id],
  });
  if (Boolean(r.rows[0]) === cmd.saved) return { events: [], result: { changed: false } };
  return {
    events: [
      {
        type: "SignalSaveSet",
        ...stream(c.orgId, "signal", cmd.signal_id),
        data: { signal_id: cmd.signal_id, saved: cmd.saved, actor: c.actor, at: w.now.toISOString() },
      },
    ],
    result: { changed: true },
  };
}

export async function decideAddSignalNote(
  w: WriteContext,
  c: Caller,
  cmd: { signal_id: number; body: string },
): Promise<Decision<{ note_id: number }>> {
  const body = noteBody(cmd.body);
  await requireVisibleSignal(w.tx, c.orgId, cmd.signal_id);
  const id = await w.nextId();
  return {
    events: [
      {
        type: "SignalNoteAdded",
        ...stream(c.orgId, "signal", cmd.signal_id),
        data: {
          id,
          signal_id: cmd.signal_id,
          body,
          author: c.actor,
          ...(c.actorName ? { author_name: c.actorName } : {}),
          at: w.now.toISOString(),
        },
      },
    ],
    result: { note_id: id },
  };
}

export async function decideRateSignal(
  w: WriteContext,
  c: Caller,
  cmd: { signal_id: number; useful: boolean; reasons?: string[]; comment?: string },
): Promise<Decision<{ changed: true }>> {
  const comment = cmd.comment?.trim() || undefined;
  if (cmd.useful && (cmd.reasons?.length || cmd.comment !== undefined))
    throw new InvalidInput(
      "reasons and comment are only for a rating with useful=false",
      cmd.reasons?.length ? "reasons" : "comment",
    );
  if (comment && [...comment].length > NOTE_MAX)
    throw new InvalidInput(`comment is longer than ${NOTE_MAX} characters`, "comment");
  const reasons = [...new Set(cmd.reasons ?? [])];
  for (const r of reasons)
    if (!(RATING_REASONS as readonly string[]).includes(r))
      throw new InvalidInput(`reasons may hold only ${RATING_REASONS.join(", ")}`, "reasons");
  await requireVisibleSignal(w.tx, c.orgId, cmd.signal_id);
  return {
    events: [
      {
        type: "SignalRated",
        ...stream(c.orgId, "signal", cmd.signal_id),
        data: {
          signal_id: cmd.signal_id,
          actor: c.actor,
          useful: cmd.useful,
          ...(reasons.length ? { reasons } : {}),
          ...(comment ? { comment } : {}),
          at: w.now.toISOString(),
        },
      },
    ],
    result: { changed: true },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Digests

export async function decidePinDigest(
  w: WriteContext,
  c: Caller,
  cmd: { digest: number | string; pinned: boolean },
): Promise<Decision<{ digest_id: number; changed: boolean }>> {
  const { id } = await requireDigest(w.tx, c.orgId, cmd.digest);
  const r = await w.tx.execute({
    sql: "SELECT 1 FROM pins WHERE subject_type = 'digest' AND subject_id = ?",
    args: [id],
  });
  if (Boolean(r.rows[0]) === cmd.pinned) return { events: [], result: { digest_id: id, changed: false } };
  return {
    events: [
      {
        type: "DigestPinSet",
        ...stream(c.orgId, "digest", id),
        data: { digest_id: id, pinned: cmd.pinned, actor: c.actor, at: w.now.toISOString() },
      },
    ],
    result: { digest_id: id, changed: true },
  };
}

export async function decideAddDigestNote(
  w: WriteContext,
  c: Caller,
  cmd: { digest: number | string; body: string },
): Promise<Decision<{ digest_id: number; note_id: number }>> {
  const body = noteBody(cmd.body);
  const { id: digestId } = await requireDigest(w.tx, c.orgId, cmd.digest);
  const id = await w.nextId();
  return {
    events: [
      {
        type: "DigestNoteAdded",
        ...stream(c.orgId, "digest", digestId),
        data: {
          id,
          digest_id: digestId,
          body,
          author: c.actor,
          ...(c.actorName ? { author_name: c.actorName } : {}),
          at: w.now.toISOString(),
        },
      },
    ],
    result: { digest_id: digestId, note_id: id },
  };
}

export async function decideRateDigest(
  w: WriteContext,
  c: Caller,
  cmd: { digest: number | string; score?: number; missing?: string },
): Promise<Decision<{ digest_id: number }>> {
  const missing = cmd.missing?.trim() || undefined;
  if (cmd.score === undefined && missing === undefined)
    throw new InvalidInput("Give a score (1 to 5), what is missing, or both.", "score");
  if (cmd.score !== undefined && (!Number.isInteger(cmd.score) || cmd.score < 1 || cmd.score > 5))
    throw new InvalidInput("score must be an integer from 1 to 5", "score");
  if (missing && [...missing].length > NOTE_MAX)
    throw new InvalidInput(`missing is longer than ${NOTE_MAX} characters`, "missing");
  const { id } = await requireDigest(w.tx, c.orgId, cmd.digest);
  return {
    events: [
      {
        type: "DigestRated",
        ...stream(c.orgId, "digest", id),
        data: {
          digest_id: id,
          actor: c.actor,
          ...(cmd.score !== undefined ? { score: cmd.score } : {}),
          ...(missing ? { missing } : {}),
          at: w.now.toISOString(),
        },
      },
    ],
    result: { digest_id: id },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Battlecards

export async function decideAddBattlecardNote(
  w: WriteContext,
  c: Caller,
  cmd: { competitor_id: number; body: string },
): Promise<Decision<{ competitor_id: number; note_id: number }>> {
  const body = noteBody(cmd.body);
  const comp = await requireTrackedCompetitor(w.tx, c.orgId, cmd.competitor_id);
  const id = await w.nextId();
  return {
    events: [
      {
        type: "BattlecardNoteAdded",
        ...stream(c.orgId, "competitor", comp.id),
        data: {
          id,
          competitor_id: comp.id,
          body,
          author: c.actor,
          ...(c.actorName ? { author_name: c.actorName } : {}),
          at: w.now.toISOString(),
        },
      },
    ],
    result: { competitor_id: comp.id, note_id: id },
  };
}
