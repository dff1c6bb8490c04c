// A keyed record (a competitor, signal, digest or battlecard by its key) as the deciders read it.
import type { Exec } from "../client.ts";

/** The id and current record of a keyed record in one org, if any (served by the table's (org_id, key) index). */
export async function keyedRecord<R>(
  db: Exec,
  table: "competitors" | "signals" | "digests" | "battlecards",
  orgId: number,
  key: string,
): Promise<{ id: number; state: R } | undefined> {
  const r = await db.execute({
    sql: `SELECT id, state FROM ${table} WHERE org_id = ? AND key = ?`,
    args: [orgId, key],
  });
  const row = r.rows[0];
  return row ? { id: Number(row.id), state: JSON.parse(String(row.state)) as R } : undefined;
}
