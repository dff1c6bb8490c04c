// The shared rate limits' slices (an operational table): a lease takes a block of a key's budget for the
// current slice in one write batch (one round trip). The rule that uses them is src/http/rateLeases.ts.
import type { Client } from "@libsql/client";

/** What a lease needs of the database: one write batch. */
export type RateSliceStore = Pick<Client, "batch">;

// A remote server gets JavaScript numbers as reals: the block is cast so it stays a whole number of units.
const LEASE_SQL = `UPDATE rate_slices SET granted = g.v, taken = taken + g.v
  FROM (SELECT CAST(CASE WHEN ?1 - COALESCE(SUM(taken), 0) < ?2 THEN 0
                    ELSE MAX(?2, MIN(?3, (?1 - COALESCE(SUM(taken), 0)) / 4)) END AS INTEGER) AS v
        FROM rate_slices WHERE name = ?4 AND key = ?5 AND slice >= ?6 AND slice <= ?7) AS g
  WHERE name = ?4 AND key = ?5 AND slice = ?7`;
const READ_SQL = `SELECT granted,
    (SELECT SUM(taken) FROM rate_slices WHERE name = ?1 AND key = ?2 AND slice >= ?3 AND slice <= ?4) AS used,
    (SELECT MIN(slice) FROM rate_slices WHERE name = ?1 AND key = ?2 AND slice >= ?3 AND slice <= ?4 AND taken > 0) AS oldest
  FROM rate_slices WHERE name = ?1 AND key = ?2 AND slice = ?4`;

export interface RateLease {
  name: string;
  key: string;
  /** The current slice, and the first of its window. */
  slice: number;
  first: number;
  limit: number;
  cost: number;
  /** The most a lease takes at once (at least `cost`). */
  block: number;
  /** Drop this limiter's slices older than the window too. */
  sweep: boolean;
}

/** Leases a block of the key's budget for the slice: what it granted (0: refused), the window's count and the
 * oldest slice with units in it (null: none). */
export async function leaseRateSlice(
  db: RateSliceStore,
  l: RateLease,
): Promise<{ granted: number; used: number; oldest: number | null }> {
  const statements = [
    {
      sql: "INSERT INTO rate_slices (name, key, slice, taken, granted) VALUES (?, ?, ?, 0, 0) ON CONFLICT DO NOTHING",
      args: [l.name, l.key, l.slice],
    },
    { sql: LEASE_SQL, args: [l.limit, l.cost, l.block, l.name, l.key, l.first, l.slice] },
    { sql: READ_SQL, args: [l.name, l.key, l.first, l.slice] },
  ];
  if (l.sweep)
    statements.push({ sql: "DELETE FROM rate_slices WHERE name = ? AND slice < ?", args: [l.name, l.first] });
  const rs = await db.batch(statements, "write");
  const row = rs[2].rows[0];
  return {
    granted: Number(row.granted),
    used: Number(row.used),
    oldest: row.oldest === null ? null : Number(row.oldest),
  };
}

/** Counts one render of the workspace on `day` (days since the epoch) unless it reached `cap`: the count
 * before this one, or undefined when refused. */
export async function takeDailyRender(
  db: Pick<Client, "execute">,
  orgId: number,
  day: number,
  cap: number,
): Promise<number | undefined> {
  const r = await db.execute({
    sql: `INSERT INTO rate_slices (name, key, slice, taken, granted) VALUES ('renders', ?1, ?2, 1, 0)
          ON CONFLICT (name, key, slice) DO UPDATE SET taken = taken + 1 WHERE taken < ?3
          RETURNING taken`,
    args: [String(orgId), day, cap],
  });
  const taken = r.rows[0]?.taken;
  return taken === undefined ? undefined : Number(taken) - 1;
}

/** Drops the render counts of days before `day`. */
export async function sweepDailyRenders(db: Pick<Client, "execute">, day: number): Promise<void> {
  await db.execute({ sql: "DELETE FROM rate_slices WHERE name = 'renders' AND slice < ?", args: [day] });
}
