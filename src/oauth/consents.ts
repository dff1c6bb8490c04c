// Remembered approvals. A member's approval of a client for some scopes in one workspace is a workspace
// fact, recorded as an OAuthConsentGranted event; a later request for the same or fewer scopes is
// approved without asking again.
import { SCOPES, type Scope } from "../domain/apiKeys.ts";
import type { Services } from "../services.ts";

export interface Consent {
  orgId: number;
  scopes: Scope[];
  grantedAt: string;
}

/** The member's remembered approvals of this client, newest first. */
export async function consentsOf(s: Services, userId: number, clientId: string): Promise<Consent[]> {
  const r = await s.database.client.execute({
    sql: `SELECT org_id, scopes, granted_at FROM oauth_consents WHERE user_id = ? AND client_id = ?
          ORDER BY granted_at DESC`,
    args: [userId, clientId],
  });
  return r.rows.map((row) => ({
    orgId: Number(row.org_id),
    scopes: String(row.scopes).split(" ").filter(Boolean) as Scope[],
    grantedAt: String(row.granted_at),
  }));
}

/** Records an approval; the remembered scopes become the union of what was approved before and now. */
export async function recordConsent(
  s: Services,
  p: { userId: number; orgId: number; clientId: string; scopes: Scope[]; actor: string },
): Promise<void> {
  await s.store.execute(
    async ({ tx, now }) => {
      const r = await tx.execute({
        sql: "SELECT scopes FROM oauth_consents WHERE user_id = ? AND client_id = ? AND org_id = ?",
        args: [p.userId, p.clientId, p.orgId],
      });
      const before = r.rows[0] ? String(r.rows[0].scopes).split(" ").filter(Boolean) : [];
      const all = SCOPES.filter((sc) => before.includes(sc) || p.scopes.includes(sc));
      if (r.rows[0] && all.length === before.length) return { events: [], result: null };
      return {
        events: [
          {
            type: "OAuthConsentGranted",
            orgId: p.orgId,
            streamType: "oauth_consent",
            streamId: `${p.orgId}:${p.userId}:${p.clientId}`,
            data: { user_id: p.userId, client_id: p.clientId, scopes: all, granted_at: now.toISOString() },
          },
        ],
        result: null,
      };
    },
    { actor: p.actor },
  );
}
