// The team's notes inside tool results: never the whole list. Every result that carries notes carries the
// newest NOTES_PAGE (20), newest first, the subject's total, and a cursor to the next older page, which the
// subject's read tool takes as `notes_cursor` (get_evidence for a signal, get_digest for a digest,
// get_battlecard for a competitor's battlecard notes).
import { z } from "zod";
import { NOTES_PAGE, type NoteSubject, notesPage, parseNotesCursor } from "../../db/queries/engagement.ts";
import { isoTime } from "../schemas.ts";
import { type AuthedContext, ToolError } from "../tool.ts";

export const note = z.object({
  id: z.number().int(),
  body: z.string(),
  author_name: z.string().optional(),
  created_at: isoTime,
});

/** The output fields of a notes page; `readTool` is the tool that reads older pages. */
export function notesPageShape(readTool: string) {
  return {
    notes: z.array(note).describe(`The team's notes, newest first: at most ${NOTES_PAGE}.`),
    notes_total: z.number().int().describe("How many notes there are in all."),
    notes_next_cursor: z
      .string()
      .optional()
      .describe(
        `Present when older notes exist: pass it as notes_cursor to ${readTool} for the next ${NOTES_PAGE}.`,
      ),
  };
}

export const notesCursorArg = z.string().min(1).max(32).optional();

/** A page of one subject's notes, from `notes_cursor` (a malformed cursor is invalid_argument). */
export function readNotes(
  ctx: AuthedContext,
  type: NoteSubject,
  subjectId: number,
  cursor: string | undefined,
) {
  let before: number | undefined;
  if (cursor !== undefined) {
    before = parseNotesCursor(cursor);
    if (before === undefined)
      throw new ToolError(
        "invalid_argument",
        "notes_cursor must be a notes_next_cursor from an earlier result.",
        {
          argument: "notes_cursor",
        },
      );
  }
  return notesPage(ctx.s.database, ctx.principal.orgId, type, subjectId, before);
}
