// Invitations to join a workspace as member (invite_member, /invite/{token}). The link's token is random
// and only its SHA-256 digest is recorded; an invitation lasts 7 days and is used once; inviting the same
// address again replaces the pending invitation, so only the newest link works.
import type { NewEvent } from "../../events/catalog.ts";
import { type Actor, type Command, type Decision, runCommand } from "../../events/command.ts";
import type { EventStore, Tx } from "../../events/store.ts";
import { randomSecret, sha256 } from "../auth/tokens.ts";
import {
  invitationByTokenHash,
  invitationStatusOf,
  openInvitationsTo,
  pendingInvitationIds,
  pendingInvitationRows,
  seatsTaken,
} from "../db/queries/invitations.ts";
import { orgSummaryById } from "../db/queries/orgs.ts";
import { DomainError } from "./errors.ts";
import {
  decideMembership,
  decideUser,
  findRole,
  findUserByEmail,
  normalizeEmail,
  type Role,
  type UserRow,
} from "./members.ts";
import { type Plan, paidOnlyRefusal, planOf, requirePaid } from "./plans.ts";
import { InvalidInput } from "./validate.ts";
import type { Caller } from "./watchlist.ts";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const INVITATION_TOKEN_PREFIX = "inv_";

export interface InvitationView {
  id: number;
  email: string;
  role: "member";
  invited_by?: string;
  invited_at: string;
  expires_at: string;
}

const invitationStream = (orgId: number, id: number) => ({
  orgId,
  streamType: "invitation" as const,
  streamId: String(id),
});

/** Why a workspace on this plan cannot invite anyone (invite_member is paid only), or undefined. */
export function invitePlanRefusal(plan: Plan): string | undefined {
  return paidOnlyRefusal(plan, "invite_member");
}

export interface InviteResult {
  invitation: InvitationView;
  /** The plain token for the link; never stored. */
  token: string;
  replaced: number;
  org: { id: number; slug: string; name: string };
}

/** An address as typed, normalized; undefined when it is not one (the decider says why, in its turn). */
function emailOrUndefined(raw: string): string | undefined {
  try {
    return normalizeEmail(raw);
  } catch {
    return undefined;
  }
}

/** What an invitation is decided on: the workspace, the address's membership, the seats taken, the pending
 * invitations it replaces, and the new invitation's id and token. */
export interface InvitationState {
  org: { slug: string; name: string; plan: string } | undefined;
  alreadyMember: boolean;
  seatsTaken: number;
  previous: number[];
  id: number;
  /** The plain token for the link; only its digest is recorded. */
  token: string;
}

export function decideInviteMember(
  st: InvitationState,
  cmd: { email: string },
  by: Caller,
  now: Date,
): Decision<InviteResult> {
  if (!st.org) throw new DomainError("not_found", "This workspace no longer exists.");
  const plan = planOf(st.org.plan);
  requirePaid(plan, "invite_member");
  const email = normalizeEmail(cmd.email);
  if (st.alreadyMember)
    throw new DomainError("conflict", `${email} is already a member of this workspace.`, { email });
  const seats = plan.memberSeats;
  if (st.seatsTaken >= seats)
    throw new DomainError(
      "limit_reached",
      `The plan's ${seats} member seats are taken by members and pending invitations.`,
      { seats },
    );
  const nowIso = now.toISOString();
  const expires_at = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
  const invitedBy = by.actorName ?? by.actor;
  const events: NewEvent[] = [
    ...st.previous.map(
      (pid): NewEvent => ({
        type: "InvitationRevoked",
        ...invitationStream(by.orgId, pid),
        data: { revoked_at: nowIso, reason: "replaced" },
      }),
    ),
    {
      type: "InvitationCreated",
      ...invitationStream(by.orgId, st.id),
      data: {
        id: st.id,
        email,
        role: "member",
        token_hash: sha256(st.token),
        invited_by: invitedBy,
        created_at: nowIso,
        expires_at,
      },
    },
  ];
  return {
    events,
    result: {
      invitation: { id: st.id, email, role: "member", invited_by: invitedBy, invited_at: nowIso, expires_at },
      token: st.token,
      replaced: st.previous.length,
      org: { id: by.orgId, slug: st.org.slug, name: st.org.name },
    },
  };
}

/** Creates an invitation (replacing a pending one to the same address): the command behind
 * sendInvitation (src/mail/invitation.ts), which every surface calls. Refuses a workspace without a
 * paid plan, a malformed address, an address that is already a member, and a workspace whose plan's seats
 * are taken by members and pending invitations. */
export const inviteMemberCommand: Command<{ email: string }, InvitationState, InviteResult> = {
  load: async (w, cmd, by) => {
    const org = await orgSummaryById(w.tx, by.orgId);
    const email = emailOrUndefined(cmd.email);
    const user = email ? await findUserByEmail(w.tx, email) : undefined;
    return {
      org,
      alreadyMember: Boolean(user && (await findRole(w.tx, by.orgId, user.id))),
      seatsTaken: email ? await seatsTaken(w.tx, by.orgId, email, w.now.toISOString()) : 0,
      previous: email ? await pendingInvitationIds(w.tx, by.orgId, email) : [],
      id: await w.nextId(),
      token: randomSecret(INVITATION_TOKEN_PREFIX),
    };
  },
  decide: (st, cmd, { caller, now }) => decideInviteMember(st, cmd, caller, now),
};

export function inviteMember(
  store: EventStore,
  by: Caller,
  rawEmail: string,
  metadata: { request_id?: string; idempotency_key?: string } = {},
): Promise<InviteResult> {
  return runCommand(store, inviteMemberCommand, { email: rawEmail }, { caller: by, metadata });
}

/** The status of an invitation of this org (pending, accepted, replaced, revoked), if it has one by that id. */
export async function invitationStatus(
  tx: Pick<Tx, "execute">,
  orgId: number,
  id: number,
): Promise<string | undefined> {
  return invitationStatusOf(tx, orgId, id);
}

/** The event that withdraws a pending invitation of this org, or none when it is not pending here. */
export function decideInvitationRevoked(
  status: string | undefined,
  orgId: number,
  id: number,
  reason: "revoked" | "delivery_failed",
  now: Date,
): NewEvent[] {
  if (status !== "pending") return [];
  return [
    {
      type: "InvitationRevoked",
      ...invitationStream(orgId, id),
      data: { revoked_at: now.toISOString(), reason },
    },
  ];
}

/** Withdraws a pending invitation whose email could not be delivered. */
export const revokeUndeliveredInvitation: Command<{ id: number }, string | undefined, null> = {
  load: (w, cmd, c) => invitationStatus(w.tx, c.orgId, cmd.id),
  decide: (status, cmd, { caller, now }) => ({
    events: decideInvitationRevoked(status, caller.orgId, cmd.id, "delivery_failed", now),
    result: null,
  }),
};

/** Pending, unexpired invitations of one org, newest first (list_members for admins). */
export async function pendingInvitations(
  client: Pick<Tx, "execute">,
  orgId: number,
  now: Date,
): Promise<InvitationView[]> {
  return (await pendingInvitationRows(client, orgId, now.toISOString())).map((row) => ({
    id: row.id,
    email: row.email,
    role: "member",
    ...(row.invited_by === null ? {} : { invited_by: row.invited_by }),
    invited_at: row.created_at,
    expires_at: row.expires_at,
  }));
}

export interface OpenInvitation {
  id: number;
  orgId: number;
  orgSlug: string;
  orgName: string;
  email: string;
  invitedBy: string | null;
  expiresAt: string;
  /** The invitee's existing account, if the address already has one. */
  existingUser?: { id: number; hasPassword: boolean };
}

/** The invitation a link names, if it can still be accepted (pending and unexpired); else undefined.
 * Unknown, used, replaced and expired links all look the same to the caller. */
export async function openInvitation(
  client: Pick<Tx, "execute">,
  token: string,
  now: Date,
): Promise<OpenInvitation | undefined> {
  if (!token.startsWith(INVITATION_TOKEN_PREFIX) || token.length > 100) return undefined;
  const row = await invitationByTokenHash(client, sha256(token));
  if (row?.status !== "pending") return undefined;
  if (Date.parse(row.expiresAt) <= now.getTime()) return undefined;
  return {
    id: row.id,
    orgId: row.orgId,
    orgSlug: row.orgSlug,
    orgName: row.orgName,
    email: row.email,
    invitedBy: row.invitedBy,
    expiresAt: row.expiresAt,
    ...(row.userId === null ? {} : { existingUser: { id: row.userId, hasPassword: row.hasPassword } }),
  };
}

export interface Accept {
  token: string;
  /** For a new account (or one without a password): the name and the password's argon2id hash. */
  name?: string;
  passwordHash?: string;
  /** For an account that has a password: its id, after the caller checked that password. */
  verifiedUserId?: number;
}

/** What accepting a link is decided on: the open invitation, the invitee's account and role, and the id a
 * new account takes. */
export interface Acceptance {
  inv: OpenInvitation | undefined;
  existing: UserRow | undefined;
  userId: number;
  current: Role | undefined;
}

export function decideAcceptInvitation(st: Acceptance, cmd: Accept, now: Date) {
  const inv = st.inv;
  if (!inv) throw new DomainError("not_found", "This invitation link is not valid any more.");
  const existing = st.existing;
  if (existing?.password_hash && cmd.verifiedUserId !== existing.id)
    throw new InvalidInput("the password of your existing account is needed", "password");
  if (!existing?.password_hash && !cmd.passwordHash) throw new InvalidInput("choose a password", "password");
  const events: NewEvent[] = [
    ...decideUser(
      existing,
      st.userId,
      inv.email,
      {
        name: existing?.name ? undefined : cmd.name,
        passwordHash: existing?.password_hash ? undefined : cmd.passwordHash,
      },
      now,
    ),
    ...decideMembership(inv.orgId, st.userId, st.current, st.current ?? "member", now),
    {
      type: "InvitationAccepted",
      ...invitationStream(inv.orgId, inv.id),
      data: { user_id: st.userId, accepted_at: now.toISOString() },
    },
  ];
  return { events, result: { userId: st.userId, orgId: inv.orgId, orgSlug: inv.orgSlug, email: inv.email } };
}

/** Accepts an invitation: creates the account when the address has none, grants membership, and marks
 * the invitation used — all in one command, so a link can be used only once even under races. */
export const acceptInvitationCommand: Command<
  Accept,
  Acceptance,
  { userId: number; orgId: number; orgSlug: string; email: string },
  Actor
> = {
  load: async (w, cmd) => {
    const inv = await openInvitation(w.tx, cmd.token, w.now);
    const existing = inv ? await findUserByEmail(w.tx, inv.email) : undefined;
    const userId = existing ? existing.id : inv ? await w.nextId() : 0;
    const current = existing && inv ? await findRole(w.tx, inv.orgId, userId) : undefined;
    return { inv, existing, userId, current };
  },
  decide: (st, cmd, { now }) => decideAcceptInvitation(st, cmd, now),
};

/** Whoever follows an invitation's link (or signs on with an invited address), as the events record them. */
export const INVITEE = { caller: { actor: "invitee" } };

export function acceptInvitation(store: EventStore, cmd: Accept) {
  return runCommand(store, acceptInvitationCommand, cmd, INVITEE);
}

/** What single sign-on accepts: the open invitations to the address, its account and roles. */
export interface SsoAcceptance {
  open: { id: number; orgId: number }[];
  existing: UserRow | undefined;
  userId: number;
  roles: (Role | undefined)[];
}

export function decideAcceptInvitationsBySso(
  st: SsoAcceptance,
  cmd: { email: string; name?: string },
  now: Date,
): Decision<number | undefined> {
  if (st.open.length === 0) return { events: [], result: undefined };
  const events: NewEvent[] = [
    ...decideUser(st.existing, st.userId, cmd.email, { name: st.existing ? undefined : cmd.name }, now),
  ];
  for (const [i, row] of st.open.entries()) {
    const current = st.roles[i];
    events.push(...decideMembership(row.orgId, st.userId, current, current ?? "member", now), {
      type: "InvitationAccepted",
      ...invitationStream(row.orgId, row.id),
      data: { user_id: st.userId, accepted_at: now.toISOString() },
    });
  }
  return { events, result: st.userId };
}

/** Single sign-on for someone with no membership yet: accepts every open invitation to their (normalized)
 * address. Its result is the user id, or undefined when there was nothing to accept. */
export const acceptInvitationsBySsoCommand: Command<
  { email: string; name?: string },
  SsoAcceptance,
  number | undefined,
  Actor
> = {
  load: async (w, cmd) => {
    const open = await openInvitationsTo(w.tx, cmd.email, w.now.toISOString());
    const existing = open.length ? await findUserByEmail(w.tx, cmd.email) : undefined;
    const userId = existing ? existing.id : open.length ? await w.nextId() : 0;
    const roles: (Role | undefined)[] = [];
    for (const row of open) roles.push(existing ? await findRole(w.tx, row.orgId, userId) : undefined);
    return { open, existing, userId, roles };
  },
  decide: (st, cmd, { now }) => decideAcceptInvitationsBySso(st, cmd, now),
};
