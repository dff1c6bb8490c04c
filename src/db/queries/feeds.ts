// Atom feeds: the feed a token opens (by its digest) and a workspace's feeds for the integrations page.
import type { Exec } from "../client.ts";

export interface FeedTarget {
  id: number;
  orgId: number;
  orgName: string;
  competitorId?: number;
  competitorName?: string;
}

/** The live feed whose token has this SHA-256 digest. */
export async function feedByDigest(db: Exec, digest: string): Promise<FeedTarget | undefined> {
  const r = await db.execute({
    sql: `SELECT f.id, f.org_id, o.name AS org_name, f.competitor_id, c.name AS competitor_name
          FROM feeds f JOIN orgs o ON o.id = f.org_id
          LEFT JOIN competitors c ON c.id = f.competitor_id AND c.org_id = f.org_id
          WHERE f.token_hash = ? AND f.revoked_at IS NULL`,
    args: [digest],
  });
  const x = r.rows[0];
  if (!x) return undefined;
  return {
    id: Number(x.id),
    orgId: Number(x.org_id),
    orgName: String(x.org_name),
    ...(x.competitor_id !== null ? { competitorId: Number(x.competitor_id) } : {}),
    ...(x.competitor_name !== null && x.competitor_name !== undefined
      ? { competitorName: String(x.competitor_name) }
      : {}),
  };
}

export interface FeedView {
  id: number;
  competitor_id?: number;
  competitor_name?: string;
  created_by: string;
  created_at: string;
}

/** A workspace's live feeds, oldest first. */
export async function listFeeds(db: Exec, orgId: number): Promise<FeedView[]> {
  const r = await db.execute({
    sql: `SELECT f.id, f.competitor_id, c.name AS competitor_name, f.created_by, f.created_at FROM feeds f
          LEFT JOIN competitors c ON c.id = f.competitor_id AND c.org_id = f.org_id
          WHERE f.org_id = ? AND f.revoked_at IS NULL ORDER BY f.id LIMIT 50`,
    args: [orgId],
  });
  return r.rows.map((x) => ({
    id: Number(x.id),
    ...(x.competitor_id !== null ? { competitor_id: Number(x.competitor_id) } : {}),
    ...(x.competitor_name ? { competitor_name: String(x.competitor_name) } : {}),
    created_by: String(x.created_by),
    created_at: String(x.created_at),
  }));
}

/** How many unrevoked feeds a workspace has (what its feed limit counts). */
export async function activeFeedCount(db: Exec, orgId: number): Promise<number> {
  const r = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM feeds WHERE org_id = ? AND revoked_at IS NULL",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}

/** Whether a workspace has this feed, unrevoked. */
export async function activeFeedExists(db: Exec, orgId: number, id: number): Promise<boolean> {
  const r = await db.execute({
    sql: "SELECT 1 FROM feeds WHERE id = ? AND org_id = ? AND revoked_at IS NULL",
    args: [id, orgId],
  });
  return !!r.rows[0];
}
