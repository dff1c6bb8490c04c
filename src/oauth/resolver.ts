// The bearer resolver for OAuth access tokens (registered with the CredentialResolver): a token is
// accepted only for the resource it was issued for, before it expires, while neither it nor its family
// is revoked, and while the approving member still belongs to the workspace.
import type { TokenResolver } from "../auth/credentials.ts";
import { ACCESS_PREFIX, type Grants } from "./grants.ts";
import type { MemberDirectory } from "./members.ts";

export function oauthTokenResolver(grants: Grants, members: MemberDirectory): TokenResolver {
  return async (token, { resource }) => {
    if (!token.startsWith(ACCESS_PREFIX)) return undefined;
    const t = await grants.accessToken(token);
    if (!t.ok) return { kind: "invalid", reason: t.reason };
    if (t.audience !== resource)
      return { kind: "invalid", reason: `The access token was issued for ${t.audience}, not ${resource}.` };
    const principal = await members.principal(t.userId, t.orgId, t.scopes);
    if (!principal)
      return {
        kind: "invalid",
        reason: "The member who approved this token no longer belongs to the workspace.",
      };
    grants.noteUse(t.familyId, t.lastUsedAt);
    return { kind: "ok", principal };
  };
}
