// robots.txt answers shared by every process on one database (robots_cache, an operational table); an expired
// row is replaced by the next answer. The rule that reads them is src/engine/fetch/robots.ts.
import type { Exec } from "./client.ts";

export interface CachedRobots {
  outcome: string;
  text: string;
  expiresAt: number;
}

/** The origin's answer while it holds (`now` in milliseconds since the epoch). */
export async function cachedRobots(db: Exec, origin: string, now: number): Promise<CachedRobots | undefined> {
  const r = await db.execute({
    sql: "SELECT outcome, text, expires_at FROM robots_cache WHERE origin = ? AND expires_at > ?",
    args: [origin, now],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return { outcome: String(row.outcome), text: String(row.text), expiresAt: Number(row.expires_at) };
}

export async function putRobots(
  tx: Exec,
  origin: string,
  record: CachedRobots,
  fetchedAt: string,
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO robots_cache (origin, outcome, text, fetched_at, expires_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (origin) DO UPDATE SET outcome = excluded.outcome, text = excluded.text,
            fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`,
    args: [origin, record.outcome, record.text, fetchedAt, record.expiresAt],
  });
}
