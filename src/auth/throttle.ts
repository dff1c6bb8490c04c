// Slows down password guessing (docs/members.md): failed sign-ins are counted per account and per client
// address, in memory, with the injected clock. The 5th failure of an account (20th of an address) locks
// it for 30 s, and each further failure doubles the window (1 min, 2 min … at most 15 min); while locked, sign-in
// answers 429 without checking the password. Counts are forgotten an hour after the last failure, and a
// successful sign-in clears the account's count.
import type { Clock } from "../clock.ts";

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

export class Throttle {
  private entries = new Map<string, Entry>();
  private lastSweep = 0;

  constructor(
    private policy: ThrottlePolicy,
    private clock: Clock,
  ) {}

  /** Seconds until this key may try again, or 0 when it may try now. */
  retryAfter(key: string): number {
    const now = this.clock().getTime();
    const e = this.live(key, now);
    return e && e.lockedUntil > now ? Math.ceil((e.lockedUntil - now) / 1000) : 0;
  }

  fail(key: string): void {
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

  clear(key: string): void {
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

/** The two throttles sign-in consults: per account (normalized email) and per client address. */
export class SigninThrottle {
  readonly accounts: Throttle;
  readonly addresses: Throttle;
  constructor(clock: Clock) {
    this.accounts = new Throttle(ACCOUNT_POLICY, clock);
    this.addresses = new Throttle(ADDRESS_POLICY, clock);
  }

  retryAfter(account: string, address: string): number {
    return Math.max(this.accounts.retryAfter(account), this.addresses.retryAfter(address));
  }

  fail(account: string, address: string): void {
    this.accounts.fail(account);
    this.addresses.fail(address);
  }

  succeed(account: string): void {
    this.accounts.clear(account);
  }
}
