// Every answer's identity: a fresh X-Request-Id (in the body of a problem, in the log lines it causes), and
// on an installation served over https, Strict-Transport-Security.
import { Elysia } from "elysia";

/** A year of https for this host (other hosts under the domain are not ours to bind); nothing over plain
 * http. */
export function hstsFor(baseUrl: string): string | undefined {
  return baseUrl.startsWith("https:") ? "max-age=31536000" : undefined;
}

/** Gives every request routed anywhere in the app its `requestId`. A request that matches no route never runs
 * it: the error hook (http/errors.ts) makes that one's id. */
export function requestIds(baseUrl: string) {
  const hsts = hstsFor(baseUrl);
  return new Elysia({ name: "request-id", seed: baseUrl }).derive({ as: "global" }, ({ set }) => {
    const requestId = crypto.randomUUID();
    set.headers["x-request-id"] = requestId;
    if (hsts) set.headers["strict-transport-security"] = hsts;
    return { requestId };
  });
}
