// Read tools: the same queries and visibility rules as the REST API (src/db/queries).

import { z } from "zod";
import { historyFoundSince, historyProgress } from "../../db/archiveHistory.ts";
import {
  battlecardProposal,
  battlecardsWrittenSince,
  getBattlecard,
  listBattlecards,
} from "../../db/queries/battlecards.ts";
import { getCompetitor, listCompetitors } from "../../db/queries/competitors.ts";
import { digestsWrittenSince, getDigest, listDigests, newestDigest } from "../../db/queries/digests.ts";
import { getSignal, getSignals, listSignals } from "../../db/queries/signals.ts";
import { MAX_SEARCH_TEXT, searchText } from "../../domain/searchText.ts";
import { parseTimestamp } from "../../domain/validate.ts";
import { cycleStatus } from "../../engine/cycle/status.ts";
import {
  battlecardItem,
  battlecardItemShape,
  digestItem,
  digestItemShape,
  signalItem,
  signalItemShape,
} from "../compact.ts";
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
import { offsetOf, pageArgs, pageOfList, pageOfRows, pageShape } from "./paging.ts";

const id = () => z.number().int().positive();
const limit = (max: number, dflt: number) => z.number().int().min(1).max(max).default(dflt);
const sinceArg = isoTime;

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
    "Tracked competitors (id, name, website, watch), a page at a time. Use it to find a competitor_id.",
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
    "A competitor's dossier: facts, positioning, pricing, hiring, funding, freshness. Use it before a call.",
  input: { competitor_id: id() },
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
    "Open signals, newest first, by competitor, severity, text, date or your saved list. Read one with get_signal.",
  input: {
    competitor_id: id().optional(),
    severity: z.enum(["low", "medium", "high"]).optional(),
    query: z
      .string()
      .min(1)
      .max(MAX_SEARCH_TEXT)
      .optional()
      .describe("Words in the title or summary, matched literally."),
    since: sinceArg.optional(),
    saved: z.boolean().optional().describe("Only the signals you saved (save_signal)."),
    limit: limit(50, 20),
    cursor: pageArgs(20).cursor,
  },
  output: { signals: z.array(signalItemShape), next_cursor: pageShape.next_cursor },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base }, a) => {
    const offset = offsetOf(a.cursor);
    // One more than asked tells whether a next page exists.
    const found = await listSignals(
      s.database.db,
      principal.orgId,
      {
        competitorId: a.competitor_id,
        severity: a.severity,
        q: query(a.query),
        since: since(a.since),
        savedBy: a.saved ? principal.actor : undefined,
        limit: a.limit + 1,
        offset,
      },
      base,
    );
    const page = pageOfRows(found, a.limit, offset);
    return { signals: page.items.map(signalItem), next_cursor: page.next_cursor };
  },
});

export const getSignalTool = defineTool({
  name: "get_signal",
  siteText: ["signal"],
  title: "Get a signal",
  description: "One whole signal with its evidence. Use it on an item of what_changed or search_signals.",
  input: { signal_id: id() },
  output: { signal },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base }, a) => ({
    signal: found(await getSignal(s.database.db, principal.orgId, a.signal_id, base), "signal"),
  }),
});

export const listDigestsTool = defineTool({
  name: "list_digests",
  siteText: ["digests[]"],
  title: "List digests",
  description: "Digests (briefs over a period), newest first. Read one with get_digest.",
  input: {
    type: z.string().min(1).max(100).optional().describe("e.g. daily_digest, weekly_tldr."),
    limit: limit(50, 10),
    cursor: pageArgs(10).cursor,
  },
  output: { digests: z.array(digestItemShape), next_cursor: pageShape.next_cursor },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base }, a) => {
    const offset = offsetOf(a.cursor);
    const found = await listDigests(
      s.database.db,
      principal.orgId,
      { type: a.type, limit: a.limit + 1, offset },
      base,
    );
    const page = pageOfRows(found, a.limit, offset);
    return { digests: page.items.map(digestItem), next_cursor: page.next_cursor };
  },
});

export const getDigestTool = defineTool({
  name: "get_digest",
  siteText: ["digest"],
  title: "Get a digest",
  description: "One digest with its items and Markdown. Use it for a weekly brief.",
  input: {
    id: z
      .union([z.string().min(1).max(200), z.number().int().positive()])
      .optional()
      .describe("Slug or id; none: the newest."),
    type: z.string().min(1).max(100).optional().describe("With no id: the newest of this type."),
    notes_cursor: notesCursorArg,
  },
  output: { digest, ...notesPageShape("get_digest") },
  annotations: READ_ONLY,
  access: "read",
  run: async (ctx, a) => {
    const { s, principal, base } = ctx;
    const d =
      a.id === undefined
        ? await newestDigest(s.database.db, principal.orgId, a.type, base)
        : await getDigest(s.database.db, principal.orgId, String(a.id), base);
    if (!d)
      throw a.id === undefined
        ? new ToolError(
            "not_found",
            a.type === undefined
              ? "This workspace has no digest yet."
              : `This workspace has no digest of type ${a.type}; list_digests lists the digests and their types.`,
            a.type === undefined ? {} : { argument: "type" },
          )
        : new ToolError("not_found", "No digest with that id or slug in this workspace.", { argument: "id" });
    return { digest: d, ...(await readNotes(ctx, "digest", d.id as number, a.notes_cursor)) };
  },
});

export const listBattlecardsTool = defineTool({
  name: "list_battlecards",
  siteText: ["battlecards[]"],
  title: "List battlecards",
  description: "Battlecards, one per competitor that has one. Read one with get_battlecard.",
  input: pageArgs(20),
  output: { battlecards: z.array(battlecardItemShape), ...pageShape },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base }, a) => {
    const page = pageOfList(await listBattlecards(s.database.db, principal.orgId, base), a.limit, a.cursor);
    return { battlecards: page.items.map(battlecardItem), total: page.total, next_cursor: page.next_cursor };
  },
});

export const getBattlecardTool = defineTool({
  name: "get_battlecard",
  siteText: ["battlecard", "proposal"],
  title: "Get a battlecard",
  description:
    "A battlecard: talk tracks, landmines, evidence, pending proposal. Use it to answer a competitor in a deal.",
  input: {
    battlecard_id: id().optional(),
    competitor_id: id().optional(),
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
      throw new ToolError(
        "invalid_argument",
        "Give exactly one of battlecard_id or competitor_id (or competitor); list_battlecards lists both.",
        { argument: "battlecard_id" },
      );
    const card =
      a.battlecard_id !== undefined
        ? await getBattlecard(s.database.db, principal.orgId, a.battlecard_id, base, "battlecard")
        : await getBattlecard(s.database.db, principal.orgId, a.competitor_id!, base, "competitor");
    if (!card)
      throw new ToolError(
        "not_found",
        a.battlecard_id !== undefined
          ? "No battlecard with that id in this workspace; list_battlecards lists them."
          : "That competitor has no battlecard in this workspace; list_battlecards lists the competitors that have one, and generate_battlecard writes one.",
        { argument: a.battlecard_id !== undefined ? "battlecard_id" : "competitor_id" },
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
  description: "A signal's evidence (excerpt, URL, date) and the team's notes. Use it to cite a move.",
  input: { signal_id: id(), notes_cursor: notesCursorArg },
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
    "What is new since a time: signals, digests, battlecards (up to limit each; more names a cut list) and cycles. Start here for 'what changed this week'.",
  input: { since: sinceArg, limit: limit(50, 10) },
  output: {
    since: isoTime,
    signals: z.array(signalItemShape),
    digests: z.array(digestItemShape),
    battlecards: z.array(battlecardItemShape),
    more: z.array(z.enum(["signals", "digests", "battlecards"])).optional(),
    cycles: cycleStatusShape,
  },
  annotations: READ_ONLY,
  access: "read",
  run: async ({ s, principal, base, now }, a) => {
    const t = since(a.since)!;
    const db = s.database.db;
    const [listed, found, digests, battlecards, cycles] = await Promise.all([
      listSignals(db, principal.orgId, { since: t, limit: a.limit + 1, offset: 0 }, base),
      historyFoundSince(s, principal.orgId, t, a.limit + 1),
      digestsWrittenSince(db, principal.orgId, t, a.limit + 1, base),
      battlecardsWrittenSince(db, principal.orgId, t, a.limit + 1, base),
      cycleStatus(s, principal.orgId, now),
    ]);
    // History's finds are dated in the past: they are new by when they were found, so reported once, first.
    const seen = new Set(found.map((f) => f.id));
    const historical = (await getSignals(db, principal.orgId, [...seen], base)).sort(
      (x, y) => found.findIndex((f) => f.id === x.id) - found.findIndex((f) => f.id === y.id),
    );
    const all = [...historical, ...listed.filter((x) => !seen.has(x.id as number))];
    const signals = all.slice(0, a.limit);
    const more = (
      [
        ["signals", all.length > a.limit || listed.length > a.limit],
        ["digests", digests.length > a.limit],
        ["battlecards", battlecards.length > a.limit],
      ] as const
    )
      .filter(([, cut]) => cut)
      .map(([k]) => k);
    return {
      since: t,
      signals: signals.map(signalItem),
      digests: digests.slice(0, a.limit).map(digestItem),
      battlecards: battlecards.slice(0, a.limit).map(battlecardItem),
      more: more.length ? more : undefined,
      cycles,
    };
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
  getSignalTool,
  whatChangedTool,
];
