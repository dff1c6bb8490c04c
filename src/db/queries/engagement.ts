// Read side of the team's engagement (pins, saved signals, notes, ratings, share links), scoped by org in
// every query. Shared by the tools and the public share page.
import type { Client } from "@libsql/client";
import { sha256 } from "../../auth/tokens.ts";
import { TOKEN_RE } from "../../domain/shareLinks.ts";

type Exec = Pick<Client, "execute">;

export interface NoteView {
  id: number;
  body: string;
  author_name?: string;
  created_at: string;
}

export type NoteSubject = "signal" | "digest" | "battlecard";

function noteView(n: Record<string, unknown>): NoteView {
  return {
    id: Number(n.id),
    body: String(n.body),
    ...(n.author_name !== null ? { author_name: String(n.author_name) } : {}),
    created_at: String(n.created_at),
  };
}

/** One note of the workspace by its id (the one a tool just added: with several instances, ids are not in
 * the order notes were added, so it need not be on the newest page). */
export async function noteById(x: Exec, orgId: number, id: number): Promise<NoteView | undefined> {
  const r = await x.execute({
    sql: "SELECT id, body, author_name, created_at FROM notes WHERE id = ? AND org_id = ?",
    args: [id, orgId],
  });
  return r.rows[0] ? noteView(r.rows[0]) : undefined;
}

/** How many notes a tool result carries at most; older ones are read with the cursor. */
export const NOTES_PAGE = 20;

/** One page of a subject's notes, newest first, with the subject's total and the cursor to the next
 * (older) page when there is one. The cursor is the last note's id as a string (opaque to callers). */
export interface NotesPage {
  notes: NoteView[];
  notes_total: number;
  /** undefined on the last page (left out of the JSON). */
  notes_next_cursor: string | undefined;
}

/** The page read: a backward range scan of `notes_by_subject` (subject_type, subject_id, id) that stops
 * after NOTES_PAGE + 1 rows, however many notes the subject has. */
export const NOTES_PAGE_SQL = `SELECT id, body, author_name, created_at FROM notes
  WHERE subject_type = ? AND subject_id = ? AND org_id = ? AND id < ? ORDER BY id DESC LIMIT ?`;
/** The total: one primary-key read of `note_counts`, kept by the notes projector. */
export const NOTES_TOTAL_SQL =
  "SELECT n FROM note_counts WHERE subject_type = ? AND subject_id = ? AND org_id = ?";

/** A cursor from a caller: a note id as decimal digits, else undefined (the caller reports the error). */
export function parseNotesCursor(v: string): number | undefined {
  return /^[1-9]\d{0,14}$/.test(v) ? Number(v) : undefined;
}

export async function notesPage(
  x: Exec,
  orgId: number,
  type: NoteSubject,
  subjectId: number,
  before: number = Number.MAX_SAFE_INTEGER,
): Promise<NotesPage> {
  const [page, total] = await Promise.all([
    x.execute({ sql: NOTES_PAGE_SQL, args: [type, subjectId, orgId, before, NOTES_PAGE + 1] }),
    x.execute({ sql: NOTES_TOTAL_SQL, args: [type, subjectId, orgId] }),
  ]);
  const notes = page.rows.slice(0, NOTES_PAGE).map(noteView);
  const more = page.rows.length > NOTES_PAGE;
  return {
    notes,
    notes_total: total.rows[0] ? Number(total.rows[0].n) : 0,
    notes_next_cursor: more ? String(notes[notes.length - 1].id) : undefined,
  };
}

async function pinOf(x: Exec, orgId: number, type: "signal" | "digest", id: number) {
  const r = await x.execute({
    sql: "SELECT pinned_at FROM pins WHERE subject_type = ? AND subject_id = ? AND org_id = ?",
    args: [type, id, orgId],
  });
  return r.rows[0] ? String(r.rows[0].pinned_at) : undefined;
}

async function ratingOf(x: Exec, orgId: number, type: "signal" | "digest", id: number, actor: string) {
  const r = await x.execute({
    sql: `SELECT useful, reasons, comment, score, missing, rated_at FROM ratings
          WHERE subject_type = ? AND subject_id = ? AND actor = ? AND org_id = ?`,
    args: [type, id, actor, orgId],
  });
  return r.rows[0];
}

/** A signal's engagement as the caller sees it: the team's pin and notes, the caller's own save and rating,
 * and the signal's live share link (without its URL, which is never stored). */
export async function signalEngagement(x: Exec, orgId: number, signalId: number, actor: string, now: Date) {
  const [pinnedAt, saved, notes, rating, link] = await Promise.all([
    pinOf(x, orgId, "signal", signalId),
    x.execute({
      sql: "SELECT saved_at FROM saved_signals WHERE org_id = ? AND actor = ? AND signal_id = ?",
      args: [orgId, actor, signalId],
    }),
    notesPage(x, orgId, "signal", signalId),
    ratingOf(x, orgId, "signal", signalId, actor),
    x.execute({
      sql: "SELECT expires_at, include_notes FROM share_links WHERE signal_id = ? AND org_id = ? AND expires_at > ?",
      args: [signalId, orgId, now.toISOString()],
    }),
  ]);
  const l = link.rows[0];
  return {
    signal_id: signalId,
    pinned: pinnedAt !== undefined,
    pinned_at: pinnedAt,
    saved: saved.rows.length > 0,
    ...notes,
    your_rating: rating
      ? {
          useful: Number(rating.useful) === 1,
          ...(rating.reasons !== null ? { reasons: JSON.parse(String(rating.reasons)) as string[] } : {}),
          ...(rating.comment !== null ? { comment: String(rating.comment) } : {}),
          rated_at: String(rating.rated_at),
        }
      : undefined,
    share_link: l
      ? { expires_at: String(l.expires_at), include_notes: Number(l.include_notes) === 1 }
      : undefined,
  };
}

/** A digest's engagement: the team's pin, notes and rating summary, and the caller's own rating. */
export async function digestEngagement(x: Exec, orgId: number, digestId: number, actor: string) {
  const [pinnedAt, notes, rating, summary] = await Promise.all([
    pinOf(x, orgId, "digest", digestId),
    notesPage(x, orgId, "digest", digestId),
    ratingOf(x, orgId, "digest", digestId, actor),
    x.execute({
      sql: `SELECT COUNT(*) AS n, AVG(score) AS avg FROM ratings
            WHERE subject_type = 'digest' AND subject_id = ? AND org_id = ?`,
      args: [digestId, orgId],
    }),
  ]);
  const sum = summary.rows[0];
  return {
    digest_id: digestId,
    pinned: pinnedAt !== undefined,
    pinned_at: pinnedAt,
    ...notes,
    your_rating: rating
      ? {
          ...(rating.score !== null ? { score: Number(rating.score) } : {}),
          ...(rating.missing !== null ? { missing: String(rating.missing) } : {}),
          rated_at: String(rating.rated_at),
        }
      : undefined,
    ratings: {
      count: Number(sum.n),
      ...(sum.avg !== null ? { average_score: Math.round(Number(sum.avg) * 100) / 100 } : {}),
    },
  };
}

/** The signal a live share link shows, or undefined: unknown, replaced or expired token, or a signal that is
 * no longer visible (its competitor was removed). */
export async function findShareLink(
  x: Exec,
  token: string,
  now: Date,
): Promise<
  { orgId: number; signalId: number; includeNotes: boolean; expiresAt: string; doc: string } | undefined
> {
  if (!TOKEN_RE.test(token)) return undefined;
  const r = await x.execute({
    sql: `SELECT l.org_id, l.signal_id, l.include_notes, l.expires_at, s.doc
          FROM share_links l JOIN signals s ON s.id = l.signal_id AND s.org_id = l.org_id
          WHERE l.token_hash = ? AND l.expires_at > ? AND s.visible = 1`,
    args: [sha256(token), now.toISOString()],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    orgId: Number(row.org_id),
    signalId: Number(row.signal_id),
    includeNotes: Number(row.include_notes) === 1,
    expiresAt: String(row.expires_at),
    doc: String(row.doc),
  };
}
