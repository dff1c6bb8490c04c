// The one answer to every failure of every surface: problem details (src/contract/problem.ts), or for a
// browser outside /api/ the site's own 404 and 500 pages; what the client caused or what failed is logged
// through the client log, never shown.
import { Elysia } from "elysia";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { Problem, type ProblemCode, problemResponse } from "../contract/problem.ts";
import { recordStatus } from "./accessLog.ts";
import { clientAddress } from "./address.ts";
import { Answered } from "./answered.ts";
import { clientLogOf, isUnreadableBody } from "./clientLog.ts";
import { hstsFor } from "./requestId.ts";

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
}

/** The site's page for a browser: 404 for nothing there, 500 for a failure of ours. */
export type HtmlErrorPage = (request: Request, status: 404 | 500, requestId: string) => Promise<Response>;

/** The global error hook, registered once for the whole app. `s` is the running service (its client log is
 * the one every surface writes to). */
export function problemDetails(
  s: { config: Pick<Config, "baseUrl" | "trustProxy">; clock: Clock },
  htmlPage: HtmlErrorPage,
) {
  const base = s.config.baseUrl;
  const hsts = hstsFor(base);
  const log = clientLogOf(s);
  async function errorResponse({ code, error, request, path, set }: ErrorContext): Promise<Response> {
    // A request that matched no route never ran the request-id derive: its id is made here, for the body, the
    // header and the access log alike.
    const requestId = (set.headers["x-request-id"] as string | undefined) ?? crypto.randomUUID();
    set.headers["x-request-id"] = requestId;
    if (hsts) set.headers["strict-transport-security"] = hsts;
    const ctx = { baseUrl: base, instance: path, requestId };
    if (error instanceof Answered) return error.response;
    if (error instanceof Problem) return problemResponse(error.code, error.detail, ctx, error.headers);
    if (code === "VALIDATION") {
      const [c, detail] = validationProblem();
      return problemResponse(c, detail, ctx);
    }
    if (code === "NOT_FOUND") {
      if (wantsHtml(request)) return htmlPage(request, 404, requestId);
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
    const address = clientAddress(request, null, s.config.trustProxy);
    // A body that could not be parsed is the client's doing: a warning, at most one a minute per address
    // (http/clientLog.ts). Bun has usually answered it 400 and closed the connection already.
    if (code === "PARSE" && !isUnreadableBody(error)) {
      log.malformed(address, {
        request_id: requestId,
        method: request.method,
        path,
        reason: "the request body could not be parsed",
      });
      return problemResponse("invalid_request", "The request body could not be parsed.", ctx);
    }
    // So is one the client could not send whole; anything else is ours. Both are logged with the request id
    // (at most a line a minute per address), and the client is told nothing internal.
    if (log.caught(request, address, requestId, error) === "malformed")
      return problemResponse("invalid_request", "The request body could not be parsed.", ctx);
    if (wantsHtml(request)) return htmlPage(request, 500, requestId);
    return problemResponse("internal_error", "The server failed to handle this request.", ctx);
  }
  // Destructured, not passed on whole: Elysia reads a hook's parameters to learn what every handler must
  // prepare, and a context handed to another function could read anything (cookies, headers, query …).
  // No `server` here either: the client-address plugin (http/address.ts) has kept the address.
  return new Elysia({ name: "problem-details" }).onError(
    { as: "global" },
    async ({ code, error, request, path, set }) =>
      recordStatus(request, await errorResponse({ code, error, request, path, set })),
  );
}
