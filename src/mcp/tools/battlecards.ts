// generate_battlecard: writes or rewrites one core competitor's battlecard now (src/domain/battlecardGeneration.ts,
// composed by src/engine/battlecards.ts). The result is the same object GET /api/v1/battlecards/{id} returns.
import { z } from "zod";
import { runCommand } from "../../../events/command.ts";
import { getBattlecard } from "../../db/queries/battlecards.ts";
import { generateBattlecard } from "../../domain/battlecardGeneration.ts";
import { reviewProposal } from "../../domain/battlecardProposals.ts";
import { composeBattlecard } from "../../engine/battlecards.ts";
import { competitorIdArg } from "../competitorArg.ts";
import { issuer } from "../issuer.ts";
import { battlecard } from "../schemas.ts";
import { defineTool, ToolError } from "../tool.ts";

export const generateBattlecardTool = defineTool({
  name: "generate_battlecard",
  siteText: ["battlecard", "replaced"],
  title: "Generate a battlecard",
  description:
    "Writes or rewrites a researched core competitor's battlecard, keeping lines people wrote. Counts toward a daily cap.",
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
      ctx.s.store,
      generateBattlecard(composeBattlecard),
      { competitor_id: a.competitor_id },
      issuer(ctx, (a as { idempotency_key?: string }).idempotency_key),
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

export const reviewBattlecardTool = defineTool({
  name: "review_battlecard",
  siteText: ["battlecard"],
  title: "Review a battlecard update",
  description: "Accepts or dismisses a battlecard's pending proposal (get_battlecard).",
  input: {
    competitor_id: competitorIdArg,
    decision: z.enum(["accept", "dismiss"]),
    proposed_at: z.string().max(40).optional().describe("Refused if the proposal changed since."),
  },
  output: { battlecard, decision: z.enum(["accept", "dismiss"]) },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: "write",
  idempotent: true,
  run: async (ctx, a) => {
    const { s, principal, base } = ctx;
    const card = await getBattlecard(s.database.db, principal.orgId, a.competitor_id, base, "competitor");
    if (!card)
      throw new ToolError(
        "not_found",
        "This competitor has no battlecard in this workspace; list_battlecards lists the competitors that have one.",
        { argument: "competitor_id" },
      );
    const r = await runCommand(
      ctx.s.store,
      reviewProposal,
      {
        battlecard_id: card.id as number,
        decision: a.decision,
        ...(a.proposed_at ? { proposed_at: a.proposed_at } : {}),
      },
      issuer(ctx, (a as { idempotency_key?: string }).idempotency_key),
    );
    const now = await getBattlecard(s.database.db, principal.orgId, r.battlecard_id, base, "battlecard");
    if (!now) throw new ToolError("internal_error", "The battlecard was updated but could not be read back.");
    return { battlecard: now, decision: r.decision };
  },
});

export const battlecardTools = [generateBattlecardTool, reviewBattlecardTool];
