// The scheduler's lease (migration 0016, cycle_leases): one row per (workspace, due slot). Claiming is one
// atomic statement — insert, or take over a lease whose holder let it expire (crashed) while its cycle had not
// finished — so of several instances on one database exactly one runs each due cycle. Writes go through the
// event store's single writer (no events), so a local file database never meets SQLITE_BUSY.
import {
  claimCycleLease,
  cycleLeasesOfSlots,
  deleteLeasesBefore,
  finishCycleLease,
  renewCycleLease,
} from "../../db/cycleLeases.ts";
import type { Services } from "../../services.ts";

export interface Lease {
  orgId: number;
  slot: string;
  holder: string;
}

const iso = (now: Date, plusMs = 0) => new Date(now.getTime() + plusMs).toISOString();

/** Claims the lease of (org, slot) for `holder` until `now + ttlMs`. True when this holder has it now. */
export function claimLease(s: Services, lease: Lease, now: Date, ttlMs: number): Promise<boolean> {
  return s.store.writeTables(({ tx }) =>
    claimCycleLease(tx, { ...lease, claimedAt: iso(now), expiresAt: iso(now, ttlMs) }),
  );
}

/** Moves the lease's expiry on while its cycle runs. False when another holder took it over. */
export function renewLease(s: Services, lease: Lease, now: Date, ttlMs: number): Promise<boolean> {
  return s.store.writeTables(({ tx }) => renewCycleLease(tx, { ...lease, expiresAt: iso(now, ttlMs) }));
}

/** Marks the slot's cycle done (also when it failed: the next slot tries again). */
export async function finishLease(
  s: Services,
  lease: Lease,
  now: Date,
  cycleId: number | null,
): Promise<void> {
  await s.store.writeTables(({ tx }) => finishCycleLease(tx, { ...lease, finishedAt: iso(now), cycleId }));
}

/** The lease rows of one slot per workspace: finished or held (for the scheduler's look-up). */
export async function leaseStates(
  s: Services,
  slots: { orgId: number; slot: string }[],
): Promise<Map<string, { finished: boolean; expiresAt: string; holder: string }>> {
  const out = new Map<string, { finished: boolean; expiresAt: string; holder: string }>();
  // The current slots are few (one per cadence): look up by slot, keep the workspaces asked about.
  for (const l of await cycleLeasesOfSlots(s.database, [...new Set(slots.map((x) => x.slot))]))
    out.set(`${l.orgId}|${l.slot}`, { finished: l.finished, expiresAt: l.expiresAt, holder: l.holder });
  return out;
}

/** Drops lease rows older than `days` (they only matter while their slot is current). */
export async function pruneLeases(s: Services, now: Date, days = 30): Promise<void> {
  await s.store.writeTables(({ tx }) => deleteLeasesBefore(tx, iso(now, -days * 86_400_000)));
}
