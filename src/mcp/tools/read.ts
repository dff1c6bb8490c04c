// Read tools: the same queries and visibility rules as the REST API (src/db/queries).

import { z } from "zod";
import {
  battlecardProposal,
  battlecardsWrittenSince,
  getBattlecard,
  listBattlecards,
} from "../../db/queries/battlecards.ts";
import { getCompetitor, listCompetitors } from "../../db/queries/competitors.ts";
import { digestsWrittenSince, getDigest, listDigests, newestDigest } from "../../db/queries/digests.ts";
import { getSignal, getSignals, listSignals } from "../../db/queries/signals.ts";
import { CONTROL_CHARACTERS_REFUSED, MAX_SEARCH_TEXT, searchText } from "../../domain/searchText.ts";
import { parseTimestamp } from "../../domain/validate.ts";
import { historyFoundSince, historyProgress } from "../../engine/archive/state.ts";
import { cycleStatus } from "../../engine/cycle/status.ts";
import {
  battlecard,
  competitorDetail,
  competitorSummary,
  cycleStatusShape,
  digest,
  evidenceItem,
  isoTime,
  signal,
} from "../schemas.ts";
import { defineTool, READ_ONLY, ToolError } from "../tool.ts";
import { notesCursorArg, notesPageShape, readNotes } from "./notes.ts";
import { pageArgs, pageOfList, pageShape } from "./paging.ts";

const id = (what: string) => z.number().int().positive().describe(`Id of the ${what}.`);
const limit = (max: number, dflt: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(dflt)
    .describe(`How many to return, 1 to ${max} (default ${dflt}).`);
const sinceArg = z.string().describe("ISO 8601 time, e.g. 2026-11-01T00:00:00Z.");

function since(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = parseTimestamp(v);
  if (t === null)
    throw new ToolError("invalid_argument", "since must be an ISO 8601 time, e.g. 2026-11-01T00:00:00Z.", {
      argument: "since",
    });
  return t;
}

/** The search rule of domain/searchText.ts; refused text is an invalid_argument naming `query`. */
function query(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const checked = searchText(v);
  if (!checked.ok) throw new ToolError("invalid_argument", `query ${checked.reason}.`, { argument: "query" });
  return checked.text;
}

function found<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new ToolError("not_found", `No ${what} with that id in this workspace.`);
  return v;
}

export const listCompetitorsTool = defineTool({
  name: "list_competitors",
  siteText: ["competitors[]"],
  title: "List tracked competitors",
  description:
    "Lists the competitors this workspace actively tracks (core and horizon), ordered by priority then tracked date, with id, name, website, category and watch level: up to limit (default 50) with the total, and next_cursor when more follow (pass it as cursor). Use the id with get_competitor, search_signals or get_battlecard.",
  input: pageArgs(50),
  output: { competitors: z.array(competitorSummary), ...pageShape },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base }, a) => {
    const page = pageOfList(await listCompetitors(s.database.db, principal.orgId, base), a.limit, a.cursor);
    return { competitors: page.items, total: page.total, next_cursor: page.next_cursor };
  },
});

export const getCompetitorTool = defineTool({
  name: "get_competitor",
  siteText: ["competitor"],
  title: "Get a competitor dossier",
  description:
    "Returns the dossier of one tracked competitor: company record (description, category, size, headquarters, ownership, links), current research reads (positioning, pricing, hiring, funding, …), workspace risk/opportunity and freshness. Signals and the battlecard are not embedded: use search_signals with competitor_id, and get_battlecard.",
  input: { competitor_id: id("competitor (from list_competitors)") },
  output: { competitor: competitorDetail },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base }, a) => {
    const competitor = found(
      await getCompetitor(s.database.db, principal.orgId, a.competitor_id, base),
      "competitor",
    );
    // Its web-archive history, while it is read and after ("reading history: 34 of 96 captures").
    const history = await historyProgress(s, principal.orgId, a.competitor_id);
    return { competitor: history ? { ...competitor, history } : competitor };
  },
});

export const searchSignalsTool = defineTool({
  name: "search_signals",
  siteText: ["signals[]"],
  title: "Search signals",
  description:
    "Searches open signals (evidence-backed competitor moves) of tracked competitors, newest first. All filters are optional and combine: competitor_id, severity, a case-insensitive text query on title or summary, since (first seen on or after), and saved (only your own saved list). Each signal carries its evidence.",
  input: {
    competitor_id: id("competitor").optional(),
    severity: z.enum(["low", "medium", "high"]).optional().describe("Only signals of this severity."),
    query: z
      .string()
      .min(1)
      .max(MAX_SEARCH_TEXT)
      .optional()
      .describe(
        `Text to find in title or summary (case-insensitive, matched literally); ${CONTROL_CHARACTERS_REFUSED}.`,
      ),
    since: sinceArg.optional(),
    saved: z
      .boolean()
      .optional()
      .describe("true: only the signals you saved with save_signal (your own list; nobody else sees it)."),
    limit: limit(50, 20),
  },
  output: { signals: z.array(signal) },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base }, a) => ({
    signals: await listSignals(
      s.database.db,
      principal.orgId,
      {
        competitorId: a.competitor_id,
        severity: a.severity,
        q: query(a.query),
        since: since(a.since),
        savedBy: a.saved ? principal.actor : undefined,
        limit: a.limit,
        offset: 0,
      },
      base,
    ),
  }),
});

export const listDigestsTool = defineTool({
  name: "list_digests",
  siteText: ["digests[]"],
  title: "List digests",
  description:
    "Lists generated digests (briefs over a period), newest coverage period first, without their items and markdown; fetch one with get_digest for the full text. Optionally only one debrief type such as daily_digest or weekly_tldr.",
  input: {
    type: z.string().min(1).max(100).optional().describe("Debrief type, e.g. daily_digest or weekly_tldr."),
    limit: limit(50, 10),
  },
  output: { digests: z.array(digest) },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base }, a) => ({
    digests: await listDigests(
      s.database.db,
      principal.orgId,
      { type: a.type, limit: a.limit, offset: 0 },
      base,
    ),
  }),
});

export const getDigestTool = defineTool({
  name: "get_digest",
  siteText: ["digest"],
  title: "Get a digest",
  description:
    "Returns one generated digest with its items, markdown and covered signal ids, and the team's notes on it (newest 20 and the total; notes_cursor reads older ones). Name it by slug or numeric id; with no id, returns the newest digest (optionally the newest of one type).",
  input: {
    id: z
      .union([z.string().min(1).max(200), z.number().int().positive()])
      .optional()
      .describe("Digest slug or numeric id. Omit for the newest."),
    type: z.string().min(1).max(100).optional().describe("With no id: the newest digest of this type."),
    notes_cursor: notesCursorArg,
  },
  output: { digest, ...notesPageShape("get_digest") },
  annotations: READ_ONLY,
  access: "read",
  run: async (ctx, a) => {
    const { s, principal, base } = ctx;
    const d = found(
      a.id === undefined
        ? await newestDigest(s.database.db, principal.orgId, a.type, base)
        : await getDigest(s.database.db, principal.orgId, String(a.id), base),
      "digest",
    );
    return { digest: d, ...(await readNotes(ctx, "digest", d.id as number, a.notes_cursor)) };
  },
});

export const listBattlecardsTool = defineTool({
  name: "list_battlecards",
  siteText: ["battlecards[]"],
  title: "List battlecards",
  description:
    "Lists the generated battlecard of each tracked competitor that has one, ordered by competitor id, with sections (overview, strengths, weaknesses, talk tracks) and evidence: up to limit (default 20) with the total, and next_cursor when more follow (pass it as cursor).",
  input: pageArgs(20),
  output: { battlecards: z.array(battlecard), ...pageShape },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base }, a) => {
    const page = pageOfList(await listBattlecards(s.database.db, principal.orgId, base), a.limit, a.cursor);
    return { battlecards: page.items, total: page.total, next_cursor: page.next_cursor };
  },
});

export const getBattlecardTool = defineTool({
  name: "get_battlecard",
  siteText: ["battlecard", "proposal"],
  title: "Get a battlecard",
  description:
    "Returns one generated battlecard, named by battlecard_id or by competitor_id (give one of the two), and the team's battlecard notes on its competitor (add_battlecard_note; newest 20 and the total; notes_cursor reads older ones). A card's lines written by people (an imported or curated card, or an update a member accepted) are never rewritten by the engine: after a monitoring cycle, what it would change is returned as `proposal` (lines to add with their source, lines to drop and why, when it was proposed); a member accepts or dismisses it on the battlecard page, and generate_battlecard writes the engine's lines afresh (keeping the people's lines) and replaces it. evidence.lines names what each line rests on (a signal id, a source URL and date, or a dossier field) and who wrote it (`rivals` or `team`).",
  input: {
    battlecard_id: id("battlecard").optional(),
    competitor_id: id("competitor").optional(),
    notes_cursor: notesCursorArg,
  },
  output: {
    battlecard,
    proposal: z
      .looseObject({
        proposed_at: z.string(),
        add: z.array(z.looseObject({ section: z.string(), text: z.string() })),
        drop: z.array(
          z.looseObject({ section: z.string(), text: z.string(), because: z.string().optional() }),
        ),
      })
      .optional()
      .describe("The engine's pending update of the card after a cycle; absent when none is pending."),
    ...notesPageShape("get_battlecard"),
  },
  annotations: READ_ONLY,
  access: "read",
  run: async (ctx, a) => {
    const { s, principal, base } = ctx;
    if ((a.battlecard_id === undefined) === (a.competitor_id === undefined))
      throw new ToolError("invalid_argument", "Give exactly one of battlecard_id or competitor_id.");
    const card = found(
      a.battlecard_id !== undefined
        ? await getBattlecard(s.database.db, principal.orgId, a.battlecard_id, base, "battlecard")
        : await getBattlecard(s.database.db, principal.orgId, a.competitor_id!, base, "competitor"),
      "battlecard",
    );
    const proposal = await battlecardProposal(s.database.db, principal.orgId, card.id as number);
    return {
      battlecard: card,
      proposal,
      ...(await readNotes(ctx, "battlecard", card.competitor_id as number, a.notes_cursor)),
    };
  },
});

export const getEvidenceTool = defineTool({
  name: "get_evidence",
  siteText: ["title", "evidence[]"],
  title: "Get the evidence behind a signal",
  description:
    "Returns the evidence excerpts behind one signal (open or closed), each with its text, source title, source URL and the date it was observed, and the team's notes on the signal (newest 20 and the total; notes_cursor reads older ones).",
  input: { signal_id: id("signal"), notes_cursor: notesCursorArg },
  output: {
    signal_id: z.number().int(),
    title: z.string(),
    url: z.string(),
    evidence: z.array(evidenceItem),
    ...notesPageShape("get_evidence"),
  },
  annotations: READ_ONLY,
  access: "read",
  run: async (ctx, a) => {
    const { s, principal, base } = ctx;
    const sig = found(await getSignal(s.database.db, principal.orgId, a.signal_id, base), "signal");
    return {
      signal_id: sig.id as number,
      title: sig.title as string,
      url: sig.url as string,
      evidence: sig.evidence as z.infer<typeof evidenceItem>[],
      ...(await readNotes(ctx, "signal", sig.id as number, a.notes_cursor)),
    };
  },
});

export const whatChangedTool = defineTool({
  name: "what_changed",
  siteText: ["signals[]", "digests[]", "battlecards[]"],
  title: "What changed since a time",
  description:
    "Everything new since a time: open signals first seen since then (and signals read from a competitor's web-archive history since then, by when they were found, with their past dates), digests written since then, and battlecards written or rewritten since then, each newest first and each list up to limit; cycles tells the last finished monitoring cycle (with its counts), one running, and when the next is due.",
  input: { since: sinceArg, limit: limit(50, 20) },
  output: {
    since: isoTime,
    signals: z.array(signal),
    digests: z.array(digest),
    battlecards: z.array(battlecard),
    cycles: cycleStatusShape,
  },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base, now }, a) => {
    const t = since(a.since)!;
    const db = s.database.db;
    const [listed, found, digests, battlecards, cycles] = await Promise.all([
      listSignals(db, principal.orgId, { since: t, limit: a.limit, offset: 0 }, base),
      historyFoundSince(s, principal.orgId, t, a.limit),
      digestsWrittenSince(db, principal.orgId, t, a.limit, base),
      battlecardsWrittenSince(db, principal.orgId, t, a.limit, base),
      cycleStatus(s, principal.orgId, now),
    ]);
    // History's finds are dated in the past: they are new by when they were found, so reported once, first.
    const seen = new Set(found.map((f) => f.id));
    const historical = (await getSignals(db, principal.orgId, [...seen], base)).sort(
      (x, y) => found.findIndex((f) => f.id === x.id) - found.findIndex((f) => f.id === y.id),
    );
    const signals = [...historical, ...listed.filter((x) => !seen.has(x.id as number))].slice(0, a.limit);
    return { since: t, signals, digests, battlecards, cycles };
  },
});

export const readTools = [
  listCompetitorsTool,
  getCompetitorTool,
  searchSignalsTool,
  listDigestsTool,
  getDigestTool,
  listBattlecardsTool,
  getBattlecardTool,
  getEvidenceTool,
  whatChangedTool,
];
