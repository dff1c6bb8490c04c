// The workflows a product marketer repeats, as MCP prompts a client offers its user: each is a message that
// names the tools and resources it uses, so the agent reads what it needs and no more. They hold no workspace
// data themselves.
import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

interface PromptDef extends Prompt {
  text(args: Record<string, string>): string;
}

const competitorArgument = (required: boolean) => ({
  name: "competitor",
  description: "The competitor's name or domain, e.g. Globex or globex.com.",
  required,
});

const PROMPTS: PromptDef[] = [
  {
    name: "prepare_call",
    title: "Prepare for a call against a competitor",
    description: "A one-page brief for a sales call where this competitor is in the deal.",
    arguments: [competitorArgument(true)],
    text: ({ competitor }) =>
      `Prepare me for a sales call where ${competitor} is the competitor. Call get_battlecard with competitor "${competitor}" (or attach the resource rivals://competitors/{competitor_id}/battlecard.md) for talk tracks and landmines, get_competitor with competitor "${competitor}" for pricing and positioning, and search_signals with competitor "${competitor}" and a since of 30 days ago for their recent moves (get_signal for one that matters). Then write: what they will say, how we answer each point, the questions that expose their weaknesses, and what changed lately, citing the evidence URLs. Say what the sources do not state rather than guessing.`,
  },
  {
    name: "weekly_brief",
    title: "The weekly competitive brief",
    description: "What competitors changed this week, the moves that matter most, and what to do about them.",
    arguments: [],
    text: () =>
      `Write this week's competitive brief. Call what_changed with since set to 7 days ago; read the biggest moves whole with get_signal (and get_evidence to cite them); if a digest was written this week, read it with get_digest or attach rivals://digests/latest.md. Write: a three-line summary, each material move with who, what, when and its source URL, and one recommended action per move. Leave out what did not change.`,
  },
  {
    name: "pricing_review",
    title: "Pricing review",
    description: "How competitors' pricing compares and what changed in it, from their pricing pages.",
    arguments: [competitorArgument(false)],
    text: ({ competitor }) =>
      `Review competitor pricing${competitor ? ` for ${competitor}` : ""}. ${
        competitor
          ? `Call get_competitor with competitor "${competitor}"`
          : "Call list_competitors, then get_competitor for each core competitor"
      } and read reads.pricing.plans (amount, period, monthly_equivalent); call search_signals with query "price" for recent pricing moves; get_company_profile gives our own positioning. Write a table of plans by competitor with monthly equivalents, what changed and when (with source URLs), and where our pricing stands. Do not estimate a price a page does not state.`,
  },
  {
    name: "what_to_watch",
    title: "What to watch next",
    description: "Which competitor moves to watch in the coming weeks, and whether monitoring covers them.",
    arguments: [],
    text: () =>
      `Tell me what to watch next. Call what_changed with since set to 30 days ago and read the newest digest's what_to_watch with get_digest; list_competitors and get_competitor show what each competitor's pages state (hiring, release cadence, funding); get_delivery_settings or get_plan_and_limits show how often monitoring runs. Write the five things most likely to move, why (with evidence URLs), and which pages add_monitored_page should add to watch them.`,
  },
];

export function listPrompts(): Prompt[] {
  return PROMPTS.map(({ text: _t, ...p }) => p);
}

export function getPrompt(name: string, args: Record<string, string> | undefined): GetPromptResult {
  const p = PROMPTS.find((x) => x.name === name);
  if (!p)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown prompt ${name}: prompts/list names ${PROMPTS.map((x) => x.name).join(", ")}.`,
    );
  const given = args ?? {};
  for (const a of p.arguments ?? [])
    if (a.required && !given[a.name]?.trim())
      throw new McpError(
        ErrorCode.InvalidParams,
        `Prompt ${name} needs the argument ${a.name}: ${a.description}`,
      );
  const clean = Object.fromEntries(
    Object.entries(given).map(([k, v]) => [k, String(v).replace(/\s+/g, " ").trim().slice(0, 200)]),
  );
  return {
    description: p.description,
    messages: [{ role: "user", content: { type: "text", text: p.text(clean) } }],
  };
}

/** The prompts' names, for the server card. */
