// Remembered approvals. A member's approval of a client for some scopes in one workspace is a workspace
// fact, recorded as an OAuthConsentGranted event; a later request for the same or fewer scopes is
// approved without asking again.
import type { NewEvent } from "../../events/catalog.ts";
import type { Tx } from "../../events/store.ts";
import { consentScopes, consentsIn, consentsOfMember, type GrantScope } from "../db/oauth.ts";
import type { Scope } from "../domain/apiKeys.ts";
import { decideConsentGranted, decideConsentsRevoked } from "../domain/oauthConsents.ts";
import type { Services } from "../services.ts";

export interface Consent {
  orgId: number;
  scopes: Scope[];
  grantedAt: string;
}

/** The member's remembered approvals of this client, newest first. */
export async function consentsOf(s: Services, userId: number, clientId: string): Promise<Consent[]> {
  return (await consentsOfMember(s.database, userId, clientId)).map((c) => ({
    orgId: c.orgId,
    scopes: c.scopes.split(" ").filter(Boolean) as Scope[],
    grantedAt: c.grantedAt,
  }));
}

/** Records an approval; the remembered scopes become the union of what was approved before and now. */
export async function recordConsent(
  s: Services,
  p: { userId: number; orgId: number; clientId: string; scopes: Scope[]; actor: string },
): Promise<void> {
  await s.store.execute(
    async ({ tx, now }) => {
      const held = await consentScopes(tx, p.userId, p.clientId, p.orgId);
      const before = held === undefined ? undefined : held.split(" ").filter(Boolean);
      return { events: decideConsentGranted(p, before, now), result: null };
    },
    { actor: p.actor },
  );
}

/** The remembered approvals in `where` that match, as OAuthConsentRevoked events (inside the writer's
 * transaction), so the next authorization shows the consent page again. */
export async function forgetConsentsIn(
  tx: Pick<Tx, "execute">,
  now: Date,
  where: GrantScope,
  reason: "revoked" | "member_removed",
): Promise<NewEvent[]> {
  return decideConsentsRevoked(where.orgId, await consentsIn(tx, where), reason, now);
}
