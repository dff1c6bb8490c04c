// One limit for the service: when several instances share one database server (sqld), a budget such as the read
// API's 600 requests a minute per address is the service's, not each instance's. The database keeps the count;
// an instance leases a block of a key's budget at a time (one write batch, one round trip) and spends it from
// memory, so most requests decide without leaving the process.
//
// The window slides a tenth at a time: the count of a key is the sum of the blocks granted in the current
// slice and the ten before it, so a unit counts for 60-66 s of a 60 s window (never more than the limit in any
// window). A block is spent only in the slice it was granted in. Blocks shrink as the budget runs out (at most
// a quarter of what is left, at least the request's cost), so what sits unspent on other instances when the
// budget is exhausted is a few units, and a client spread over every instance gets the whole limit.
// RateLimit-Remaining is the service's count as of this instance's last lease plus its unspent block: it can
// be stale by the blocks other instances leased since (a twentieth of the budget each at most).
//
// A lease that fails or takes over a second does not hold the request: it is decided by this instance's own
// exact window (RateLimiter), as a single instance would, and the lease still lands for the next one.
import type { Clock } from "../clock.ts";
import { sharedByInstances } from "../db/client.ts";
import { leaseRateSlice, type RateSliceStore } from "../db/rateSlices.ts";
import type { Services } from "../services.ts";
import { type Limiter, MINUTE_MS, type RateDecision, RateLimiter } from "./rateLimit.ts";

/** Slices per window. */
const SLICES = 10;
const LEASE_TIMEOUT_MS = 1000;
/** Lease attempts one request makes before deciding locally (others on this instance may spend each block). */
const ATTEMPTS = 4;

interface Held {
  slice: number;
  /** Units of this slice's blocks not spent yet. */
  left: number;
  /** The service's count over the window as of the last lease (units granted, spent or not). */
  used: number;
  /** The oldest slice of the window with units in it, as of the last lease. */
  oldest: number;
  /** The smallest cost a lease of this slice was refused for (Infinity: none was): nothing frees before the
   * slice ends, so a request of that cost or more need not ask again. */
  refusedAt: number;
  pending?: Promise<void>;
}

export class SharedRateLimiter implements Limiter {
  private held = new Map<string, Held>();
  private sliceMs: number;
  private block: number;
  private local: RateLimiter;
  private sweptSlice = 0;

  constructor(
    private client: RateSliceStore,
    /** Which budget (several limiters share the table). */
    private name: string,
    readonly limit: number,
    private clock: Clock,
    windowMs = MINUTE_MS,
  ) {
    this.sliceMs = windowMs / SLICES;
    this.block = Math.max(1, Math.ceil(limit / 20));
    this.local = new RateLimiter(limit, clock, windowMs);
  }

  take(key: string, cost = 1): RateDecision | Promise<RateDecision> {
    const now = this.clock().getTime();
    const h = this.held.get(key);
    if (h !== undefined && h.slice === Math.floor(now / this.sliceMs)) {
      if (h.left >= cost) {
        h.left -= cost;
        return this.allowed(h, now);
      }
      if (cost >= h.refusedAt && h.pending === undefined) return this.refused(h, now);
    }
    return this.leaseThenTake(key, cost);
  }

  private async leaseThenTake(key: string, cost: number): Promise<RateDecision> {
    for (let i = 0; i < ATTEMPTS; i++) {
      let h = this.held.get(key);
      if (h === undefined) {
        h = { slice: -1, left: 0, used: 0, oldest: 0, refusedAt: Number.POSITIVE_INFINITY };
        this.held.set(key, h);
      }
      const held = h;
      held.pending ??= this.lease(key, held, cost).finally(() => {
        held.pending = undefined;
      });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), LEASE_TIMEOUT_MS);
      });
      try {
        if ((await Promise.race([held.pending, late])) === "late") return this.local.take(key, cost);
      } catch (e) {
        console.error(
          JSON.stringify({ level: "warn", event: "rate_lease_failed", limiter: this.name, error: String(e) }),
        );
        return this.local.take(key, cost);
      } finally {
        clearTimeout(timer);
      }
      const now = this.clock().getTime();
      if (held.slice !== Math.floor(now / this.sliceMs)) continue;
      if (held.left >= cost) {
        held.left -= cost;
        return this.allowed(held, now);
      }
      if (cost >= held.refusedAt) return this.refused(held, now);
    }
    return this.local.take(key, cost);
  }

  /** Takes a block of the key's budget for the current slice: one write batch (one round trip). */
  private async lease(key: string, h: Held, cost: number): Promise<void> {
    const now = this.clock().getTime();
    const slice = Math.floor(now / this.sliceMs);
    const first = slice - SLICES;
    const sweep = this.sweptSlice !== slice;
    if (sweep) {
      // Slices out of every window go, once per slice per instance, with the lease that notices.
      this.sweptSlice = slice;
      this.forget(slice, key);
    }
    const row = await leaseRateSlice(this.client, {
      name: this.name,
      key,
      slice,
      first,
      limit: this.limit,
      cost,
      block: Math.max(cost, this.block),
      sweep,
    });
    if (h.slice !== slice) {
      h.slice = slice;
      h.left = 0;
      h.refusedAt = Number.POSITIVE_INFINITY;
    }
    h.left += row.granted;
    if (row.granted === 0) h.refusedAt = Math.min(h.refusedAt, cost);
    h.used = row.used;
    h.oldest = row.oldest ?? slice;
  }

  /** When the oldest counted slice leaves the window, in whole seconds from now. */
  private freesIn(h: Held, now: number): number {
    return Math.ceil(((h.oldest + SLICES + 1) * this.sliceMs - now) / 1000);
  }

  private allowed(h: Held, now: number): RateDecision {
    return {
      allowed: true,
      limit: this.limit,
      remaining: Math.max(0, this.limit - h.used) + h.left,
      resetSeconds: Math.max(0, this.freesIn(h, now)),
    };
  }

  private refused(h: Held, now: number): RateDecision {
    return {
      allowed: false,
      limit: this.limit,
      remaining: 0,
      resetSeconds: Math.max(1, this.freesIn(h, now)),
    };
  }

  /** Drops the keys whose blocks are of an earlier slice (but the one being leased). */
  private forget(slice: number, leasing: string): void {
    for (const [key, h] of this.held)
      if (h.slice < slice && h.pending === undefined && key !== leasing) this.held.delete(key);
  }
}

/** The limiter of one budget: shared through the database when it is a server other instances may use too,
 * this process's own exact window on a local file (one instance; no write per lease to contend with the
 * writer or to move the read cache's data version). */
export function limiterFor(s: Services, name: string, limit: number, windowMs = MINUTE_MS): Limiter {
  if (!sharedByInstances(s.database.url)) return new RateLimiter(limit, s.clock, windowMs);
  return new SharedRateLimiter(s.database, name, limit, s.clock, windowMs);
}
