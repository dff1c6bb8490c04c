// Slows down password guessing (docs/members.md): failed sign-ins are counted per account and per client
// address, with the injected clock: in memory on a local file (one instance), in the database when it is a
// server several instances share, so a guesser spread over them meets one count. The 5th failure of an account (20th of an address) locks
// it for 30 s, and each further failure doubles the window (1 min, 2 min … at most 15 min); while locked, sign-in
// answers 429 without checking the password. Counts are forgotten an hour after the last failure, and a
// successful sign-in clears the account's count.
import type { Clock } from "../clock.ts";
import { sharedByInstances } from "../db/client.ts";
import { clearFailures, type FailureStore, lockedUntil, recordFailure } from "../db/signinFailures.ts";
import type { Services } from "../services.ts";

export interface ThrottlePolicy {
  /** The failure that brings the first lock (30 s); each further failure doubles it. */
  lockAt: number;
  baseLockMs: number;
  maxLockMs: number;
  forgetAfterMs: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = {
  lockAt: 5,
  baseLockMs: 30_000,
  maxLockMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};
/** An address can be a whole office behind one NAT: more room, same curve. */
export const ADDRESS_POLICY: ThrottlePolicy = { ...ACCOUNT_POLICY, lockAt: 20 };

interface Entry {
  failures: number;
  lastFailure: number;
  lockedUntil: number;
}

const MAX_ENTRIES = 100_000;

/** One count of failures per key (an account, an address). */
export interface Throttle {
  /** Seconds until this key may try again, or 0 when it may try now. */
  retryAfter(key: string): Promise<number>;
  fail(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

export function throttleFor(s: Services, policy: ThrottlePolicy, scope: string): Throttle {
  if (!sharedByInstances(s.database.url)) return new MemoryThrottle(policy, s.clock);
  return new SharedThrottle(s.database, scope, policy, s.clock);
}

class MemoryThrottle implements Throttle {
  private entries = new Map<string, Entry>();
  private lastSweep = 0;

  constructor(
    private policy: ThrottlePolicy,
    private clock: Clock,
  ) {}

  async retryAfter(key: string): Promise<number> {
    const now = this.clock().getTime();
    const e = this.live(key, now);
    return e && e.lockedUntil > now ? Math.ceil((e.lockedUntil - now) / 1000) : 0;
  }

  async fail(key: string): Promise<void> {
    const now = this.clock().getTime();
    this.sweep(now);
    const e = this.live(key, now) ?? { failures: 0, lastFailure: now, lockedUntil: 0 };
    e.failures++;
    e.lastFailure = now;
    const over = e.failures - this.policy.lockAt + 1;
    if (over > 0)
      e.lockedUntil =
        now + Math.min(this.policy.baseLockMs * 2 ** Math.min(over - 1, 20), this.policy.maxLockMs);
    this.entries.delete(key);
    this.entries.set(key, e); // most recent last, so the oldest go first when full
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }

  async clear(key: string): Promise<void> {
    this.entries.delete(key);
  }

  private live(key: string, now: number): Entry | undefined {
    const e = this.entries.get(key);
    if (e && now - e.lastFailure > this.policy.forgetAfterMs && e.lockedUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, e] of this.entries)
      if (now - e.lastFailure > this.policy.forgetAfterMs && e.lockedUntil <= now) this.entries.delete(k);
  }
}

/** The same rule as MemoryThrottle, kept in `signin_failures`: a failure is one write batch (one round trip),
 * a check one primary-key read. */
class SharedThrottle implements Throttle {
  private lastSweep = 0;

  constructor(
    private client: FailureStore,
    private scope: string,
    private policy: ThrottlePolicy,
    private clock: Clock,
  ) {}

  async retryAfter(key: string): Promise<number> {
    const now = this.clock().getTime();
    const until = await lockedUntil(this.client, this.scope, key);
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  async fail(key: string): Promise<void> {
    const now = this.clock().getTime();
    const sweep = now - this.lastSweep >= 60_000;
    if (sweep) this.lastSweep = now;
    const p = this.policy;
    await recordFailure(this.client, this.scope, key, {
      now,
      forgetAfterMs: p.forgetAfterMs,
      lockAt: p.lockAt,
      baseLockMs: p.baseLockMs,
      maxLockMs: p.maxLockMs,
      sweep,
    });
  }

  async clear(key: string): Promise<void> {
    await clearFailures(this.client, this.scope, key);
  }
}

/** The two throttles sign-in consults: per account (normalized email) and per client address. */
export class SigninThrottle {
  readonly accounts: Throttle;
  readonly addresses: Throttle;
  constructor(s: Services) {
    this.accounts = throttleFor(s, ACCOUNT_POLICY, "signin_account");
    this.addresses = throttleFor(s, ADDRESS_POLICY, "signin_address");
  }

  async retryAfter(account: string, address: string): Promise<number> {
    const [a, b] = await Promise.all([this.accounts.retryAfter(account), this.addresses.retryAfter(address)]);
    return Math.max(a, b);
  }

  async fail(account: string, address: string): Promise<void> {
    await Promise.all([this.accounts.fail(account), this.addresses.fail(address)]);
  }

  async succeed(account: string): Promise<void> {
    await this.accounts.clear(account);
  }
}
