// The access log (RIVALS_ACCESS_LOG=1): one JSON line per request on stdout, after the response is sent.
//
// It names the path without its query string, because a query can carry a secret (the single sign-on
// callback's authorization code); credentials travel in headers, which are never logged. The status of an
// error response is recorded by the error hook (`recordStatus`), since the after-response hook of Elysia
// does not see it.
import { Elysia } from "elysia";
import type { Clock } from "../clock.ts";

// Kept on the request itself, not in WeakMaps: an entry per request made every young-generation collection
// walk thousands of them (see http/address.ts).
const STARTED = Symbol("rivals.started");
const STATUS = Symbol("rivals.status");
type Logged = Request & { [STARTED]?: number; [STATUS]?: number };

/** The status the error hook answered with. */
export function recordStatus(request: Request, response: Response): Response {
  (request as Logged)[STATUS] = response.status;
  return response;
}

function logRequest(
  clock: Clock,
  c: { request: Request; path: string; set: { status?: number | string }; responseValue?: unknown },
  requestId: string | undefined,
): void {
  const start = (c.request as Logged)[STARTED];
  const status =
    (c.request as Logged)[STATUS] ??
    (c.responseValue instanceof Response ? c.responseValue.status : Number(c.set.status ?? 200));
  console.log(
    JSON.stringify({
      time: clock().toISOString(),
      level: "info",
      method: c.request.method,
      path: c.path,
      status,
      ms: start === undefined ? undefined : Math.round((performance.now() - start) * 10) / 10,
      request_id: requestId,
    }),
  );
}

/** The hooks that time and log every request; none when the log is off. Used before any route. */
export function accessLog(enabled: boolean, clock: Clock) {
  const hooks = new Elysia();
  if (!enabled) return hooks;
  return hooks
    .onRequest(({ request }) => {
      (request as Logged)[STARTED] = performance.now();
    })
    .onAfterResponse({ as: "global" }, (c) =>
      // The read API moves the request id out of set.headers into its Response (api/dataResponse.ts).
      logRequest(
        clock,
        c,
        (c as { requestId?: string }).requestId ?? (c.set.headers["x-request-id"] as string | undefined),
      ),
    );
}
