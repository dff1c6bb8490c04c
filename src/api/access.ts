// The read API's key: after the rate limit (http/rateLimit.ts), the API key and then the plan.
import { Elysia } from "elysia";
import type { ApiKeyResolver } from "../auth/apiKeys.ts";
import { presentedToken } from "../auth/apiKeys.ts";
import type { Principal } from "../auth/principal.ts";
import { Problem } from "../contract/problem.ts";
import { planOf } from "../domain/plans.ts";

export const BEARER_CHALLENGE = 'Bearer realm="rivals", error="invalid_token"';

/** The workspace a request's key reads as, or a problem: no key, an unknown or revoked one, or a plan
 * without the API. */
export async function keyPrincipal(request: Request, keys: ApiKeyResolver): Promise<Principal> {
  const token = presentedToken(request.headers);
  if (token === undefined) {
    throw new Problem("invalid_api_key", "No API key was sent.", {
      "www-authenticate": 'Bearer realm="rivals"',
    });
  }
  const principal = token ? await keys.resolve(token) : undefined;
  if (!principal)
    throw new Problem("invalid_api_key", "The API key is malformed, unknown or revoked.", {
      "www-authenticate": BEARER_CHALLENGE,
    });
  if (!planOf(principal.plan).readApi) {
    throw new Problem(
      "paid_plan_required",
      `The workspace is on the ${planOf(principal.plan).label} plan, which does not include the API.`,
    );
  }
  return principal;
}

/** Gives every route after it the caller's `principal`. */
export function keyAccess(keys: ApiKeyResolver) {
  return new Elysia().derive({ as: "scoped" }, async ({ request }) => ({
    principal: await keyPrincipal(request, keys),
  }));
}
