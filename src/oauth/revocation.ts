// Taking an app's access away in one workspace: the matching grant families are revoked with their tokens
// (the next /mcp request with one is 401) and the remembered approvals forgotten (the next authorization
// asks again), in one writer transaction. Disconnecting an app on the integrations page and removing a
// member (src/domain/memberChanges.ts) both come here.
import type { NewEvent } from "../../events/catalog.ts";
import type { EventStore, Tx } from "../../events/store.ts";
import { type GrantScope, liveFamiliesIn } from "../db/oauth.ts";
import { DomainError } from "../domain/errors.ts";
import { findRole } from "../domain/members.ts";
import { forgetConsentsIn } from "./consents.ts";
import { revokeFamily } from "./grants.ts";

/** Inside the writer's transaction: revokes the live grants in `where` and returns the events that forget
 * the approvals, for the caller to append with its own. */
export async function revokeGrantsIn(
  tx: Pick<Tx, "execute">,
  now: Date,
  where: GrantScope,
  reason: "revoked" | "member_removed",
): Promise<{ events: NewEvent[]; families: number }> {
  const families = await liveFamiliesIn(tx, where);
  for (const id of families) await revokeFamily(tx, id, now, reason === "revoked" ? "disconnected" : reason);
  return { events: await forgetConsentsIn(tx, now, where, reason), families: families.length };
}

/** Disconnects one member's grant of an app in a workspace. An admin may disconnect anyone's; a member
 * only their own (the role is read in the transaction, so a demotion applies at once). */
export async function disconnectApp(
  store: EventStore,
  by: { orgId: number; userId: number },
  app: { clientId: string; userId: number },
): Promise<{ families: number; approvals: number }> {
  const { result } = await store.execute(
    async ({ tx, now }) => {
      const role = await findRole(tx, by.orgId, by.userId);
      if (!role) throw new DomainError("not_found", "You are not a member of this workspace.");
      if (role !== "admin" && app.userId !== by.userId)
        throw new DomainError("forbidden", "Only admins can disconnect apps that other members connected.");
      const where = { orgId: by.orgId, userId: app.userId, clientId: app.clientId };
      const { events, families } = await revokeGrantsIn(tx, now, where, "revoked");
      if (families === 0 && events.length === 0)
        throw new DomainError("not_found", "That app is not connected to this workspace.");
      return { events, result: { families, approvals: events.length } };
    },
    { actor: `user:${by.userId}` },
  );
  return result;
}
