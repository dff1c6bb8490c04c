// Remembered approvals. A member's approval of a client for some scopes in one workspace is a workspace
// fact, recorded as an OAuthConsentGranted event; a later request for the same or fewer scopes is
// approved without asking again.
import type { NewEvent } from "../../events/catalog.ts";
import type { Tx } from "../../events/store.ts";
import { SCOPES, type Scope } from "../domain/apiKeys.ts";
import { decideConsentGranted, decideConsentsRevoked } from "../domain/oauthConsents.ts";
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
      const before = r.rows[0] ? String(r.rows[0].scopes).split(" ").filter(Boolean) : undefined;
      return { events: decideConsentGranted(p, before, now), result: null };
    },
    { actor: p.actor },
  );
}

/** Which grants of a workspace an action concerns: every one, one member's, one app's, or both. */
export interface GrantScope {
  orgId: number;
  userId?: number;
  clientId?: string;
}

/** The SQL condition (after `org_id = ?`) and its arguments that select the rows of a table with org_id,
 * user_id and client_id columns that `where` concerns. */
export function grantScopeSql(where: GrantScope): { sql: string; args: (string | number | null)[] } {
  const user = where.userId ?? null;
  const client = where.clientId ?? null;
  return {
    sql: "org_id = ? AND (? IS NULL OR user_id = ?) AND (? IS NULL OR client_id = ?)",
    args: [where.orgId, user, user, client, client],
  };
}

/** The remembered approvals in `where` that match, as OAuthConsentRevoked events (inside the writer's
 * transaction), so the next authorization shows the consent page again. */
export async function forgetConsentsIn(
  tx: Pick<Tx, "execute">,
  now: Date,
  where: GrantScope,
  reason: "revoked" | "member_removed",
): Promise<NewEvent[]> {
  const scope = grantScopeSql(where);
  const r = await tx.execute({
    sql: `SELECT user_id, client_id FROM oauth_consents WHERE ${scope.sql} ORDER BY client_id, user_id`,
    args: scope.args,
  });
  return decideConsentsRevoked(
    where.orgId,
    r.rows.map((row) => ({ userId: Number(row.user_id), clientId: String(row.client_id) })),
    reason,
    now,
  );
}
