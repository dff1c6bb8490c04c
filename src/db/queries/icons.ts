// A competitor's stored icon (engine/research/icon.ts), by org and competitor (the table's primary key):
// competitor_icons is a cache research fills, outside the event log.
import type { Exec } from "../client.ts";

export interface StoredIcon {
  contentType: string;
  data: Uint8Array;
  sourceUrl: string;
}

export async function competitorIcon(
  c: Exec,
  orgId: number,
  competitorId: number,
): Promise<StoredIcon | undefined> {
  const r = await c.execute({
    sql: "SELECT content_type, data, source_url FROM competitor_icons WHERE org_id = ? AND competitor_id = ?",
    args: [orgId, competitorId],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    contentType: String(row.content_type),
    data: new Uint8Array(row.data as ArrayBuffer),
    sourceUrl: String(row.source_url),
  };
}

/** Whether the competitor has an icon (a primary-key probe, no bytes read). */
export async function hasIcon(c: Exec, orgId: number, competitorId: number): Promise<boolean> {
  const r = await c.execute({
    sql: "SELECT 1 FROM competitor_icons WHERE org_id = ? AND competitor_id = ?",
    args: [orgId, competitorId],
  });
  return r.rows.length > 0;
}

/** Keeps a competitor's icon, replacing the one it had (in the writer's transaction the caller passes). */
export async function putCompetitorIcon(
  tx: Exec,
  orgId: number,
  competitorId: number,
  icon: StoredIcon,
  fetchedAt: string,
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO competitor_icons (org_id, competitor_id, content_type, data, source_url, fetched_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (org_id, competitor_id) DO UPDATE SET content_type = excluded.content_type,
              data = excluded.data, source_url = excluded.source_url, fetched_at = excluded.fetched_at`,
    args: [orgId, competitorId, icon.contentType, icon.data, icon.sourceUrl, fetchedAt],
  });
}
