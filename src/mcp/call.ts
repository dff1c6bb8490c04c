// The one place a tool call is checked and run: role, idempotency, and how failures are reported (a paid-only
// command is refused by its decider, through the domain's one gate, src/domain/plans.ts `requirePaid`).

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DomainError } from "../domain/errors.ts";
import { InvalidInput } from "../domain/validate.ts";
import { clientLogOf, describeError } from "../http/clientLog.ts";
import { competitorArg, resolveCompetitor } from "./competitorArg.ts";
import { once } from "./idempotency.ts";
import { type AuthedContext, type Tool, type ToolContext, ToolError } from "./tool.ts";
import { untrustedContent } from "./untrusted.ts";

export const idempotencyKeyArg = z.string().min(1).max(200).optional();

const inputSchemas = new WeakMap<Tool, z.ZodObject>();
/** Tools whose competitor_id is required: one of competitor_id or competitor must come. */
const needsCompetitor = new WeakSet<Tool>();

/** The input schema a tool is listed and validated with: made once per tool, because zod compiles a schema's
 * parser on its first use (a new schema per call cost about a tenth of a tool call's CPU). */
export function inputSchemaOf(tool: Tool): z.ZodObject {
  let schema = inputSchemas.get(tool);
  if (schema === undefined) {
    let shape: z.ZodRawShape = tool.input;
    const byId = tool.input.competitor_id as z.ZodType | undefined;
    if (byId) {
      if (!byId.safeParse(undefined).success) needsCompetitor.add(tool);
      shape = { ...shape, competitor_id: byId.optional(), competitor: competitorArg };
    }
    if (tool.idempotent) shape = { ...shape, idempotency_key: idempotencyKeyArg };
    schema = z.object(shape).strict();
    inputSchemas.set(tool, schema);
  }
  return schema;
}

export function errorResult(
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify({ error: { code, message, ...extra } }) }],
  };
}

/** Where an agent finds valid values of an argument, by its name. */
const SOURCES: Record<string, string> = {
  competitor_id: "a competitor's numeric id from list_competitors, or competitor with its name or domain",
  signal_id: "a signal's numeric id from what_changed or search_signals",
  digest_id: "a digest's id or slug from list_digests",
  id: "a digest's slug or id from list_digests, or nothing for the newest",
  cadence: "one of the cadences get_delivery_settings lists as allowed",
  company_slug: "a company's slug from search_public_briefs",
  battlecard_id: "a battlecard's numeric id from list_battlecards, or competitor_id",
  page_id: "a monitored page's id from add_monitored_page or get_competitor",
  webhook_id: "an endpoint's id from list_webhooks",
  since: "an ISO 8601 time such as 2026-11-01T00:00:00Z",
  cursor: "next_cursor from an earlier result, unchanged",
  notes_cursor: "notes_next_cursor from an earlier result, unchanged",
};

/** What each id argument names, as a refusal words it ("No signal with that id …"). */
const NOUNS: Record<string, string> = {
  competitor_id: "competitor",
  signal_id: "signal",
  digest_id: "digest",
  id: "digest",
  battlecard_id: "battlecard",
  page_id: "page",
  webhook_id: "webhook",
};

/** The argument a refusal is about: the one it names, else the id argument sent whose record it says is
 * missing. */
function blamed(
  code: string,
  message: string,
  extra: Record<string, unknown>,
  args: Record<string, unknown>,
) {
  // Only a refusal of the value sent asks for another value (a conflict or a limit does not).
  if (code !== "not_found" && code !== "invalid_argument") return undefined;
  if (typeof extra.argument === "string") return extra.argument;
  if (code !== "not_found") return undefined;
  const sent = Object.keys(NOUNS).filter((k) => args[k] !== undefined);
  if (sent.length === 1) return sent[0];
  return sent.find((k) => message.toLowerCase().includes(NOUNS[k]!));
}

/** A refusal of an argument says what to send instead and which tool lists valid values (unless it does). */
export function withHint(
  code: string,
  message: string,
  extra: Record<string, unknown>,
  args: Record<string, unknown>,
): CallToolResult {
  const arg = blamed(code, message, extra, args);
  const source = arg === undefined ? undefined : SOURCES[arg];
  // A message that already names a tool or an example is left as it is.
  if (
    arg === undefined ||
    source === undefined ||
    /\b(list|search|get)_[a-z_]+|e\.g\.|earlier result/.test(message)
  )
    return errorResult(code, message, arg === undefined ? extra : { ...extra, argument: arg });
  return errorResult(code, `${message.replace(/\.?$/, ".")} Send ${source}.`, { ...extra, argument: arg });
}

function describeIssues(e: z.ZodError, tool: Tool): string {
  const takes = Object.keys(inputSchemaOf(tool).shape).join(", ");
  return e.issues
    .slice(0, 5)
    .map((i) => {
      if (i.code === "unrecognized_keys")
        return `${i.keys.join(", ")}: not an argument of ${tool.name}; it takes ${takes || "no arguments"}`;
      const arg = String(i.path[0] ?? "");
      const where = i.path.length ? i.path.join(".") : "arguments";
      const hint = SOURCES[arg] ? `; send ${SOURCES[arg]}` : "";
      return `${where}: ${i.message}${hint}`;
    })
    .join("; ");
}

/** A competitor named in words where an id was asked for is a name to resolve; a number in a string is the
 * number. */
function normalised(tool: Tool, raw: unknown): unknown {
  if (!("competitor_id" in tool.input) || !raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const a = { ...(raw as Record<string, unknown>) };
  const v = a.competitor_id;
  if (typeof v === "string") {
    if (/^\s*\d{1,15}\s*$/.test(v)) a.competitor_id = Number(v);
    else if (a.competitor === undefined) {
      a.competitor = v;
      delete a.competitor_id;
    }
  }
  return a;
}

/** competitor → competitor_id within the caller's workspace (mcp/competitorArg.ts). */
async function withCompetitorId(tool: Tool, ctx: AuthedContext, args: Record<string, unknown>) {
  if (!("competitor_id" in tool.input)) return args;
  const { competitor, ...rest } = args;
  if (competitor !== undefined && rest.competitor_id !== undefined)
    throw new ToolError("invalid_argument", "Send competitor_id or competitor, not both.", {
      argument: "competitor",
    });
  if (competitor !== undefined)
    return {
      ...rest,
      competitor_id: await resolveCompetitor(ctx.s, ctx.principal.orgId, String(competitor)),
    };
  if (rest.competitor_id === undefined && needsCompetitor.has(tool))
    throw new ToolError(
      "invalid_argument",
      `${tool.name} needs a competitor: send competitor_id (list_competitors lists them) or competitor with its name or domain.`,
      { argument: "competitor_id" },
    );
  return rest;
}

export async function callTool(tool: Tool, ctx: ToolContext, rawArgs: unknown): Promise<CallToolResult> {
  const parsed = inputSchemaOf(tool).safeParse(normalised(tool, rawArgs ?? {}));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const arg = first?.code === "unrecognized_keys" ? first.keys[0] : first?.path[0];
    return errorResult(
      "invalid_argument",
      describeIssues(parsed.error, tool),
      arg === undefined ? {} : { argument: String(arg) },
    );
  }
  let args = parsed.data as Record<string, unknown>;
  try {
    const p = ctx.principal;
    if (tool.access !== "public") {
      // The endpoint refuses a call without credential or scope before it gets here.
      if (!p) throw new ToolError("unauthorized", "This tool needs a credential.");
      if (tool.adminOnly && p.role !== "admin")
        throw new ToolError(
          "forbidden",
          `${tool.name} is for workspace admins only; your role is ${p.role}.`,
        );
    }
    if (p) args = await withCompetitorId(tool, ctx as AuthedContext, args);
    const run = () => tool.run(ctx as AuthedContext, args as never);
    const key = args.idempotency_key as string | undefined;
    const result: Record<string, unknown> =
      tool.idempotent && key && p
        ? await once(ctx.s, p.orgId, tool.name, key, args, run, tool.replayResult as never)
        : await run();
    // The marking comes first, so an agent reads what is quoted before the quotes.
    const untrusted = tool.siteText && untrustedContent(tool.siteText, result, ctx.base);
    const out = untrusted ? { untrusted_content: untrusted, ...result } : result;
    return {
      content: [{ type: "text", text: JSON.stringify(out) }],
      structuredContent: out,
    };
  } catch (e) {
    if (e instanceof ToolError || e instanceof DomainError) return withHint(e.code, e.message, e.extra, args);
    if (e instanceof InvalidInput)
      return withHint("invalid_argument", e.message, e.field ? { argument: e.field } : {}, args);
    const failure = { request_id: ctx.requestId, tool: tool.name, error: describeError(e) };
    if (ctx.address !== undefined) clientLogOf(ctx.s).failure(ctx.address, { path: "/mcp", ...failure });
    else console.error(JSON.stringify({ level: "error", event: "tool_failed", ...failure }));
    return errorResult(
      "internal_error",
      `The tool failed unexpectedly; quote request ${ctx.requestId} to support.`,
    );
  }
}
