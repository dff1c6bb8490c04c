// Who an OAuth token acts for, looked up on every request (src/auth/session.ts): the approving member's
// current role in the workspace and the workspace's current plan. A member who left has no principal.
import type { Tx } from "../../events/store.ts";
import type { Principal } from "../auth/principal.ts";
import { loadMemberUser, memberPrincipal } from "../auth/session.ts";
import { isMemberOf } from "../db/oauth.ts";
import type { Scope } from "../domain/apiKeys.ts";
import type { Services } from "../services.ts";

export interface MemberDirectory {
  active(tx: Pick<Tx, "execute">, userId: number, orgId: number): Promise<boolean>;
  principal(userId: number, orgId: number, scopes: Scope[]): Promise<Principal | undefined>;
}

export function memberDirectory(s: Services): MemberDirectory {
  return {
    async active(tx, userId, orgId) {
      return isMemberOf(tx, orgId, userId);
    },
    async principal(userId, orgId, scopes) {
      const user = await loadMemberUser(s, userId);
      return (user && memberPrincipal(user, orgId, scopes)) ?? undefined;
    },
  };
}
