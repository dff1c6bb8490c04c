// An admin changes a member's role, removes a member or withdraws an invitation (the Members page,
// docs/members.md). The rules live here, decided on what the loaders read in the writer's transaction: only a
// current admin may do it, and a workspace never loses its last admin (neither by demotion nor by removal). A removal also revokes the person's OAuth grants in the
// workspace; their sessions lose the workspace at once because every request reads the memberships.

import type { Actor, Command, Decision } from "../../events/command.ts";
import type { Tx } from "../../events/store.ts";
import { adminCount } from "../db/queries/members.ts";
import { DomainError } from "./errors.ts";
import { decideInvitationRevoked, invitationStatus } from "./invitations.ts";
import { decideMembership, findRole, findUserById, isRole, ROLES, type Role } from "./members.ts";
import { type AppAccess, decideAppAccessRevoked, loadAppAccess, revokeAppGrants } from "./oauthConsents.ts";
import { InvalidInput } from "./validate.ts";

/** The member who asks (an admin, or the command refuses), as the events record them (`user:<id>`). */
export interface ActingAdmin extends Actor {
  orgId: number;
  userId: number;
}

/** The acting member's role, and the member a change names: their role, a name to show in messages, and how
 * many admins the workspace has. */
export interface MemberChange {
  actingRole: Role | undefined;
  target: { role: Role; label: string } | undefined;
  admins: number;
}

async function loadMemberChange(
  tx: Pick<Tx, "execute">,
  by: ActingAdmin,
  userId: number,
): Promise<MemberChange> {
  const actingRole = await findRole(tx, by.orgId, by.userId);
  const role = await findRole(tx, by.orgId, userId);
  const user = role ? await findUserById(tx, userId) : undefined;
  return {
    actingRole,
    target: role && user ? { role, label: user.name ?? user.email } : undefined,
    admins: await adminCount(tx, by.orgId),
  };
}

function requireAdmin(role: Role | undefined, what: string): void {
  if (role !== "admin") throw new DomainError("forbidden", `Only admins of this workspace can ${what}.`);
}

function requireMember(st: MemberChange) {
  if (!st.target) throw new DomainError("not_found", "That person is not a member of this workspace.");
  return st.target;
}

/** Refuses a change that would leave the workspace without an admin. */
function keepAnAdmin(st: MemberChange, label: string, change: string): void {
  if (st.admins <= 1)
    throw new DomainError(
      "conflict",
      `${label} is the only admin of this workspace, so they cannot be ${change}. Make another member an admin first.`,
    );
}

export function decideChangeMemberRole(
  st: MemberChange,
  cmd: { user_id: number; role: string },
  orgId: number,
  now: Date,
): Decision<{ user_id: number; role: Role; changed: boolean }> {
  if (!isRole(cmd.role)) throw new InvalidInput(`role must be one of ${ROLES.join(", ")}`, "role");
  const role = cmd.role;
  requireAdmin(st.actingRole, "change members' roles");
  const target = requireMember(st);
  if (target.role === "admin" && role !== "admin") keepAnAdmin(st, target.label, "demoted");
  const events = decideMembership(orgId, cmd.user_id, target.role, role, now);
  return { events, result: { user_id: cmd.user_id, role, changed: events.length > 0 } };
}

export const changeMemberRole: Command<
  { user_id: number; role: string },
  MemberChange,
  { user_id: number; role: Role; changed: boolean },
  ActingAdmin
> = {
  load: (w, cmd, by) => loadMemberChange(w.tx, by, cmd.user_id),
  decide: (st, cmd, { caller, now }) => decideChangeMemberRole(st, cmd, caller.orgId, now),
};

/** A removal's state: the member change, and the removed person's access of apps in the workspace. */
export interface MemberRemoval extends MemberChange {
  apps: AppAccess;
}

export function decideRemoveMember(
  st: MemberRemoval,
  cmd: { user_id: number },
  orgId: number,
  now: Date,
): Decision<{ user_id: number; revoked_grants: number }> {
  requireAdmin(st.actingRole, "remove members");
  const target = requireMember(st);
  if (target.role === "admin") keepAnAdmin(st, target.label, "removed");
  return {
    events: [
      {
        type: "MembershipRevoked",
        orgId,
        streamType: "membership",
        streamId: `${orgId}:${cmd.user_id}`,
        data: { user_id: cmd.user_id, revoked_at: now.toISOString() },
      },
      ...decideAppAccessRevoked(orgId, st.apps, "member_removed", now),
    ],
    result: { user_id: cmd.user_id, revoked_grants: st.apps.families.length },
  };
}

/** A removal also revokes the person's OAuth grants in the workspace (their tokens stop with the membership). */
export const removeMember: Command<
  { user_id: number },
  MemberRemoval,
  { user_id: number; revoked_grants: number },
  ActingAdmin
> = {
  load: async (w, cmd, by) => ({
    ...(await loadMemberChange(w.tx, by, cmd.user_id)),
    apps: await loadAppAccess(w.tx, { orgId: by.orgId, userId: cmd.user_id }),
  }),
  decide: (st, cmd, { caller, now }) => decideRemoveMember(st, cmd, caller.orgId, now),
  write: async (w, st, _cmd, result) => {
    await revokeAppGrants(w.later, st.apps, "member_removed", w.now);
    return result;
  },
};

export function decideWithdrawInvitation(
  st: { actingRole: Role | undefined; status: string | undefined },
  cmd: { id: number },
  orgId: number,
  now: Date,
): Decision<null> {
  requireAdmin(st.actingRole, "withdraw invitations");
  const events = decideInvitationRevoked(st.status, orgId, cmd.id, "revoked", now);
  if (events.length === 0) throw new DomainError("not_found", "No pending invitation with that id here.");
  return { events, result: null };
}

/** An admin takes back a pending invitation: its link stops working. */
export const withdrawInvitation: Command<
  { id: number },
  { actingRole: Role | undefined; status: string | undefined },
  null,
  ActingAdmin
> = {
  load: async (w, cmd, by) => ({
    actingRole: await findRole(w.tx, by.orgId, by.userId),
    status: await invitationStatus(w.tx, by.orgId, cmd.id),
  }),
  decide: (st, cmd, { caller, now }) => decideWithdrawInvitation(st, cmd, caller.orgId, now),
};
