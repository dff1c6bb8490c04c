// generate_battlecard: writes or rewrites one core competitor's battlecard now (src/domain/battlecardGeneration.ts,
// composed by src/engine/battlecards.ts). The result is the same object GET /api/v1/battlecards/{id} returns.
import { z } from "zod";
import { getBattlecard } from "../../db/queries/battlecards.ts";
import { handleGenerateBattlecard } from "../../domain/battlecardGeneration.ts";
import { composeBattlecard } from "../../engine/battlecards.ts";
import { battlecard } from "../schemas.ts";
import { defineTool, ToolError } from "../tool.ts";
import { competitorIdArg, runCommand } from "./competitors.ts";

export const generateBattlecardTool = defineTool({
  name: "generate_battlecard",
  siteText: ["battlecard", "replaced"],
  title: "Write or rewrite a competitor's battlecard",
  description:
    "Writes (or rewrites) the battlecard of one core competitor now, from its stored dossier, its newest open signals with their evidence URLs, and the team's battlecard notes (add_battlecard_note), which are shown only as labelled team framing, never as fact. Sections: overview, strengths, weaknesses, talk_tracks, landmines, recent_moves, team_framing; every line names the fact it rests on, and evidence.lines names its signal id, source URL and date or dossier field. Lines people wrote (an imported or curated card, or an update a member accepted) are kept as written; only the engine's own lines are replaced, and `replaced` says what was (the earlier version's date, the engine's lines removed, how many were added, how many of the team's were kept, a pending proposal replaced). A newer fact that contradicts a line people wrote is not applied: it stays as the card's proposal (get_battlecard) for a member to accept or dismiss. Refuses a competitor without finished research (code research_required: its dossier has no research reads yet), horizon competitors (invalid_argument) and removed ones (not_found). Needs a paid plan, or the workspace's free first week (code plan_required otherwise); counts toward the plan's daily battlecard cap per UTC day (code limit_reached); locked while the workspace's first brief runs (code locked). The new card shows at once in list_battlecards, get_battlecard, what_changed and the REST API.",
  input: { competitor_id: competitorIdArg },
  output: {
    battlecard,
    rewritten: z.boolean().describe("true when an earlier battlecard was replaced."),
    replaced: z
      .looseObject({
        previous_generated_at: z.string().optional(),
        removed: z.array(z.looseObject({ section: z.string(), text: z.string() })),
        added: z.number().int(),
        team_lines_kept: z.number().int(),
        proposal_superseded: z.string().optional(),
        summary: z.string(),
      })
      .optional()
      .describe("What the new card replaced; absent for a first card."),
    generations_today: z
      .object({ used: z.number().int(), limit: z.number().int(), plan: z.string() })
      .describe("Battlecard generations of this workspace today (UTC) against the plan's daily cap."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  access: "spend",
  idempotent: true,
  run: async (ctx, a) => {
    const r = await runCommand(
      ctx,
      (w, c) => handleGenerateBattlecard(w, c, a, composeBattlecard),
      (a as { idempotency_key?: string }).idempotency_key,
    );
    const card = await getBattlecard(
      ctx.s.database.db,
      ctx.principal.orgId,
      r.battlecard_id,
      ctx.base,
      "battlecard",
    );
    if (!card)
      throw new ToolError("internal_error", "The battlecard was written but could not be read back.");
    return {
      battlecard: card,
      rewritten: r.rewritten,
      replaced: r.replaced,
      generations_today: r.generations_today,
    };
  },
});

export const battlecardTools = [generateBattlecardTool];
