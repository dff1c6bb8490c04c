// How a tool is declared. Access (scope), role, plan and idempotency are declared here and enforced in
// one place (src/mcp/call.ts), never inside a tool.
import type { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import type { Services } from "../services.ts";

/** `public` needs no credential; the others name the scope a caller must hold. */
export type Access = "public" | "read" | "write" | "spend";

export interface ToolContext {
  s: Services;
  /** Null only for public tools called without a credential. */
  principal: Principal | null;
  requestId: string;
  base: string;
  now: Date;
  /** The client's address over HTTP (its failures are logged at most once a minute per address:
   * http/clientLog.ts); absent for a call made in-process. */
  address?: string;
}

/** A principal is guaranteed for every non-public tool. */
export interface AuthedContext extends ToolContext {
  principal: Principal;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface Tool<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  access: Access;
  adminOnly?: boolean;
  /** Accepts `idempotency_key` (src/mcp/idempotency.ts). */
  idempotent?: boolean;
  /** Fields of the result that quote competitors' websites (`signals[].title`, `[]` for each item): each
   * result names the ones it holds in `untrusted_content`, the description says so, and openWorldHint is
   * true (mcp/untrusted.ts). */
  siteText?: string[];
  /** What the idempotency record keeps and a retry gets back (default: the whole result). A result that
   * carries a secret shown once (a share link's URL) is kept without it. */
  replayResult?: (result: Record<string, unknown>) => Record<string, unknown>;
  /** Values are checked against `output` by every SDK client; here only the keys are typed. */
  run(ctx: AuthedContext, args: z.infer<z.ZodObject<I>>): Promise<{ [K in keyof O]: unknown }>;
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(t: Tool<I, O>): Tool<I, O> {
  return t;
}

/** A business failure of a tool: returned as a tool result with isError and a stable code. */
export class ToolError extends Error {
  constructor(
    public code: string,
    message: string,
    public extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Annotation presets that tell the truth about the common kinds of tool. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
