// Claims on a piece of work in an operational table of the form (key, holder, expires_at), shared by every
// instance: one holder at a time; a claim that has expired may be taken by another.
import type { Exec } from "./client.ts";

/** The claim tables and their key column. */
const TABLES = {
  free_brief_claims: "key",
  delivery_claims: "delivery_id",
  maintenance_claims: "task",
} as const;
export type ClaimTable = keyof typeof TABLES;

/** Claims `key` for `holder` until `until`, unless another holder's claim holds at `now`; with `renew`, the
 * holder's own claim is extended as well. */
export async function claim(
  db: Exec,
  table: ClaimTable,
  key: string | number,
  holder: string,
  until: string,
  now: string,
  renew = false,
): Promise<boolean> {
  const k = TABLES[table];
  const r = await db.execute({
    sql: `INSERT INTO ${table} (${k}, holder, expires_at) VALUES (?, ?, ?)
          ON CONFLICT (${k}) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE ${table}.expires_at < ?${renew ? ` OR ${table}.holder = ?` : ""}`,
    args: renew ? [key, holder, until, now, holder] : [key, holder, until, now],
  });
  return r.rowsAffected > 0;
}

/** Gives up `holder`'s claim on `key`. */
export async function release(
  db: Exec,
  table: ClaimTable,
  key: string | number,
  holder: string,
): Promise<void> {
  await db.execute({
    sql: `DELETE FROM ${table} WHERE ${TABLES[table]} = ? AND holder = ?`,
    args: [key, holder],
  });
}
