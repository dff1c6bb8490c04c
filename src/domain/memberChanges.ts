// An admin changes a member's role, removes a member or withdraws an invitation (the Members page,
// docs/members.md). The rules live
// here, read in the writer's transaction: only a current admin may do it, and a workspace never loses its
// last admin (neither by demotion nor by removal). A removal also revokes the person's OAuth grants in the
// workspace; their sessions lose the workspace at once because every request reads the memberships.

import type { NewEvent } from "../../events/catalog.ts";
import type { EventStore, Tx } from "../../events/store.ts";
import { adminCount } from "../db/queries/members.ts";
import { DomainError } from "./errors.ts";
import { decideInvitationRevoked, invitationStatus } from "./invitations.ts";
import { decideMembership, findRole, findUserById, isRole, ROLES, type Role } from "./members.ts";
import { InvalidInput } from "./validate.ts";

export interface ActingAdmin {
  orgId: number;
  userId: number;
}

async function requireAdmin(tx: Pick<Tx, "execute">, by: ActingAdmin, what: string): Promise<void> {
  const role = await findRole(tx, by.orgId, by.userId);
  if (role !== "admin") throw new DomainError("forbidden", `Only admins of this workspace can ${what}.`);
}

/** The member's role and a name to show in messages, or not_found. */
async function requireMember(tx: Pick<Tx, "execute">, orgId: number, userId: number) {
  const role = await findRole(tx, orgId, userId);
  const user = role ? await findUserById(tx, userId) : undefined;
  if (!role || !user) throw new DomainError("not_found", "That person is not a member of this workspace.");
  return { role, label: user.name ?? user.email };
}

/** Refuses a change that would leave the workspace without an admin. */
async function keepAnAdmin(tx: Pick<Tx, "execute">, orgId: number, label: string, change: string) {
  if ((await adminCount(tx, orgId)) <= 1)
    throw new DomainError(
      "conflict",
      `${label} is the only admin of this workspace, so they cannot be ${change}. Make another member an admin first.`,
    );
}

export async function changeMemberRole(
  store: EventStore,
  by: ActingAdmin,
  userId: number,
  rawRole: string,
): Promise<{ user_id: number; role: Role; changed: boolean }> {
  if (!isRole(rawRole)) throw new InvalidInput(`role must be one of ${ROLES.join(", ")}`, "role");
  const role = rawRole;
  const { result } = await store.execute(
    async ({ tx, now }) => {
      await requireAdmin(tx, by, "change members' roles");
      const target = await requireMember(tx, by.orgId, userId);
      if (target.role === "admin" && role !== "admin")
        await keepAnAdmin(tx, by.orgId, target.label, "demoted");
      const events = decideMembership(by.orgId, userId, target.role, role, now);
      return { events, result: { user_id: userId, role, changed: events.length > 0 } };
    },
    { actor: `user:${by.userId}` },
  );
  return result;
}

/** Revokes a person's OAuth grants in a workspace inside the command's transaction, returning the events to
 * append with it (oauth/revocation.ts `revokeGrantsIn`: the caller wires it, so the domain imports no OAuth). */
export type RevokeGrants = (
  tx: Pick<Tx, "execute">,
  now: Date,
  where: { orgId: number; userId: number },
  reason: "member_removed",
) => Promise<{ events: NewEvent[]; families: number }>;

export async function removeMember(
  store: EventStore,
  by: ActingAdmin,
  userId: number,
  revokeGrantsIn: RevokeGrants,
): Promise<{ user_id: number; revoked_grants: number }> {
  const { result } = await store.execute(
    async ({ tx, now }) => {
      await requireAdmin(tx, by, "remove members");
      const target = await requireMember(tx, by.orgId, userId);
      if (target.role === "admin") await keepAnAdmin(tx, by.orgId, target.label, "removed");
      const grants = await revokeGrantsIn(tx, now, { orgId: by.orgId, userId }, "member_removed");
      return {
        events: [
          {
            type: "MembershipRevoked",
            orgId: by.orgId,
            streamType: "membership",
            streamId: `${by.orgId}:${userId}`,
            data: { user_id: userId, revoked_at: now.toISOString() },
          },
          ...grants.events,
        ],
        result: { user_id: userId, revoked_grants: grants.families },
      };
    },
    { actor: `user:${by.userId}` },
  );
  return result;
}

/** An admin takes back a pending invitation: its link stops working. */
export async function withdrawInvitation(store: EventStore, by: ActingAdmin, id: number): Promise<void> {
  await store.execute(
    async ({ tx, now }) => {
      await requireAdmin(tx, by, "withdraw invitations");
      const events = decideInvitationRevoked(
        await invitationStatus(tx, by.orgId, id),
        by.orgId,
        id,
        "revoked",
        now,
      );
      if (events.length === 0) throw new DomainError("not_found", "No pending invitation with that id here.");
      return { events, result: null };
    },
    { actor: `user:${by.userId}` },
  );
}
