// RFC 9457 problem details: the one place that builds every 4xx/5xx body of the REST API.
import { cut, PROBLEM_TEXT, TEXT } from "../domain/limits.ts";

export const PROBLEMS = {
  invalid_request: {
    status: 400,
    title: "Invalid request",
    hint: "Correct the parameter named in detail and send the request again.",
  },
  invalid_api_key: {
    status: 401,
    title: "API key missing or not valid",
    hint: "Send a valid API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'. Keys are created under Settings > Integrations.",
  },
  paid_plan_required: {
    status: 402,
    title: "Paid plan required",
    hint: "Upgrade the workspace to a paid plan to use the API; see the pricing page.",
  },
  forbidden: { status: 403, title: "Forbidden", hint: "Use a credential that is allowed to do this." },
  not_found: {
    status: 404,
    title: "Not found",
    hint: "Check the path and the id; list endpoints show what this workspace can read.",
  },
  unprocessable_content: {
    status: 422,
    title: "Unprocessable content",
    hint: "Correct the request content and send it again.",
  },
  rate_limited: {
    status: 429,
    title: "Too many requests",
    hint: "Wait the number of seconds in Retry-After, then retry; keep under 600 requests per minute.",
  },
  internal_error: {
    status: 500,
    title: "Internal error",
    hint: "Retry later; if it persists, contact support quoting request_id.",
  },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;
export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

/** Thrown anywhere in a request; the error hook turns it into the response. */
export class Problem extends Error {
  constructor(
    public code: ProblemCode,
    public detail: string,
    public headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export interface ProblemContext {
  baseUrl: string;
  instance?: string;
  requestId?: string;
}

export function problemBody(code: ProblemCode, detail: string, ctx: ProblemContext) {
  const p = PROBLEMS[code];
  // Held to the sizes the OpenAPI document states: a detail may quote what the client sent.
  const said = cut(detail, PROBLEM_TEXT);
  return {
    type: `${ctx.baseUrl}/developers#errors-${code}`,
    title: p.title,
    status: p.status,
    detail: said,
    code,
    hint: p.hint,
    ...(ctx.instance ? { instance: cut(ctx.instance, TEXT.url) } : {}),
    ...(ctx.requestId ? { request_id: ctx.requestId } : {}),
    error: said,
  };
}

export function problemResponse(
  code: ProblemCode,
  detail: string,
  ctx: ProblemContext,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(problemBody(code, detail, ctx)), {
    status: PROBLEMS[code].status,
    headers: {
      "content-type": "application/problem+json",
      "cache-control": "no-store",
      ...(ctx.requestId ? { "x-request-id": ctx.requestId } : {}),
      ...headers,
    },
  });
}
