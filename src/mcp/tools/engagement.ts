// Engagement tools: pin, save, note and rate signals and digests, add battlecard notes, and share a signal
// by a public link. Pins and notes are team-wide; saves and ratings belong to the caller.
import { z } from "zod";
import { runCommand } from "../../../events/command.ts";
import { digestEngagement, noteById, notesPage, signalEngagement } from "../../db/queries/engagement.ts";
import {
  addBattlecardNote,
  addDigestNote,
  addSignalNote,
  fitsNote,
  NOTE_MAX,
  pinDigest,
  pinSignal,
  RATING_REASONS,
  rateDigest,
  rateSignal,
  saveSignal,
} from "../../domain/engagement.ts";
import { createShareLink, DEFAULT_EXPIRY } from "../../domain/shareLinks.ts";
import { competitorIdArg } from "../competitorArg.ts";
import { issuer } from "../issuer.ts";
import { isoTime } from "../schemas.ts";
import { type AuthedContext, defineTool, type ToolAnnotations } from "../tool.ts";
import { note, notesPageShape } from "./notes.ts";

/** Sets a state the caller can set back (pin, save, rating): repeating it changes nothing more. */
const SETS_STATE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
/** Adds a record (a note): each call adds one more. */
const ADDS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** The note a tool just added (committed before it is read). */
async function addedNote(ctx: AuthedContext, id: number) {
  const n = await noteById(ctx.s.database, ctx.principal.orgId, id);
  if (!n) throw new Error(`note ${id} was not found after its command committed`);
  return n;
}

/** Notes, comments and what a digest misses are counted as the deciders count them (domain/engagement.ts). */
const NOTE_TOO_LONG = `at most ${NOTE_MAX} characters`;
const signalId = z.number().int().positive();
const digestId = z
  .union([z.number().int().positive(), z.string().min(1).max(200)])
  .describe("Its id or slug.");
const body = z.string().min(1).refine(fitsNote, NOTE_TOO_LONG);

const signalState = {
  signal_id: z.number().int(),
  pinned: z.boolean().describe("Pinned for the team."),
  pinned_at: isoTime.optional(),
  saved: z.boolean().describe("On your own saved list (search_signals with saved=true)."),
  ...notesPageShape("get_evidence"),
  your_rating: z
    .object({
      useful: z.boolean(),
      reasons: z.array(z.enum(RATING_REASONS)).optional(),
      comment: z.string().optional(),
      rated_at: isoTime,
    })
    .optional(),
  share_link: z
    .object({ expires_at: isoTime, include_notes: z.boolean() })
    .optional()
    .describe("The signal's live public link, if any (its URL is shown only when created)."),
};

const digestState = {
  digest_id: z.number().int(),
  pinned: z.boolean(),
  pinned_at: isoTime.optional(),
  ...notesPageShape("get_digest"),
  your_rating: z
    .object({ score: z.number().int().optional(), missing: z.string().optional(), rated_at: isoTime })
    .optional(),
  ratings: z
    .object({ count: z.number().int(), average_score: z.number().optional() })
    .describe("The team's ratings."),
};

const ofSignal = (ctx: AuthedContext, id: number) =>
  signalEngagement(ctx.s.database, ctx.principal.orgId, id, ctx.principal.actor, ctx.now);
const ofDigest = (ctx: AuthedContext, id: number) =>
  digestEngagement(ctx.s.database, ctx.principal.orgId, id, ctx.principal.actor);

export const pinSignalTool = defineTool({
  name: "pin_signal",
  title: "Pin a signal",
  description: "Pins a signal for the team, or unpins it.",
  input: { signal_id: signalId, pinned: z.boolean() },
  output: signalState,
  annotations: SETS_STATE,
  access: "write",
  run: async (ctx, a) => {
    await runCommand(ctx.s.store, pinSignal, a, issuer(ctx));
    return ofSignal(ctx, a.signal_id);
  },
});

export const saveSignalTool = defineTool({
  name: "save_signal",
  title: "Save a signal",
  description:
    "Saves a signal to your own list, or removes it; search_signals with saved=true reads the list.",
  input: {
    signal_id: signalId,
    saved: z.boolean(),
  },
  output: signalState,
  annotations: SETS_STATE,
  access: "write",
  run: async (ctx, a) => {
    await runCommand(ctx.s.store, saveSignal, a, issuer(ctx));
    return ofSignal(ctx, a.signal_id);
  },
});

export const addSignalNoteTool = defineTool({
  name: "add_signal_note",
  title: "Add a note to a signal",
  description: "Adds a team-visible talking point to a signal.",
  input: { signal_id: signalId, body },
  output: { ...signalState, note: note.describe("The note just added.") },
  annotations: ADDS,
  access: "write",
  run: async (ctx, a) => {
    const r = await runCommand(ctx.s.store, addSignalNote, a, issuer(ctx));
    const [state, added] = await Promise.all([ofSignal(ctx, a.signal_id), addedNote(ctx, r.note_id)]);
    return { ...state, note: added };
  },
});

export const rateSignalTool = defineTool({
  name: "rate_signal",
  title: "Rate a signal",
  description: "Records whether a signal was useful to you (if not, why); replaces your earlier rating.",
  input: {
    signal_id: signalId,
    useful: z.boolean(),
    reasons: z
      .array(z.enum(RATING_REASONS))
      .min(1)
      .max(RATING_REASONS.length)
      .optional()
      .describe("With useful=false; other: explain in comment."),
    comment: z
      .string()
      .min(1)
      .refine(fitsNote, NOTE_TOO_LONG)
      .optional()
      .describe("With useful=false: what was wrong."),
  },
  output: signalState,
  annotations: SETS_STATE,
  access: "write",
  run: async (ctx, a) => {
    await runCommand(ctx.s.store, rateSignal, a, issuer(ctx));
    return ofSignal(ctx, a.signal_id);
  },
});

export const pinDigestTool = defineTool({
  name: "pin_digest",
  title: "Pin a digest",
  description: "Pins a digest for the team, or unpins it.",
  input: { digest_id: digestId, pinned: z.boolean() },
  output: digestState,
  annotations: SETS_STATE,
  access: "write",
  run: async (ctx, a) => {
    const r = await runCommand(
      ctx.s.store,
      pinDigest,
      { digest: a.digest_id, pinned: a.pinned },
      issuer(ctx),
    );
    return ofDigest(ctx, r.digest_id);
  },
});

export const addDigestNoteTool = defineTool({
  name: "add_digest_note",
  title: "Add a note to a digest",
  description: "Adds a team-visible talking point to a digest.",
  input: { digest_id: digestId, body },
  output: { ...digestState, note: note.describe("The note just added.") },
  annotations: ADDS,
  access: "write",
  run: async (ctx, a) => {
    const r = await runCommand(
      ctx.s.store,
      addDigestNote,
      { digest: a.digest_id, body: a.body },
      issuer(ctx),
    );
    const [state, added] = await Promise.all([ofDigest(ctx, r.digest_id), addedNote(ctx, r.note_id)]);
    return { ...state, note: added };
  },
});

export const rateDigestTool = defineTool({
  name: "rate_digest",
  title: "Rate a digest",
  description: "Scores a digest 1 to 5 and/or says what is missing; replaces your earlier rating.",
  input: {
    digest_id: digestId,
    score: z.number().int().min(1).max(5).optional().describe("1 (poor) to 5 (excellent)."),
    missing: z
      .string()
      .min(1)
      .refine(fitsNote, NOTE_TOO_LONG)
      .optional()
      .describe("What the digest should have covered."),
  },
  output: digestState,
  annotations: SETS_STATE,
  access: "write",
  run: async (ctx, a) => {
    const r = await runCommand(
      ctx.s.store,
      rateDigest,
      { digest: a.digest_id, score: a.score, missing: a.missing },
      issuer(ctx),
    );
    return ofDigest(ctx, r.digest_id);
  },
});

export const addBattlecardNoteTool = defineTool({
  name: "add_battlecard_note",
  title: "Add a battlecard note",
  description:
    "Adds what the team hears in deals about a competitor; generate_battlecard uses it as framing, never as fact.",
  input: { competitor_id: competitorIdArg, body },
  output: {
    competitor_id: z.number().int(),
    note: note.describe("The note just added."),
    ...notesPageShape("get_battlecard"),
  },
  annotations: ADDS,
  access: "write",
  run: async (ctx, a) => {
    const r = await runCommand(ctx.s.store, addBattlecardNote, a, issuer(ctx));
    const [page, added] = await Promise.all([
      notesPage(ctx.s.database, ctx.principal.orgId, "battlecard", r.competitor_id),
      addedNote(ctx, r.note_id),
    ]);
    return { competitor_id: r.competitor_id, note: added, ...page };
  },
});

export const createShareLinkTool = defineTool({
  name: "create_share_link",
  title: "Share a signal",
  description:
    "Makes a public page for one signal until it expires (the plan caps it), replacing its earlier link. The URL is shown once.",
  input: {
    signal_id: signalId,
    expiry: z
      .string()
      .min(1)
      .max(64)
      .default(DEFAULT_EXPIRY)
      .describe('"24h", "7d", "2w" or an ISO 8601 time.'),
    include_notes: z.boolean().default(false).describe("Show the team's notes on the page."),
  },
  output: {
    url: z.string().optional().describe("The public link; shown only in the first answer."),
    signal_id: z.number().int(),
    expires_at: isoTime,
    include_notes: z.boolean(),
    replaced_previous: z.boolean().describe("true when an earlier live link of this signal stopped working."),
    url_redacted: z
      .boolean()
      .optional()
      .describe(
        "true on a retry with the same idempotency_key: the URL is not stored, so it is not shown again.",
      ),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  access: "write",
  idempotent: true,
  replayResult: ({ url: _url, ...rest }) => ({ ...rest, url_redacted: true }),
  run: async (ctx, a) =>
    runCommand(
      ctx.s.store,
      createShareLink,
      { signal_id: a.signal_id, expiry: a.expiry, include_notes: a.include_notes, base: ctx.base },
      issuer(ctx, (a as { idempotency_key?: string }).idempotency_key),
    ),
});

export const engagementTools = [
  pinSignalTool,
  saveSignalTool,
  addSignalNoteTool,
  rateSignalTool,
  pinDigestTool,
  addDigestNoteTool,
  rateDigestTool,
  addBattlecardNoteTool,
  createShareLinkTool,
];
