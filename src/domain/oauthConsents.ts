// A member's approval of an app in a workspace (docs/oauth.md): remembered so the next authorization does not
// ask again, widened by a later approval, forgotten when the app is disconnected or the member leaves.
import type { NewEvent } from "../../events/catalog.ts";
import { SCOPES } from "./apiKeys.ts";

const stream = (orgId: number, userId: number, clientId: string) => ({
  orgId,
  streamType: "oauth_consent" as const,
  streamId: `${orgId}:${userId}:${clientId}`,
});

/** `before`: the scopes approved so far (undefined: none yet). Nothing when the approval adds no scope. */
export function decideConsentGranted(
  c: { orgId: number; userId: number; clientId: string; scopes: readonly string[] },
  before: readonly string[] | undefined,
  now: Date,
): NewEvent[] {
  const all = SCOPES.filter((sc) => before?.includes(sc) || c.scopes.includes(sc));
  if (before && all.length === before.length) return [];
  return [
    {
      type: "OAuthConsentGranted",
      ...stream(c.orgId, c.userId, c.clientId),
      data: { user_id: c.userId, client_id: c.clientId, scopes: all, granted_at: now.toISOString() },
    },
  ];
}

export function decideConsentsRevoked(
  orgId: number,
  consents: readonly { userId: number; clientId: string }[],
  reason: "revoked" | "member_removed",
  now: Date,
): NewEvent[] {
  return consents.map(({ userId, clientId }) => ({
    type: "OAuthConsentRevoked",
    ...stream(orgId, userId, clientId),
    data: { user_id: userId, client_id: clientId, revoked_at: now.toISOString(), reason },
  }));
}
