// Connected apps of a workspace (the integrations page): every OAuth client a member approved here or that
// still holds a live token here, one row per app and member. Scoped by org in the query; `userId` narrows
// it to one member's own apps.
import type { Client } from "@libsql/client";
import { SCOPES } from "../../domain/apiKeys.ts";
import { looksLikeUrlClientId } from "../../oauth/cimd.ts";
import { clientLabel } from "../../oauth/clientMetadata.ts";

export interface ConnectedApp {
  clientId: string;
  /** The app's name as shown on the consent page. */
  name: string;
  /** True when the app is identified by a metadata document URL (its host is verified), false when it
   * registered itself (its name is self-asserted). */
  documentClient: boolean;
  userId: number;
  userEmail: string;
  userName?: string;
  scopes: string[];
  /** The latest approval, or the first live grant when no approval is remembered. */
  authorizedAt: string;
  lastUsedAt?: string;
}

const SQL = `
WITH live AS (
  SELECT f.client_id, f.user_id, MIN(f.created_at) AS first_at, GROUP_CONCAT(f.scopes, ' ') AS scopes
  FROM oauth_families f
  WHERE f.org_id = :org AND f.revoked_at IS NULL
    AND EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.family_id = f.id AND t.revoked_at IS NULL
                AND t.rotated_at IS NULL AND t.expires_at > :now)
  GROUP BY f.client_id, f.user_id
),
pairs AS (
  SELECT client_id, user_id FROM oauth_consents WHERE org_id = :org
  UNION SELECT client_id, user_id FROM live
)
SELECT p.client_id, p.user_id, u.email, u.name, c.scopes AS approved, c.granted_at, l.scopes AS held,
  l.first_at, oc.metadata,
  (SELECT MAX(f.last_used_at) FROM oauth_families f
    WHERE f.org_id = :org AND f.client_id = p.client_id AND f.user_id = p.user_id) AS last_used_at
FROM pairs p
JOIN users u ON u.id = p.user_id
LEFT JOIN oauth_consents c ON c.org_id = :org AND c.client_id = p.client_id AND c.user_id = p.user_id
LEFT JOIN live l ON l.client_id = p.client_id AND l.user_id = p.user_id
LEFT JOIN oauth_clients oc ON oc.client_id = p.client_id
WHERE :user IS NULL OR p.user_id = :user
ORDER BY COALESCE(c.granted_at, l.first_at) DESC, p.client_id, p.user_id`;

export async function listConnectedApps(
  client: Pick<Client, "execute">,
  orgId: number,
  now: Date,
  userId?: number,
): Promise<ConnectedApp[]> {
  const r = await client.execute({
    sql: SQL,
    args: { org: orgId, now: now.toISOString(), user: userId ?? null },
  });
  return r.rows.map((row) => {
    const clientId = String(row.client_id);
    const document = looksLikeUrlClientId(clientId);
    const meta = row.metadata === null ? {} : (JSON.parse(String(row.metadata)) as { client_name?: string });
    const granted = `${row.approved ?? ""} ${row.held ?? ""}`.split(" ");
    const lastUsed = row.last_used_at === null ? undefined : String(row.last_used_at);
    return {
      clientId,
      name: clientLabel({
        client_id: clientId,
        source: document ? "document" : "registered",
        client_name: meta.client_name,
      }),
      documentClient: document,
      userId: Number(row.user_id),
      userEmail: String(row.email),
      ...(row.name === null ? {} : { userName: String(row.name) }),
      scopes: SCOPES.filter((sc) => granted.includes(sc)),
      authorizedAt: String(row.granted_at ?? row.first_at),
      ...(lastUsed ? { lastUsedAt: lastUsed } : {}),
    };
  });
}
