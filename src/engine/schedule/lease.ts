// The scheduler's lease (migration 0016, cycle_leases): one row per (workspace, due slot). Claiming is one
// atomic statement — insert, or take over a lease whose holder let it expire (crashed) while its cycle had not
// finished — so of several instances on one database exactly one runs each due cycle. Writes go through the
// event store's single writer (no events), so a local file database never meets SQLITE_BUSY.
import type { Tx } from "../../../events/store.ts";
import type { Services } from "../../services.ts";

export interface Lease {
  orgId: number;
  slot: string;
  holder: string;
}

function write<T>(s: Services, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return s.store.writeTables(({ tx }) => fn(tx));
}

/** Claims the lease of (org, slot) for `holder` until `now + ttlMs`. True when this holder has it now. */
export async function claimLease(s: Services, lease: Lease, now: Date, ttlMs: number): Promise<boolean> {
  return write(s, async (tx) => {
    const r = await tx.execute({
      sql: `INSERT INTO cycle_leases (org_id, slot, holder, claimed_at, expires_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (org_id, slot) DO UPDATE SET holder = excluded.holder, claimed_at = excluded.claimed_at,
              expires_at = excluded.expires_at, takeovers = cycle_leases.takeovers + 1
            WHERE cycle_leases.finished_at IS NULL AND cycle_leases.expires_at <= excluded.claimed_at
            RETURNING holder`,
      args: [
        lease.orgId,
        lease.slot,
        lease.holder,
        now.toISOString(),
        new Date(now.getTime() + ttlMs).toISOString(),
      ],
    });
    return r.rows.length === 1 && String(r.rows[0].holder) === lease.holder;
  });
}

/** Moves the lease's expiry on while its cycle runs. False when another holder took it over. */
export async function renewLease(s: Services, lease: Lease, now: Date, ttlMs: number): Promise<boolean> {
  return write(s, async (tx) => {
    const r = await tx.execute({
      sql: `UPDATE cycle_leases SET expires_at = ? WHERE org_id = ? AND slot = ? AND holder = ? AND finished_at IS NULL`,
      args: [new Date(now.getTime() + ttlMs).toISOString(), lease.orgId, lease.slot, lease.holder],
    });
    return r.rowsAffected === 1;
  });
}

/** Marks the slot's cycle done (also when it failed: the next slot tries again). */
export async function finishLease(
  s: Services,
  lease: Lease,
  now: Date,
  cycleId: number | null,
): Promise<void> {
  await write(s, async (tx) => {
    await tx.execute({
      sql: `UPDATE cycle_leases SET finished_at = ?, cycle_id = ? WHERE org_id = ? AND slot = ? AND holder = ?`,
      args: [now.toISOString(), cycleId, lease.orgId, lease.slot, lease.holder],
    });
  });
}

/** The lease rows of one slot per workspace: finished or held (for the scheduler's look-up). */
export async function leaseStates(
  s: Services,
  slots: { orgId: number; slot: string }[],
): Promise<Map<string, { finished: boolean; expiresAt: string; holder: string }>> {
  const out = new Map<string, { finished: boolean; expiresAt: string; holder: string }>();
  if (slots.length === 0) return out;
  // The current slots are few (one per cadence): look up by slot, keep the workspaces asked about.
  const keys = [...new Set(slots.map((x) => x.slot))];
  const r = await s.database.client.execute({
    sql: `SELECT org_id, slot, holder, expires_at, finished_at FROM cycle_leases
          WHERE slot IN (${keys.map(() => "?").join(", ")})`,
    args: keys,
  });
  for (const row of r.rows)
    out.set(`${row.org_id}|${row.slot}`, {
      finished: row.finished_at !== null,
      expiresAt: String(row.expires_at),
      holder: String(row.holder),
    });
  return out;
}

/** Drops lease rows older than `days` (they only matter while their slot is current). */
export async function pruneLeases(s: Services, now: Date, days = 30): Promise<void> {
  await write(s, async (tx) => {
    await tx.execute({
      sql: "DELETE FROM cycle_leases WHERE claimed_at < ?",
      args: [new Date(now.getTime() - days * 86_400_000).toISOString()],
    });
  });
}
