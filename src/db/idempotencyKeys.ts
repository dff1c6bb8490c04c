// The idempotency claims of tool calls (an operational table: written here, not projected from events). The
// rule that uses them — claim, lease, wait, complete — is src/mcp/idempotency.ts.
import type { Exec } from "./client.ts";

/** A call's key within its workspace and tool. */
export interface KeyOf {
  orgId: number;
  tool: string;
  key: string;
}

const WHERE = "org_id = ? AND tool = ? AND key = ?";
const argsOf = (k: KeyOf) => [k.orgId, k.tool, k.key];

export interface StoredClaim {
  argsHash: string;
  result: string;
  createdAt: string;
  completed: boolean;
  leaseUntil: string | null;
}

/** The claim on a key, if any (its primary key). */
export async function readClaim(db: Exec, k: KeyOf): Promise<StoredClaim | undefined> {
  const r = await db.execute({
    sql: `SELECT args_hash, result, created_at, completed, lease_until FROM idempotency_keys WHERE ${WHERE}`,
    args: argsOf(k),
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    argsHash: String(row.args_hash),
    result: String(row.result),
    createdAt: String(row.created_at),
    completed: Number(row.completed) === 1,
    leaseUntil: row.lease_until === null ? null : String(row.lease_until),
  };
}

/** Drops the key's claim made at or before `expiredAt` (it no longer holds the key). */
export async function dropExpiredClaim(tx: Exec, k: KeyOf, expiredAt: string): Promise<void> {
  await tx.execute({
    sql: `DELETE FROM idempotency_keys WHERE ${WHERE} AND created_at <= ?`,
    args: [...argsOf(k), expiredAt],
  });
}

/** Claims the key for `owner` until `leaseUntil`; fails with a key conflict when another call holds it. */
export async function insertClaim(
  tx: Exec,
  k: KeyOf,
  c: { argsHash: string; at: string; owner: string; leaseUntil: string },
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO idempotency_keys (org_id, tool, key, args_hash, result, created_at, completed, owner, lease_until)
          VALUES (?, ?, ?, ?, 'null', ?, 0, ?, ?)`,
    args: [...argsOf(k), c.argsHash, c.at, c.owner, c.leaseUntil],
  });
}

/** Renews the owner's incomplete claim. */
export async function renewClaim(tx: Exec, k: KeyOf, owner: string, leaseUntil: string): Promise<void> {
  await tx.execute({
    sql: `UPDATE idempotency_keys SET lease_until = ? WHERE ${WHERE} AND owner = ? AND completed = 0`,
    args: [leaseUntil, ...argsOf(k), owner],
  });
}

/** Withdraws an incomplete claim (its call failed and recorded nothing). */
export async function withdrawClaim(tx: Exec, k: KeyOf): Promise<void> {
  await tx.execute({ sql: `DELETE FROM idempotency_keys WHERE ${WHERE} AND completed = 0`, args: argsOf(k) });
}

/** Completes the owner's claim with the call's result. */
export async function completeClaim(tx: Exec, k: KeyOf, owner: string, result: string): Promise<void> {
  await tx.execute({
    sql: `UPDATE idempotency_keys SET completed = 1, result = ?, lease_until = NULL WHERE ${WHERE} AND owner = ?`,
    args: [result, ...argsOf(k), owner],
  });
}

/** Records a completed call that claimed nothing first; fails with a key conflict when a duplicate's was first. */
export async function insertResult(
  tx: Exec,
  k: KeyOf,
  c: { argsHash: string; result: string; at: string },
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO idempotency_keys (org_id, tool, key, args_hash, result, created_at, completed)
          VALUES (?, ?, ?, ?, ?, ?, 1)`,
    args: [...argsOf(k), c.argsHash, c.result, c.at],
  });
}
