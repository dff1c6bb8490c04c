// The HTTP application: request ids, the one error hook, the read API and the site's fallbacks.

import type { Server } from "bun";
import { Elysia } from "elysia";
import { ApiKeyResolver } from "../auth/apiKeys.ts";
import { CredentialResolver } from "../auth/credentials.ts";
import { PROBLEMS, Problem, type ProblemCode, problemResponse } from "../contract/problem.ts";
import { mcpEndpoint } from "../mcp/endpoint.ts";
import { oauthRoutes } from "../oauth/routes.ts";
import type { Services } from "../services.ts";
import { htmlErrorPage } from "../web/errorPages.tsx";
import { webPages } from "../web/pages.tsx";
import { sharePage } from "../web/share.tsx";
import { memberPages } from "../web/signin.tsx";
import { clientAddress } from "./access.ts";
import { accessLog, recordStatus } from "./accessLog.ts";
import { clientLogOf, describeError, isUnreadableBody } from "./clientLog.ts";
import { compression } from "./compression.ts";
import { healthRoute } from "./health.ts";
import { openApi } from "./openapi.ts";
import { limiterFor } from "./rateLeases.ts";
import type { Limiter } from "./rateLimit.ts";
import { readApi } from "./routes.ts";

/** Browsers get HTML; everything else (curl, API clients, fetch) gets problem+json. */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  return accept.includes("text/html") && !new URL(request.url).pathname.startsWith("/api/");
}

/** Elysia validates only path parameters here (queries go through api/query.ts): a path value that is
 * not a valid id names no record, so it is 404 (docs/decisions.md). */
function validationProblem(): [ProblemCode, string] {
  return ["not_found", "No record with that id in this workspace."];
}

interface ErrorContext {
  code: unknown;
  error: unknown;
  request: Request;
  path: string;
  set: { headers: Record<string, unknown> };
  server?: Server<unknown> | null;
}

export interface AppParts {
  limiter: Limiter;
  keys: ApiKeyResolver;
  credentials: CredentialResolver;
}

/** Compiles the handlers of the routes under `prefix` now, instead of at their first request. Elysia builds each
 * handler to prepare only what the hooks and handlers it knows of read (cookies, the headers as an object,
 * the parsed query …), and it compiles lazily, with what the whole application reads by then: the sign-in
 * pages' cookies included. Compiled here, before the pages are added, the read API's handlers skip that work
 * (bench/read-api.ts, docs/read-path.md). */
function compileNow(app: { routes: { path: string }[] }, prefix: string): void {
  for (const route of app.routes)
    if (route.path.startsWith(prefix)) (route as { compile?: () => unknown }).compile?.();
}

export function createApp(s: Services, extra: (app: Elysia) => Elysia = (a) => a) {
  const parts: AppParts = {
    limiter: limiterFor(s, "read_api", s.config.rateLimitPerMinute),
    keys: new ApiKeyResolver(s.database.client, s.clock),
    credentials: new CredentialResolver(),
  };
  parts.credentials.addResolver(parts.keys.asTokenResolver());
  const base = s.config.baseUrl;
  // An installation served over https tells browsers to use nothing else (a year; other hosts under the
  // domain are not ours to bind). Plain http answers without it.
  const hsts = base.startsWith("https:") ? "max-age=31536000" : undefined;
  /** The one answer to every failure: problem details, or for a browser outside /api/ the HTML 404 and 500
   * pages in the site's layout (web/errorPages.tsx). */
  async function errorResponse({ code, error, request, path, set, server }: ErrorContext): Promise<Response> {
    // A request that matched no route never ran the derive below: its id is made here, for the body, the
    // header and the access log alike.
    const requestId = (set.headers["x-request-id"] as string | undefined) ?? crypto.randomUUID();
    set.headers["x-request-id"] = requestId;
    if (hsts) set.headers["strict-transport-security"] = hsts;
    const ctx = { baseUrl: base, instance: path, requestId };
    if (error instanceof Problem) return problemResponse(error.code, error.detail, ctx, error.headers);
    if (code === "VALIDATION") {
      const [c, detail] = validationProblem();
      return problemResponse(c, detail, ctx);
    }
    if (code === "NOT_FOUND") {
      if (wantsHtml(request)) return htmlErrorPage(s, request, 404, requestId);
      // The read API is GET-only: another method on it is answered as "nothing here" (the read API's
      // problem codes have no 405), but says why and names the methods that are served.
      if (path.startsWith("/api/") && request.method !== "GET" && request.method !== "HEAD")
        return problemResponse(
          "not_found",
          `The read API answers GET only; nothing is served for ${request.method} ${path}.`,
          ctx,
          { allow: "GET, HEAD" },
        );
      return problemResponse("not_found", `No page or record at ${path}.`, ctx);
    }
    const address = clientAddress(request, server ?? null, s.config.trustProxy);
    // A body that could not be read or parsed is the client's doing: a warning, at most one a minute per
    // address (api/clientLog.ts). Bun has usually answered it 400 and closed the connection already.
    if (code === "PARSE" || isUnreadableBody(error)) {
      clientLogOf(s).malformed(address, {
        request_id: requestId,
        method: request.method,
        path,
        reason: isUnreadableBody(error)
          ? "the request body could not be read (malformed chunked encoding, or the upload was cut off)"
          : "the request body could not be parsed",
      });
      return problemResponse("invalid_request", "The request body could not be parsed.", ctx);
    }
    // Anything else is ours: log it with the request id (at most one a minute per address), tell the
    // client nothing internal.
    clientLogOf(s).failure(address, { request_id: requestId, path, error: describeError(error) });
    if (wantsHtml(request)) return htmlErrorPage(s, request, 500, requestId);
    return problemResponse("internal_error", "The server failed to handle this request.", ctx);
  }
  const app = new Elysia()
    // The client's address while the connection is surely open (api/access.ts keeps it for the request).
    .onRequest(({ request }) => {
      clientAddress(request, app.server, s.config.trustProxy);
    })
    .use(accessLog(s.config.accessLog, s.clock))
    .use(compression())
    .derive({ as: "global" }, ({ set }) => {
      const requestId = crypto.randomUUID();
      set.headers["x-request-id"] = requestId;
      if (hsts) set.headers["strict-transport-security"] = hsts;
      return { requestId };
    })
    // Destructured, not passed on whole: Elysia reads a hook's parameters to learn what every handler must
    // prepare, and a context handed to another function could read anything (cookies, headers, query …).
    // No `server` here either (see api/routes.ts): the onRequest hook above has kept the address.
    .onError({ as: "global" }, async ({ code, error, request, path, set }) =>
      recordStatus(request, await errorResponse({ code, error, request, path, set })),
    )
    .use(readApi(s, parts.limiter, parts.keys));
  compileNow(app, "/api/v1/");
  app
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
