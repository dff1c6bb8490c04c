import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";

/** Remembered OAuth approvals: one row per member, workspace and client, holding the scopes approved. */
export async function projectOAuthConsents(e: StoredEvent, tx: Tx): Promise<void> {
  if (e.orgId === null) return;
  if (e.type === "OAuthConsentGranted")
    await tx.execute({
      sql: `INSERT INTO oauth_consents (user_id, org_id, client_id, scopes, granted_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (user_id, client_id, org_id) DO UPDATE SET scopes = excluded.scopes, granted_at = excluded.granted_at`,
      args: [e.data.user_id, e.orgId, e.data.client_id, e.data.scopes.join(" "), e.data.granted_at],
    });
  else if (e.type === "OAuthConsentRevoked")
    await tx.execute({
      sql: "DELETE FROM oauth_consents WHERE user_id = ? AND client_id = ? AND org_id = ?",
      args: [e.data.user_id, e.data.client_id, e.orgId],
    });
}
