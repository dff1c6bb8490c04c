// Keyed records (a competitor, signal, digest or battlecard by its key) as the importer reads them.
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

/** The key of another digest of a workspace that uses this slug, if any. */
export async function digestKeyBySlug(db: Exec, orgId: number, slug: string, exceptKey: string) {
  const r = await db.execute({
    sql: "SELECT key FROM digests WHERE org_id = ? AND slug = ? AND key <> ?",
    args: [orgId, slug, exceptKey],
  });
  return r.rows[0] ? String(r.rows[0].key) : undefined;
}

/** The key of a competitor's battlecard under another key than this one, if any. */
export async function otherBattlecardKey(db: Exec, orgId: number, competitorId: number, exceptKey: string) {
  const r = await db.execute({
    sql: "SELECT key FROM battlecards WHERE org_id = ? AND competitor_id = ? AND key <> ?",
    args: [orgId, competitorId, exceptKey],
  });
  return r.rows[0] ? String(r.rows[0].key) : undefined;
}
