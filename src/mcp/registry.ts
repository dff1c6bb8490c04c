// Every tool the endpoint serves. Add a tool by adding it to a module's list and that list here.
import { z } from "zod";
import { isPaidOnly } from "../domain/plans.ts";
import { inputSchemaOf } from "./call.ts";
import { inputJsonSchema, outputJsonSchema } from "./jsonSchema.ts";
import type { Tool } from "./tool.ts";
import { battlecardTools } from "./tools/battlecards.ts";
import { competitorTools } from "./tools/competitors.ts";
import { engagementTools } from "./tools/engagement.ts";
import { feedTools } from "./tools/feeds.ts";
import { memberTools } from "./tools/members.ts";
import { publicTools } from "./tools/public.ts";
import { readTools } from "./tools/read.ts";
import { researchTools } from "./tools/research.ts";
import { webhookTools } from "./tools/webhooks.ts";
import { workspaceTools } from "./tools/workspace.ts";
import { untrustedContentShape, untrustedDescription } from "./untrusted.ts";

export const tools: Tool[] = [
  ...(readTools as unknown as Tool[]),
  ...(memberTools as unknown as Tool[]),
  ...(workspaceTools as unknown as Tool[]),
  ...(publicTools as unknown as Tool[]),
  ...(competitorTools as unknown as Tool[]),
  ...(engagementTools as unknown as Tool[]),
  ...(battlecardTools as unknown as Tool[]),
  ...(researchTools as unknown as Tool[]),
  ...(webhookTools as unknown as Tool[]),
  ...(feedTools as unknown as Tool[]),
];

export const toolsByName = new Map(tools.map((t) => [t.name, t]));

/** The tools/list answer, computed once. */
export const toolList = tools.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description + (t.siteText ? untrustedDescription(t.siteText) : "") + accessNote(t),
  inputSchema: inputJsonSchema(inputSchemaOf(t)),
  outputSchema: outputJsonSchema(
    z.object(t.siteText ? { ...t.output, untrusted_content: untrustedContentShape } : t.output),
  ),
  // The title is the tool's own (not repeated here). A tool that returns what websites wrote deals with the
  // open world, whatever else it does.
  annotations: { ...t.annotations, ...(t.siteText ? { openWorldHint: true } : {}) },
}));

function accessNote(t: Tool): string {
  const notes: string[] = [];
  if (t.access === "public") notes.push("Public: needs no credential.");
  // read is every credential's scope: only the others are named (the server's instructions say so).
  else if (t.access !== "read") notes.push(`Needs scope ${t.access}.`);
  if (t.adminOnly) notes.push("Workspace admins only.");
  if (isPaidOnly(t.name)) notes.push("Needs a paid plan.");
  return notes.length ? ` ${notes.join(" ")}` : "";
}
