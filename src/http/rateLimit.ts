import { Elysia } from "elysia";
import type { Clock } from "../clock.ts";
import { Problem } from "../contract/problem.ts";
import { clientAddress } from "./address.ts";
import { Answered } from "./answered.ts";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window frees a slot (Retry-After / RateLimit-Reset). */
  resetSeconds: number;
}

/** The default window, a minute: the read API (per address), the tool endpoint (per credential, or per
 * address without one: src/mcp/endpoint.ts), OAuth registration and tokens, and the once-a-minute log of
 * malformed requests (src/http/clientLog.ts). The public forms use it over an hour (src/web/formLimit.ts). */
export const MINUTE_MS = 60_000;

/** A budget per key: the exact in-process window below, or the service-wide one of src/http/rateLeases.ts
 * (`limiterFor` picks). A decision is synchronous when it needs no round trip. */
export interface Limiter {
  take(key: string, cost?: number): RateDecision | Promise<RateDecision>;
}

/** The accepted requests of one key in the window, oldest first, as runs: `times[i]` accepted `counts[i]`
 * units. Requests of the same millisecond share a run, so a key's memory is bounded by the window's length
 * in milliseconds, not by its request count (a limit set out of reach, as bench/read-api.ts does, would
 * otherwise keep one number per request of the last minute). */
interface Window {
  times: number[];
  counts: number[];
  head: number;
  /** Units in the window: the sum of counts[head..]. */
  total: number;
}

/** Exact sliding window: per key (a client address, a credential), the accepted requests of the last window
 * (a minute unless given). A request passes when fewer than `limit` fall in the window; one that costs `cost`
 * units (a JSON-RPC batch) passes when all of them fit. O(1) amortized per request; a refusal walks at most
 * the window's runs to say when a slot frees. */
export class RateLimiter implements Limiter {
  private windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(
    private limit: number,
    private clock: Clock,
    private windowMs = MINUTE_MS,
  ) {}

  take(key: string, cost = 1): RateDecision {
    const now = this.clock().getTime();
    this.sweep(now);
    let w = this.windows.get(key);
    if (!w) {
      w = { times: [], counts: [], head: 0, total: 0 };
      this.windows.set(key, w);
    }
    const cutoff = now - this.windowMs;
    while (w.head < w.times.length && w.times[w.head] <= cutoff) w.total -= w.counts[w.head++];
    if (w.head > 1024 && w.head * 2 > w.times.length) {
      w.times = w.times.slice(w.head);
      w.counts = w.counts.slice(w.head);
      w.head = 0;
    }
    const count = w.total;
    if (count + cost > this.limit) {
      // The request passes once enough of the oldest accepted units have left the window; a cost above the
      // whole limit never passes, and is told to wait a whole window.
      const frees = count + cost - this.limit;
      let at = now + this.windowMs;
      if (frees <= count) {
        let left = frees;
        let i = w.head;
        while (left > w.counts[i]) left -= w.counts[i++];
        at = w.times[i] + this.windowMs;
      }
      const retry = Math.max(1, Math.ceil((at - now) / 1000));
      return { allowed: false, limit: this.limit, remaining: 0, resetSeconds: retry };
    }
    const last = w.times.length - 1;
    if (last >= w.head && w.times[last] === now) w.counts[last] += cost;
    else {
      w.times.push(now);
      w.counts.push(cost);
    }
    w.total += cost;
    const oldest = w.times[w.head];
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - count - cost,
      resetSeconds: Math.max(0, Math.ceil((oldest + this.windowMs - now) / 1000)),
    };
  }

  /** Drops addresses idle for a whole window, at most once a window. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [addr, w] of this.windows) {
      if (w.times.length === 0 || w.times[w.times.length - 1] <= now - this.windowMs)
        this.windows.delete(addr);
    }
  }
}

/** The headers every limited response carries: RateLimit-* on success, and Retry-After too when refused.
 * Written into `into` when given (the read API's `set.headers`, with no object made per request to copy). */
export function rateLimitHeaders(d: RateDecision, into: Record<string, string> = {}): Record<string, string> {
  into["ratelimit-limit"] = String(d.limit);
  into["ratelimit-remaining"] = String(d.remaining);
  into["ratelimit-reset"] = String(d.resetSeconds);
  if (!d.allowed) into["retry-after"] = String(d.resetSeconds);
  return into;
}

/** How long a refused request waits before its 429 goes out, on the tool endpoint. Retry-After is at least
 * a second anyway, so a client that waits as told loses nothing; one that keeps sending over its budget gets
 * at most one refusal per connection per second, so a flood costs the server a few dozen cheap answers a
 * second instead of thousands (bench/mcp-flood.ts). */
export const REFUSAL_PAUSE_MS = 1000;

export function pauseBeforeRefusal(): Promise<void> {
  return Bun.sleep(REFUSAL_PAUSE_MS);
}

/** What a limited surface says about whose budget a request spends and how it is refused, when not as the read
 * API does (the client's address; problem details `rate_limited`). */
export interface RateLimitOptions {
  /** Whose budget a request spends, given the client's address (the tool endpoint: a credential's). */
  key?: (request: Request, address: string) => string | Promise<string>;
  /** The refusal in the surface's own format (an OAuth error, a JSON-RPC error), answered as it is. */
  refuse?: (d: RateDecision, request: Request) => Response | Promise<Response>;
}

/** Every request to the routes after it counts against `limiter` (a budget a minute), keyed by the client's
 * address unless `key` says otherwise: over the budget it is refused 429 (problem details `rate_limited` with
 * Retry-After, or the surface's own `refuse`), within it the answer carries the RateLimit-* headers. Runs as the
 * request is transformed, so it counts before anything is checked (a credential, a body). */
export function rateLimit(limiter: Limiter, trustProxy: boolean, options: RateLimitOptions = {}) {
  const { key, refuse } = options;
  // The address as the client-address plugin kept it (http/address.ts), not `server` from the context:
  // Elysia would define a getter on every request's context for a hook that asks for it.
  return new Elysia().onTransform({ as: "scoped" }, async ({ request, set }) => {
    const address = clientAddress(request, null, trustProxy);
    let rate = limiter.take(key ? await key(request, address) : address);
    // Awaited only when the decision needs a round trip (a lease of the shared budget): most do not.
    if (rate instanceof Promise) rate = await rate;
    if (!rate.allowed) {
      if (refuse) throw new Answered(await refuse(rate, request));
      throw new Problem(
        "rate_limited",
        `More than ${rate.limit} requests in one minute from this address.`,
        rateLimitHeaders(rate),
      );
    }
    rateLimitHeaders(rate, set.headers as Record<string, string>);
  });
}
