import type { Clock } from "../clock.ts";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window frees a slot (Retry-After / RateLimit-Reset). */
  resetSeconds: number;
}

/** The read API's window; the public forms use the same limiter over an hour (src/web/formLimit.ts). */
const MINUTE_MS = 60_000;

interface Window {
  times: number[];
  head: number;
}

/** Exact sliding window: per address, the times of accepted requests in the last window (a minute unless
 * given), oldest first. A request passes when fewer than `limit` fall in the window. O(1) amortized per
 * request. */
export class RateLimiter {
  private windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(
    private limit: number,
    private clock: Clock,
    private windowMs = MINUTE_MS,
  ) {}

  take(address: string): RateDecision {
    const now = this.clock().getTime();
    this.sweep(now);
    let w = this.windows.get(address);
    if (!w) {
      w = { times: [], head: 0 };
      this.windows.set(address, w);
    }
    const cutoff = now - this.windowMs;
    while (w.head < w.times.length && w.times[w.head] <= cutoff) w.head++;
    if (w.head > 1024 && w.head * 2 > w.times.length) {
      w.times = w.times.slice(w.head);
      w.head = 0;
    }
    const count = w.times.length - w.head;
    if (count >= this.limit) {
      const retry = Math.max(
        1,
        Math.ceil((w.times[w.head + count - this.limit] + this.windowMs - now) / 1000),
      );
      return { allowed: false, limit: this.limit, remaining: 0, resetSeconds: retry };
    }
    w.times.push(now);
    const oldest = w.times[w.head];
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - count - 1,
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
