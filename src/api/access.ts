// The read API's gate: rate limit (every request counts), then the key, then the plan.
import type { Server } from "bun";
import type { ApiKeyResolver } from "../auth/apiKeys.ts";
import { presentedToken } from "../auth/apiKeys.ts";
import type { Principal } from "../auth/principal.ts";
import { Problem } from "../contract/problem.ts";
import { planOf } from "../domain/plans.ts";
import { type Limiter, rateLimitHeaders } from "./rateLimit.ts";

const ADDRESS = Symbol("rivals.clientAddress");
type Addressed = Request & { [ADDRESS]?: string };

/** The client's address: the first X-Forwarded-For hop behind a trusted proxy, else the socket's. Kept on
 * the request from its first look-up (the app looks it up as each request starts, so later callers may pass
 * no server), because the socket's address is gone once the connection has closed — as Bun closes it on a
 * malformed body. A property, not a WeakMap entry: one entry per request made every young-generation
 * collection walk thousands of them, and lengthened its pauses (docs/read-path.md, "The benchmark"). */
export function clientAddress(request: Request, server: Server<unknown> | null, trustProxy: boolean): string {
  const known = (request as Addressed)[ADDRESS];
  if (known !== undefined) return known;
  let address: string | undefined;
  if (trustProxy) address = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || undefined;
  address ??= server?.requestIP(request)?.address ?? "unknown";
  (request as Addressed)[ADDRESS] = address;
  return address;
}

export const BEARER_CHALLENGE = 'Bearer realm="rivals", error="invalid_token"';

export async function readAccess(
  request: Request,
  address: string,
  limiter: Limiter,
  keys: ApiKeyResolver,
  setHeaders: Record<string, string>,
): Promise<Principal> {
  let rate = limiter.take(address);
  // Awaited only when the decision needs a round trip (a lease of the shared budget): most do not.
  if (rate instanceof Promise) rate = await rate;
  if (!rate.allowed)
    throw new Problem(
      "rate_limited",
      `More than ${rate.limit} requests in one minute from this address.`,
      rateLimitHeaders(rate),
    );
  rateLimitHeaders(rate, setHeaders);
  const token = presentedToken(request.headers);
  const challenge = { "www-authenticate": BEARER_CHALLENGE };
  if (token === undefined) {
    throw new Problem("invalid_api_key", "No API key was sent.", {
      "www-authenticate": 'Bearer realm="rivals"',
    });
  }
  const principal = token ? await keys.resolve(token) : undefined;
  if (!principal)
    throw new Problem("invalid_api_key", "The API key is malformed, unknown or revoked.", challenge);
  if (!planOf(principal.plan).readApi) {
    throw new Problem(
      "paid_plan_required",
      `The workspace is on the ${planOf(principal.plan).label} plan, which does not include the API.`,
    );
  }
  return principal;
}
