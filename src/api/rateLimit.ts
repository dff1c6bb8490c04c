import type { Clock } from "../clock.ts";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window frees a slot (Retry-After / RateLimit-Reset). */
  resetSeconds: number;
}

/** The default window, a minute: the read API (per address), the tool endpoint (per credential, or per
 * address without one: src/mcp/endpoint.ts), OAuth registration and tokens, and the once-a-minute log of
 * malformed requests (src/api/clientLog.ts). The public forms use it over an hour (src/web/formLimit.ts). */
const MINUTE_MS = 60_000;

interface Window {
  times: number[];
  head: number;
}

/** Exact sliding window: per key (a client address, a credential), the times of accepted requests in the
 * last window (a minute unless given), oldest first. A request passes when fewer than `limit` fall in the
 * window; one that costs `cost` units (a JSON-RPC batch) passes when all of them fit. O(1) amortized per
 * unit. */
export class RateLimiter {
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
      w = { times: [], head: 0 };
      this.windows.set(key, w);
    }
    const cutoff = now - this.windowMs;
    while (w.head < w.times.length && w.times[w.head] <= cutoff) w.head++;
    if (w.head > 1024 && w.head * 2 > w.times.length) {
      w.times = w.times.slice(w.head);
      w.head = 0;
    }
    const count = w.times.length - w.head;
    if (count + cost > this.limit) {
      // The request passes once enough of the oldest accepted requests have left the window; a cost above
      // the whole limit never passes, and is told to wait a whole window.
      const frees = count + cost - this.limit;
      const at = frees <= count ? w.times[w.head + frees - 1] + this.windowMs : now + this.windowMs;
      const retry = Math.max(1, Math.ceil((at - now) / 1000));
      return { allowed: false, limit: this.limit, remaining: 0, resetSeconds: retry };
    }
    for (let i = 0; i < cost; i++) w.times.push(now);
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

/** The headers every limited response carries: RateLimit-* on success, and Retry-After too when refused. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    "ratelimit-limit": String(d.limit),
    "ratelimit-remaining": String(d.remaining),
    "ratelimit-reset": String(d.resetSeconds),
  };
  if (!d.allowed) h["retry-after"] = String(d.resetSeconds);
  return h;
}

/** How long a refused request waits before its 429 goes out, on the tool endpoint. Retry-After is at least
 * a second anyway, so a client that waits as told loses nothing; one that keeps sending over its budget gets
 * at most one refusal per connection per second, so a flood costs the server a few dozen cheap answers a
 * second instead of thousands (bench/mcp-flood.ts). */
export const REFUSAL_PAUSE_MS = 1000;

export function pauseBeforeRefusal(): Promise<void> {
  return Bun.sleep(REFUSAL_PAUSE_MS);
}
