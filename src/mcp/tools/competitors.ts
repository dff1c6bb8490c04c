// Watchlist tools: add, rename and remove core competitors, and the extra pages watched on them.
// Each runs one command through the event store (src/domain/watchlist.ts); the effect is visible at once
// to the read tools and the REST API.

import { z } from "zod";
import { runCommand } from "../../../events/command.ts";
import { getCompetitor } from "../../db/queries/competitors.ts";
import { planOf } from "../../domain/plans.ts";
import { coreSlotsUsed } from "../../domain/planUsage.ts";
import {
  addCompetitor,
  addMonitoredPage,
  monitoredPages,
  removeCompetitor,
  removeMonitoredPage,
  renameCompetitor,
} from "../../domain/watchlist.ts";
import { startHistory } from "../../engine/archive/background.ts";
import { competitorIdArg } from "../competitorArg.ts";
import { issuer } from "../issuer.ts";
import { competitorDetail, isoTime } from "../schemas.ts";
import { type AuthedContext, defineTool, ToolError } from "../tool.ts";

async function dossier(ctx: AuthedContext, id: number) {
  const c = await getCompetitor(ctx.s.database.db, ctx.principal.orgId, id, ctx.base);
  if (!c) throw new ToolError("not_found", "No competitor with that id in this workspace.");
  return c;
}

const slotsShape = z
  .object({
    used: z.number().int().describe("Core competitors on the watchlist now."),
    limit: z.number().int().describe("Core slots of the plan."),
    plan: z.string(),
  })
  .describe("The plan's core competitor slots.");

async function slots(ctx: AuthedContext) {
  const used = await coreSlotsUsed(ctx.s.database, ctx.principal.orgId);
  const plan = planOf(ctx.principal.plan);
  return { used, limit: plan.coreSlots, plan: plan.name };
}

const page = z.object({
  id: z.number().int(),
  url: z.string(),
  added_at: isoTime,
  render: z.literal(true).optional().describe("Present when the page is always read in a browser."),
});
const pagesOut = {
  competitor_id: z.number().int(),
  pages: z.array(page).describe("Every page now watched on this competitor, oldest first."),
  limit: z.number().int().describe("Monitored pages allowed per competitor."),
};

export const addCompetitorTool = defineTool({
  name: "add_competitor",
  siteText: ["competitor"],
  title: "Add a competitor",
  description:
    "Adds a company to the core watchlist by its website (a removed one returns with its history). Then research_competitor.",
  input: {
    website_url: z.string().min(1).max(2048).describe("A URL or a domain such as globex.com."),
    name: z.string().min(1).max(200).optional().describe("Default: from the domain."),
  },
  output: {
    competitor: competitorDetail,
    restored: z.boolean().describe("true when a previously tracked competitor came back with its history."),
    core_slots: slotsShape,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "write",
  adminOnly: true,
  run: async (ctx, a) => {
    const r = await runCommand(ctx.s.store, addCompetitor, a, issuer(ctx));
    return { competitor: await dossier(ctx, r.id), restored: r.restored, core_slots: r.core_slots };
  },
});

export const renameCompetitorTool = defineTool({
  name: "rename_competitor",
  title: "Rename a competitor",
  description: "Changes a competitor's display name.",
  input: {
    competitor_id: competitorIdArg,
    name: z.string().min(1).max(200),
  },
  output: {
    competitor: competitorDetail,
    renamed: z.boolean().describe("false when it already had that name."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: "write",
  adminOnly: true,
  run: async (ctx, a) => {
    const r = await runCommand(ctx.s.store, renameCompetitor, a, issuer(ctx));
    return { competitor: await dossier(ctx, r.id), renamed: r.renamed };
  },
});

export const removeCompetitorTool = defineTool({
  name: "remove_competitor",
  title: "Remove a competitor",
  description:
    "Takes a core competitor off the watchlist, freeing a slot; add_competitor brings it back with its history.",
  input: { competitor_id: competitorIdArg },
  output: {
    competitor_id: z.number().int(),
    name: z.string(),
    website_url: z.string().optional(),
    removed: z.literal(true),
    core_slots: slotsShape,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: "write",
  adminOnly: true,
  run: async (ctx, a) => {
    const r = await runCommand(ctx.s.store, removeCompetitor, a, issuer(ctx));
    return {
      competitor_id: r.id,
      name: r.name,
      website_url: r.website_url ?? undefined,
      removed: true as const,
      core_slots: await slots(ctx),
    };
  },
});

export const addMonitoredPageTool = defineTool({
  name: "add_monitored_page",
  title: "Watch a page",
  description: "Watches one more page of a core competitor (pricing, changelog …); up to 10 each.",
  input: {
    competitor_id: competitorIdArg,
    url: z.string().min(1).max(2048),
    render: z.boolean().optional().describe("Always read it in a browser (a page scripts fill in)."),
  },
  output: { ...pagesOut, page: page.describe("The page just added.") },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: "write",
  adminOnly: true,
  run: async (ctx, a) => {
    const r = await runCommand(ctx.s.store, addMonitoredPage, a, issuer(ctx));
    // The page's past, from the web archive, in the background (pages already read are not read again).
    startHistory(ctx.s, ctx.principal.orgId, r.competitor_id);
    return {
      competitor_id: r.competitor_id,
      page: r.page,
      pages: await monitoredPages(ctx.s.database, ctx.principal.orgId, r.competitor_id),
      limit: r.limit,
    };
  },
});

export const removeMonitoredPageTool = defineTool({
  name: "remove_monitored_page",
  title: "Stop watching a page",
  description: "Stops watching a page added with add_monitored_page, named by page_id or by url.",
  input: {
    competitor_id: competitorIdArg,
    page_id: z.number().int().positive().optional(),
    url: z.string().min(1).max(2048).optional().describe("Its URL as added."),
  },
  output: { ...pagesOut, removed: page.describe("The page no longer watched.") },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: "write",
  adminOnly: true,
  run: async (ctx, a) => {
    const r = await runCommand(ctx.s.store, removeMonitoredPage, a, issuer(ctx));
    return {
      competitor_id: r.competitor_id,
      removed: r.page,
      pages: await monitoredPages(ctx.s.database, ctx.principal.orgId, r.competitor_id),
      limit: planOf(ctx.principal.plan).monitoredPagesPerCompetitor,
    };
  },
});

export const competitorTools = [
  addCompetitorTool,
  renameCompetitorTool,
  removeCompetitorTool,
  addMonitoredPageTool,
  removeMonitoredPageTool,
];
