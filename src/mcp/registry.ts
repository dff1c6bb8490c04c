// Every tool the endpoint serves. Add a tool by adding it to a module's list and that list here.
import { z } from "zod";
import { isPaidOnly } from "../domain/plans.ts";
import { inputSchemaOf } from "./call.ts";
import { inputJsonSchema, outputJsonSchema } from "./jsonSchema.ts";
import type { Tool, ToolAnnotations } from "./tool.ts";
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
import { untrustedDescription } from "./untrusted.ts";

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

/** A tool's description as it is listed: its own words, the fields that quote websites, and who may call it. */
export function describe(t: Tool): string {
  return t.description + (t.siteText ? untrustedDescription(t.siteText) : "") + accessNote(t);
}

/** A tool's annotations. A tool that returns what websites wrote deals with the open world, whatever else it
 * does. */
export function annotationsOf(t: Tool): ToolAnnotations {
  return { ...t.annotations, ...(t.siteText ? { openWorldHint: true } : {}) };
}

/** The tools/list answer, computed once. Every client reads it whole into its context window, so it carries
 * what a client acts on and nothing twice: no title (for people; clients show the name, and the server card
 * has it), the destructive and idempotent hints only where the protocol gives them meaning (readOnlyHint
 * false), and no untrusted_content in the output schema (the description names the fields and the server's
 * instructions say what the marking means). */
export const toolList = tools.map((t) => {
  const a = annotationsOf(t);
  return {
    name: t.name,
    description: describe(t),
    inputSchema: inputJsonSchema(inputSchemaOf(t)),
    outputSchema: outputJsonSchema(z.object(t.output)),
    annotations: a.readOnlyHint ? { readOnlyHint: true, openWorldHint: a.openWorldHint } : a,
  };
});

/** The server card's entry of each tool: the listed definition with its title and every hint spelled out. */
export const toolCards = tools.map((t, i) => ({
  ...toolList[i]!,
  title: t.title,
  annotations: annotationsOf(t),
}));

function accessNote(t: Tool): string {
  if (t.access === "public") return " Public: no credential needed.";
  const notes: string[] = [];
  // read is every credential's scope: only the others are named (the server's instructions say so).
  if (t.access !== "read") notes.push(`Needs scope ${t.access}.`);
  if (t.adminOnly) notes.push("Admins only.");
  if (isPaidOnly(t.name)) notes.push("Paid plans only.");
  return notes.length ? ` ${notes.join(" ")}` : "";
}
