// What clients cause, in the log at a bounded rate. Every line a request can make the server write goes
// through here, keyed by the client's address, so nothing a client sends (authenticated or not) can make
// the log grow faster than:
//
// - `warn` "malformed_request": a request the server could not read — a malformed chunked body, an upload
//   cut off, a body that does not parse. At most one line per address per minute (Bun has already
//   answered such a request 400 and closed the connection when the application hears of it).
// - `error` "request_failed": a failure of ours while serving a request, with the stack. At most one line
//   per address per minute, so that a bug a client can trigger cannot flood the log either.
//
// A line carries the request id (the `X-Request-Id` the client got, when it got an answer) and how many
// lines of its kind were held back for that address since the last one (`suppressed`). The window is the
// read API's sliding-window limiter (src/http/rateLimit.ts) with a budget of one. The access log
// (RIVALS_ACCESS_LOG), one line per request by design, is the operator's choice and not limited.
import { Elysia } from "elysia";
import type { Clock } from "../clock.ts";
import { RateLimiter } from "./rateLimit.ts";

type Fields = Record<string, unknown>;

/** Why a body could not be read, as the log says it. */
const UNREADABLE =
  "the request body could not be read (malformed chunked encoding, or the upload was cut off)";

/** Addresses with held-back lines whose count is remembered; beyond it the counts restart (memory bound). */
const MAX_TRACKED = 10_000;

export class ClientLog {
  private limiter: RateLimiter;
  private suppressed = new Map<string, number>();

  constructor(private clock: Clock) {
    this.limiter = new RateLimiter(1, clock);
  }

  /** A request the server could not read. */
  malformed(
    address: string,
    fields: { request_id?: string; method?: string; path?: string; reason: string },
  ) {
    this.emit("warn", "malformed_request", address, fields);
  }

  /** An error a surface caught while serving a request, logged by the error hook's rules: a body the client
   * could not send whole is a `malformed` request (a warning), anything else a `failure` of ours. Says which,
   * for the surface's own answer (400 or 500). */
  caught(
    request: Request,
    address: string,
    requestId: string | undefined,
    error: unknown,
  ): "malformed" | "failure" {
    const path = new URL(request.url).pathname;
    if (isUnreadableBody(error)) {
      this.malformed(address, { request_id: requestId, method: request.method, path, reason: UNREADABLE });
      return "malformed";
    }
    this.failure(address, { request_id: requestId, path, error: describeError(error) });
    return "failure";
  }

  /** A failure of ours while serving a request (the caller answers 500). */
  failure(address: string, fields: Fields & { error: string }) {
    this.emit("error", "request_failed", address, fields);
  }

  /** Any line a client can cause, at most one a minute per event and key (an address, or what else bounds
   * it, such as a single sign-on issuer that cannot be reached). */
  emit(level: "warn" | "error", event: string, address: string, fields: Fields) {
    const key = `${event} ${address}`;
    if (!this.limiter.take(key).allowed) {
      if (this.suppressed.size >= MAX_TRACKED && !this.suppressed.has(key)) this.suppressed.clear();
      this.suppressed.set(key, (this.suppressed.get(key) ?? 0) + 1);
      return;
    }
    const held = this.suppressed.get(key);
    this.suppressed.delete(key);
    const line = JSON.stringify({
      level,
      time: this.clock().toISOString(),
      event,
      address,
      ...fields,
      ...(held ? { suppressed: held } : {}),
    });
    if (level === "warn") console.warn(line);
    else console.error(line);
  }
}

const logs = new WeakMap<object, ClientLog>();

/** The one client log of a running service (one per Services, like its read cache). */
export function clientLogOf(s: { clock: Clock }): ClientLog {
  let log = logs.get(s);
  if (!log) {
    log = new ClientLog(s.clock);
    logs.set(s, log);
  }
  return log;
}

/** The client log as `clientLog` on the context of every route after it (the root mounts it; a surface `.use`s
 * it too for its types, and gets the same log). */
export function clientLog(s: { clock: Clock }) {
  return new Elysia({ name: "client-log" }).decorate("clientLog", clientLogOf(s));
}

/** Whether reading the request body failed because of the client: Bun rejects the read with an
 * AbortError ("The connection was closed.") when the chunked encoding is malformed or the upload stops. */
export function isUnreadableBody(e: unknown): boolean {
  return e instanceof DOMException && e.name === "AbortError";
}

/** A description of an error for the log: its stack when it has one, never an empty string. */
export function describeError(e: unknown): string {
  const text = String((e as Error)?.stack || (e as Error)?.message || e);
  return text || `${(e as Error)?.name ?? typeof e} without a message`;
}
