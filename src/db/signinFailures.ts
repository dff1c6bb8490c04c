// Sign-in throttles' failure counts (an operational table): a failure is one write batch (one round trip), a
// check one primary-key read. The rule (when a key locks, for how long) is src/auth/throttle.ts.
import type { Client } from "@libsql/client";

/** What the throttle needs of the database: a statement, and one write batch. */
export type FailureStore = Pick<Client, "execute" | "batch">;

/** When the key's lock ends (milliseconds since the epoch; 0: never locked). */
export async function lockedUntil(db: FailureStore, scope: string, key: string): Promise<number> {
  const r = await db.execute({
    sql: "SELECT locked_until FROM signin_failures WHERE scope = ? AND key = ?",
    args: [scope, key],
  });
  return r.rows.length ? Number(r.rows[0].locked_until) : 0;
}

/** Counts a failure at `now` and locks the key from `lockAt` failures on, for `baseLockMs` doubled per further
 * failure up to `maxLockMs`; a count forgotten (`forgetAfterMs` after its last failure, and not locked) starts
 * again at one. With `sweep`, forgotten counts of every key go too. */
export async function recordFailure(
  db: FailureStore,
  scope: string,
  key: string,
  p: {
    now: number;
    forgetAfterMs: number;
    lockAt: number;
    baseLockMs: number;
    maxLockMs: number;
    sweep: boolean;
  },
): Promise<void> {
  const statements = [
    {
      sql: `INSERT INTO signin_failures (scope, key, failures, last_failure, locked_until) VALUES (?1, ?2, 1, ?3, 0)
            ON CONFLICT (scope, key) DO UPDATE SET
              failures = CASE WHEN ?3 - last_failure > ?4 AND locked_until <= ?3 THEN 1 ELSE failures + 1 END,
              last_failure = ?3`,
      args: [scope, key, p.now, p.forgetAfterMs],
    },
    {
      sql: `UPDATE signin_failures SET locked_until = ?3 + MIN(?5 * (1 << MIN(failures - ?4, 20)), ?6)
            WHERE scope = ?1 AND key = ?2 AND failures >= ?4`,
      args: [scope, key, p.now, p.lockAt, p.baseLockMs, p.maxLockMs],
    },
  ];
  if (p.sweep)
    statements.push({
      sql: "DELETE FROM signin_failures WHERE last_failure < ? AND locked_until <= ?",
      args: [p.now - p.forgetAfterMs, p.now],
    });
  await db.batch(statements, "write");
}

export async function clearFailures(db: FailureStore, scope: string, key: string): Promise<void> {
  await db.execute({ sql: "DELETE FROM signin_failures WHERE scope = ? AND key = ?", args: [scope, key] });
}
