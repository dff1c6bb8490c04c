// The HTTP application: request ids, the one error hook, the read API and the site's fallbacks.
import { Elysia } from "elysia";
import { ApiKeyResolver } from "../auth/apiKeys.ts";
import { CredentialResolver } from "../auth/credentials.ts";
import { mcpEndpoint } from "../mcp/endpoint.ts";
import { oauthRoutes } from "../oauth/routes.ts";
import type { Services } from "../services.ts";
import { webPages } from "../web/pages.tsx";
import { sharePage } from "../web/share.tsx";
import { memberPages } from "../web/signin.tsx";
import { accessLog, recordStatus } from "./accessLog.ts";
import { healthRoute } from "./health.ts";
import { openApi } from "./openapi.ts";
import { PROBLEMS, Problem, type ProblemCode, problemResponse } from "./problem.ts";
import { RateLimiter } from "./rateLimit.ts";
import { readApi } from "./routes.ts";

/** Browsers get HTML; everything else (curl, API clients, fetch) gets problem+json. */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  return accept.includes("text/html") && !new URL(request.url).pathname.startsWith("/api/");
}

function htmlNotFound(): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Not found · Rivals</title></head><body><main><h1>Page not found</h1><p>There is nothing at this address. <a href="/">Go to the start page</a>.</p></main></body></html>`,
    { status: 404, headers: { "content-type": "text/html; charset=utf-8" } },
  );
}

/** Elysia validates only path parameters here (queries go through api/query.ts): a path value that is
 * not a valid id names no record, so it is 404 (DESIGN decisions). */
function validationProblem(): [ProblemCode, string] {
  return ["not_found", "No record with that id in this workspace."];
}

interface ErrorContext {
  code: unknown;
  error: unknown;
  request: Request;
  path: string;
  set: { headers: Record<string, unknown> };
}

export interface AppParts {
  limiter: RateLimiter;
  keys: ApiKeyResolver;
  credentials: CredentialResolver;
}

export function createApp(s: Services, extra: (app: Elysia) => Elysia = (a) => a) {
  const parts: AppParts = {
    limiter: new RateLimiter(s.config.rateLimitPerMinute, s.clock),
    keys: new ApiKeyResolver(s.database.client, s.clock),
    credentials: new CredentialResolver(),
  };
  parts.credentials.addResolver(parts.keys.asTokenResolver());
  const base = s.config.baseUrl;
  /** The one answer to every failure: problem details (or the HTML not-found page for a browser). */
  function errorResponse({ code, error, request, path, set }: ErrorContext): Response {
    // A request that matched no route never ran the derive below: its id is made here, for the body, the
    // header and the access log alike.
    const requestId = (set.headers["x-request-id"] as string | undefined) ?? crypto.randomUUID();
    set.headers["x-request-id"] = requestId;
    const ctx = { baseUrl: base, instance: path, requestId };
    if (error instanceof Problem) return problemResponse(error.code, error.detail, ctx, error.headers);
    if (code === "VALIDATION") {
      const [c, detail] = validationProblem();
      return problemResponse(c, detail, ctx);
    }
    if (code === "NOT_FOUND") {
      if (wantsHtml(request)) return htmlNotFound();
      // The read API is GET-only: another method on it is answered as "nothing here" (the spec's codes
      // have no 405), but says why and names the methods that are served.
      if (path.startsWith("/api/") && request.method !== "GET" && request.method !== "HEAD")
        return problemResponse(
          "not_found",
          `The read API answers GET only; nothing is served for ${request.method} ${path}.`,
          ctx,
          { allow: "GET, HEAD" },
        );
      return problemResponse("not_found", `No page or record at ${path}.`, ctx);
    }
    if (code === "PARSE")
      return problemResponse("invalid_request", "The request body could not be parsed.", ctx);
    // Anything else is ours: log it with the request id, tell the client nothing internal.
    console.error(
      JSON.stringify({
        level: "error",
        request_id: requestId,
        path,
        error: String((error as Error)?.stack ?? error),
      }),
    );
    return problemResponse("internal_error", "The server failed to handle this request.", ctx);
  }
  const app = new Elysia()
    .use(accessLog(s.config.accessLog, s.clock))
    .derive({ as: "global" }, ({ set }) => {
      const requestId = crypto.randomUUID();
      set.headers["x-request-id"] = requestId;
      return { requestId };
    })
    .onError({ as: "global" }, (c) => recordStatus(c.request, errorResponse(c)))
    .use(readApi(s, parts.limiter, parts.keys))
    .use(healthRoute(s))
    .use(openApi(s))
    .use(webPages(s))
    .use(memberPages(s))
    .use(mcpEndpoint(s, parts.credentials))
    .use(sharePage(s))
    // OAuth 2.1 authorization server; registers its access-token resolver on parts.credentials.
    .use(oauthRoutes(s, parts.credentials));
  return { app: extra(app as unknown as Elysia), parts };
}

export { PROBLEMS };
