// Remembered approvals. A member's approval of a client for some scopes in one workspace is a workspace
// fact, recorded as an OAuthConsentGranted event; a later request for the same or fewer scopes is
// approved without asking again (the command that records one is src/domain/oauthConsents.ts).
import { consentsOfMember } from "../db/oauth.ts";
import type { Scope } from "../domain/apiKeys.ts";
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
