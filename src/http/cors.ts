// The read API's CORS policy: browsers on the origins the operator lists (RIVALS_CORS_ORIGINS, default
// none) may call it cross-origin with an API key in a header; no other origin may. Keys travel in headers,
// never cookies, so credentials mode is not allowed. A preflight is answered 204 either way, with the
// Access-Control-Allow-* headers only for a listed origin: the browser refuses everything else itself
// (Fetch standard, "CORS-preflight fetch").
import { Elysia } from "elysia";

export const CORS_EXPOSED_HEADERS =
  "ETag, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate, X-Request-Id";
const ALLOWED_METHODS = "GET, HEAD";
const ALLOWED_HEADERS = "Authorization, X-API-Key, If-None-Match";
/** Seconds a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE = 600;

export class CorsPolicy {
  private allowed: Set<string>;

  constructor(origins: readonly string[]) {
    this.allowed = new Set(origins);
  }

  /** Adds the response headers of an actual request (any status) to `into`. Answers vary by Origin only
   * when some origin is allowed; with none, every response is the same for everyone. */
  actual(request: Request, into: Record<string, unknown>): void {
    if (this.allowed.size === 0) return;
    into.vary = "Origin";
    const origin = request.headers.get("origin");
    if (origin === null || !this.allowed.has(origin)) return;
    into["access-control-allow-origin"] = origin;
    into["access-control-expose-headers"] = CORS_EXPOSED_HEADERS;
  }

  /** The answer to a preflight (OPTIONS with Access-Control-Request-Method), or undefined for an OPTIONS
   * request that is not one. */
  preflight(request: Request): Response | undefined {
    const method = request.headers.get("access-control-request-method");
    const origin = request.headers.get("origin");
    if (method === null || origin === null) return undefined;
    const headers: Record<string, string> = { vary: "Origin", "cache-control": "no-store" };
    if (this.allowed.has(origin) && ALLOWED_METHODS.split(", ").includes(method.toUpperCase())) {
      headers["access-control-allow-origin"] = origin;
      headers["access-control-allow-methods"] = ALLOWED_METHODS;
      headers["access-control-allow-headers"] = ALLOWED_HEADERS;
      headers["access-control-max-age"] = String(PREFLIGHT_MAX_AGE);
    }
    return new Response(null, { status: 204, headers });
  }
}

/** The policy as a plugin for the routes after it: it answers preflights on its own `OPTIONS /*` route (not
 * counted against any rate limit, no key asked), hands any other OPTIONS request to `otherOptions`, and adds
 * the CORS headers of an actual request before anything else checks it, so refusals carry them too. */
export function cors(origins: readonly string[], otherOptions: (request: Request) => Response) {
  const policy = new CorsPolicy(origins);
  return new Elysia()
    .options("/*", ({ request }) => policy.preflight(request) ?? otherOptions(request))
    .onTransform({ as: "scoped" }, ({ request, set }) => {
      policy.actual(request, set.headers);
    });
}
