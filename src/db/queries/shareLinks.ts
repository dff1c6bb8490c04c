// A signal as a new share link of it reads it: whether the workspace shows it, and its current link's expiry.
import type { Exec } from "../client.ts";

/** Undefined when the workspace has no visible signal with this id; else its current link's expiry, if any. */
export async function shareableSignal(
  db: Exec,
  orgId: number,
  signalId: number,
): Promise<{ expiresAt: string | undefined } | undefined> {
  const r = await db.execute({
    sql: `SELECT (SELECT l.expires_at FROM share_links l WHERE l.signal_id = s.id AND l.org_id = s.org_id) AS expires_at
          FROM signals s WHERE s.id = ? AND s.org_id = ? AND s.visible = 1`,
    args: [signalId, orgId],
  });
  const row = r.rows[0];
  return row ? { expiresAt: row.expires_at === null ? undefined : String(row.expires_at) } : undefined;
}
