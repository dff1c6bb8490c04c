// The one place a tool call is checked and run: role, plan, idempotency, and how failures are reported.

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { clientLogOf, describeError } from "../api/clientLog.ts";
import { DomainError } from "../domain/errors.ts";
import { isPaidOnly, LOWEST_PAID, planOf } from "../domain/plans.ts";
import { InvalidInput } from "../domain/validate.ts";
import { once } from "./idempotency.ts";
import { type AuthedContext, type Tool, type ToolContext, ToolError } from "./tool.ts";
import { untrustedContent } from "./untrusted.ts";

export const idempotencyKeyArg = z.string().min(1).max(200).optional();

const inputSchemas = new WeakMap<Tool, z.ZodObject>();

/** The input schema a tool is listed and validated with: made once per tool, because zod compiles a schema's
 * parser on its first use (a new schema per call cost about a tenth of a tool call's CPU). */
export function inputSchemaOf(tool: Tool): z.ZodObject {
  let schema = inputSchemas.get(tool);
  if (schema === undefined) {
    schema = z
      .object(tool.idempotent ? { ...tool.input, idempotency_key: idempotencyKeyArg } : tool.input)
      .strict();
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

function describeIssues(e: z.ZodError): string {
  return e.issues
    .map((i) => `${i.path.length ? i.path.join(".") : "arguments"}: ${i.message}`)
    .slice(0, 5)
    .join("; ");
}

export async function callTool(tool: Tool, ctx: ToolContext, rawArgs: unknown): Promise<CallToolResult> {
  const parsed = inputSchemaOf(tool).safeParse(rawArgs ?? {});
  if (!parsed.success) return errorResult("invalid_argument", describeIssues(parsed.error));
  const args = parsed.data as Record<string, unknown>;
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
      if (isPaidOnly(tool.name) && !planOf(p.plan).paid)
        throw new ToolError(
          "plan_required",
          `${tool.name} needs a paid plan (${LOWEST_PAID} or higher); this workspace is on ${planOf(p.plan).label}.`,
          { plan_needed: LOWEST_PAID, plan: p.plan },
        );
    }
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
    if (e instanceof ToolError) return errorResult(e.code, e.message, e.extra);
    if (e instanceof DomainError) return errorResult(e.code, e.message, e.extra);
    if (e instanceof InvalidInput)
      return errorResult("invalid_argument", e.message, e.field ? { argument: e.field } : {});
    const failure = { request_id: ctx.requestId, tool: tool.name, error: describeError(e) };
    if (ctx.address !== undefined) clientLogOf(ctx.s).failure(ctx.address, { path: "/mcp", ...failure });
    else console.error(JSON.stringify({ level: "error", event: "tool_failed", ...failure }));
    return errorResult(
      "internal_error",
      `The tool failed unexpectedly; quote request ${ctx.requestId} to support.`,
    );
  }
}
