// What the web-archive history of a competitor found.
import type { Exec } from "../client.ts";

export interface ArchiveSignal {
  id: number;
  title: string;
  status: string;
  severity: string | null;
  firstSeenAt: string;
}

/** The visible signals the web-archive history found for a competitor, closed ones too, newest first. */
export async function archiveSignals(
  db: Exec,
  orgId: number,
  competitorId: number,
  limit: number,
): Promise<ArchiveSignal[]> {
  const r = await db.execute({
    sql: `SELECT g.id, g.title, g.status, g.severity, g.first_seen_at FROM archive_signals a
          JOIN signals g ON g.id = a.signal_id AND g.org_id = a.org_id
          WHERE a.org_id = ? AND a.competitor_id = ? AND g.visible = 1
          ORDER BY g.first_seen_at DESC, g.id DESC LIMIT ?`,
    args: [orgId, competitorId, limit],
  });
  return r.rows.map((x) => ({
    id: Number(x.id),
    title: String(x.title),
    status: String(x.status),
    severity: x.severity === null ? null : String(x.severity),
    firstSeenAt: String(x.first_seen_at),
  }));
}
