// Research tools: research_competitor (first research of one core competitor), refresh_watchlist (every core
// competitor) and draft_positioning (the workspace's own website into its empty positioning fields). Rules in
// src/domain/research.ts; the reading in src/engine/research/. A run longer than the configured wait (20 s)
// answers status "running" and goes on; get_competitor's freshness.research_state shows when it ends.
import { z } from "zod";
import { getCompetitor } from "../../db/queries/competitors.ts";
import type { AllowanceView, StartCommand } from "../../domain/research.ts";
import type { ResearchTrigger } from "../../domain/researchTypes.ts";
import { draftPositioning } from "../../engine/research/positioning.ts";
import { type RunReport, startResearch, within } from "../../engine/research/runner.ts";
import { competitorIdArg } from "../competitorArg.ts";
import { issuer } from "../issuer.ts";
import { competitorDetail } from "../schemas.ts";
import { type AuthedContext, defineTool, ToolError } from "../tool.ts";

const allowanceShape = z
  .object({
    used: z.number().int().describe("Research updates used this week, this call included."),
    limit: z.number().int().describe("The plan's weekly research allowance."),
    plan: z.string(),
    resets_at: z.string().describe("When the week ends (Monday 00:00 UTC)."),
  })
  .describe("The weekly research allowance.");

const summaryShape = z
  .looseObject({
    pages_found: z.number().int(),
    pages_read: z.number().int(),
    feeds_read: z.number().int(),
    job_board: z.string().optional(),
    fetched: z.number().int(),
  })
  .describe("What the run read.");

const statusShape = z
  .enum(["finished", "running", "failed"])
  .describe('"running": still going after about 20 s; watch get_competitor\'s freshness.research_state.');

function caller(ctx: AuthedContext) {
  const p = ctx.principal;
  return { orgId: p.orgId, actor: p.actor, actorName: p.actorName };
}

const meta = (ctx: AuthedContext, key?: string) => ({
  actor: ctx.principal.actor,
  request_id: ctx.requestId,
  ...(key ? { idempotency_key: key } : {}),
});

/** Starts the runs a tool asks for, as the calling member, on the weekly allowance, and waits for them up to
 * the configured time: the start, and the runs' reports when they all ended in time. */
async function research(ctx: AuthedContext, args: object, cmd: StartCommand, tool: ResearchTrigger) {
  const key = (args as { idempotency_key?: string }).idempotency_key;
  const { start, done } = await startResearch(ctx.s, caller(ctx), cmd, tool, {
    usesAllowance: true,
    metadata: meta(ctx, key),
  });
  return { start, reports: await within(done, ctx.s.config.researchWaitMs) };
}

async function dossier(ctx: AuthedContext, id: number) {
  const c = await getCompetitor(ctx.s.database.db, ctx.principal.orgId, id, ctx.base);
  if (!c) throw new ToolError("not_found", "No competitor with that id in this workspace.");
  return c;
}

export const researchCompetitorTool = defineTool({
  name: "research_competitor",
  siteText: ["competitor"],
  title: "Research a competitor",
  description:
    "First research of a core competitor into its dossier; uses one weekly research update. Later: refresh_watchlist.",
  input: { competitor_id: competitorIdArg },
  output: {
    status: statusShape,
    run_id: z.number().int(),
    competitor: competitorDetail.describe("The dossier now (research state in freshness)."),
    summary: summaryShape.optional(),
    allowance: allowanceShape,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: "spend",
  adminOnly: true,
  idempotent: true,
  run: async (ctx, a) => {
    const { start, reports } = await research(
      ctx,
      a,
      { kind: "first", competitor_id: a.competitor_id },
      "research_competitor",
    );
    const run = start.runs[0];
    const report = reports?.[0];
    if (report?.status === "failed")
      throw new ToolError("research_failed", report.error?.reason ?? "Research failed.", {
        competitor_id: run.competitor_id,
        run_id: run.run_id,
        reason_code: report.error?.code,
      });
    return {
      status: report ? "finished" : "running",
      run_id: run.run_id,
      competitor: await dossier(ctx, run.competitor_id),
      summary: report?.summary,
      allowance: start.allowance as AllowanceView,
    };
  },
});

const runShape = z.object({
  competitor_id: z.number().int(),
  name: z.string(),
  run_id: z.number().int(),
  status: statusShape,
  error: z.object({ code: z.string(), reason: z.string() }).optional(),
});

function runView(r: RunReport) {
  return {
    competitor_id: r.competitor_id,
    name: r.name,
    run_id: r.run_id,
    status: r.status,
    ...(r.error ? { error: r.error } : {}),
  };
}

export const refreshWatchlistTool = defineTool({
  name: "refresh_watchlist",
  siteText: ["runs[].name", "skipped[].name"],
  title: "Refresh the watchlist",
  description: "Re-runs research on every core competitor now; uses one weekly research update in all.",
  input: {},
  output: {
    status: z
      .enum(["finished", "running"])
      .describe(
        '"running" while any run is still going; "finished" when every run ended (some may have failed).',
      ),
    runs: z.array(runShape),
    skipped: z.array(z.object({ competitor_id: z.number().int(), name: z.string(), reason: z.string() })),
    allowance: allowanceShape,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: "spend",
  adminOnly: true,
  idempotent: true,
  run: async (ctx, a) => {
    const { start, reports } = await research(ctx, a, { kind: "watchlist" }, "refresh_watchlist");
    return {
      status: reports ? ("finished" as const) : ("running" as const),
      runs: reports
        ? reports.map(runView)
        : start.runs.map((r) => ({
            competitor_id: r.competitor_id,
            name: r.name,
            run_id: r.run_id,
            status: "running" as const,
          })),
      skipped: start.skipped,
      allowance: start.allowance as AllowanceView,
    };
  },
});

const list = z.array(z.string());

export const draftPositioningTool = defineTool({
  name: "draft_positioning",
  title: "Draft positioning",
  description:
    "Drafts the company profile's empty positioning fields from its own website; filled fields stay.",
  input: {},
  output: {
    filled: z
      .array(z.enum(["value_propositions", "differentiators", "exclusions"]))
      .describe("Fields this call filled."),
    kept: z.array(z.string()).describe("Fields left as they were because they were already filled."),
    positioning: z.object({ value_propositions: list, differentiators: list, exclusions: list }),
    source_url: z.string().optional().describe("The website read."),
    drafts_today: z.object({ used: z.number().int(), limit: z.number().int() }),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: "spend",
  adminOnly: true,
  idempotent: true,
  run: async (ctx) => draftPositioning(ctx.s, issuer(ctx)),
});

export const researchTools = [researchCompetitorTool, refreshWatchlistTool, draftPositioningTool];
