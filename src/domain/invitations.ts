// Invitations to join a workspace as member (invite_member, /invite/{token}). The link's token is random
// and only its SHA-256 digest is recorded; an invitation lasts 7 days and is used once; inviting the same
// address again replaces the pending invitation, so only the newest link works.
import type { NewEvent } from "../../events/catalog.ts";
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
import { decideMembership, decideUser, findRole, findUserByEmail, normalizeEmail } from "./members.ts";
import { type Plan, paidOnlyRefusal, planOf, requirePaid } from "./plans.ts";
import { InvalidInput } from "./validate.ts";

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

/** Creates an invitation (replacing a pending one to the same address): the transaction behind
 * sendInvitation (src/mail/invitation.ts), which every surface calls. Refuses a workspace without a
 * paid plan, a malformed address, an address that is already a member, and a workspace whose plan's seats
 * are taken by members and pending invitations. */
export async function inviteMember(
  store: EventStore,
  by: { orgId: number; actor: string; actorName?: string },
  rawEmail: string,
  metadata: { request_id?: string; idempotency_key?: string } = {},
): Promise<InviteResult> {
  const token = randomSecret(INVITATION_TOKEN_PREFIX);
  const { result } = await store.execute(
    async (w) => {
      const org = await orgSummaryById(w.tx, by.orgId);
      if (!org) throw new DomainError("not_found", "This workspace no longer exists.");
      const plan = planOf(org.plan);
      requirePaid(plan, "invite_member");
      const email = normalizeEmail(rawEmail);
      const user = await findUserByEmail(w.tx, email);
      if (user && (await findRole(w.tx, by.orgId, user.id)))
        throw new DomainError("conflict", `${email} is already a member of this workspace.`, { email });
      const seats = plan.memberSeats;
      const nowIso = w.now.toISOString();
      if ((await seatsTaken(w.tx, by.orgId, email, nowIso)) >= seats)
        throw new DomainError(
          "limit_reached",
          `The plan's ${seats} member seats are taken by members and pending invitations.`,
          { seats },
        );
      const previous = await pendingInvitationIds(w.tx, by.orgId, email);
      const id = await w.nextId();
      const expires_at = new Date(w.now.getTime() + INVITATION_TTL_MS).toISOString();
      const events: NewEvent[] = [
        ...previous.map(
          (pid): NewEvent => ({
            type: "InvitationRevoked",
            ...invitationStream(by.orgId, pid),
            data: { revoked_at: nowIso, reason: "replaced" },
          }),
        ),
        {
          type: "InvitationCreated",
          ...invitationStream(by.orgId, id),
          data: {
            id,
            email,
            role: "member",
            token_hash: sha256(token),
            invited_by: by.actorName ?? by.actor,
            created_at: nowIso,
            expires_at,
          },
        },
      ];
      return {
        events,
        result: {
          invitation: {
            id,
            email,
            role: "member" as const,
            invited_by: by.actorName ?? by.actor,
            invited_at: nowIso,
            expires_at,
          },
          token,
          replaced: previous.length,
          org: { id: by.orgId, slug: org.slug, name: org.name },
        },
      };
    },
    { actor: by.actor, ...metadata },
  );
  return result;
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
export async function revokeInvitation(
  store: EventStore,
  orgId: number,
  id: number,
  reason: "revoked" | "delivery_failed",
): Promise<void> {
  await store.execute(async (w) => ({
    events: decideInvitationRevoked(await invitationStatus(w.tx, orgId, id), orgId, id, reason, w.now),
    result: null,
  }));
}

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

/** Accepts an invitation: creates the account when the address has none, grants membership, and marks
 * the invitation used — all in one command, so a link can be used only once even under races. */
export async function acceptInvitation(store: EventStore, cmd: Accept) {
  const { result } = await store.execute(async (w) => {
    const inv = await openInvitation(w.tx, cmd.token, w.now);
    if (!inv) throw new DomainError("not_found", "This invitation link is not valid any more.");
    const existing = await findUserByEmail(w.tx, inv.email);
    if (existing?.password_hash && cmd.verifiedUserId !== existing.id)
      throw new InvalidInput("the password of your existing account is needed", "password");
    if (!existing?.password_hash && !cmd.passwordHash)
      throw new InvalidInput("choose a password", "password");
    const userId = existing ? existing.id : await w.nextId();
    const current = existing ? await findRole(w.tx, inv.orgId, userId) : undefined;
    const events: NewEvent[] = [
      ...decideUser(
        existing,
        userId,
        inv.email,
        {
          name: existing?.name ? undefined : cmd.name,
          passwordHash: existing?.password_hash ? undefined : cmd.passwordHash,
        },
        w.now,
      ),
      ...decideMembership(inv.orgId, userId, current, current ?? "member", w.now),
      {
        type: "InvitationAccepted",
        ...invitationStream(inv.orgId, inv.id),
        data: { user_id: userId, accepted_at: w.now.toISOString() },
      },
    ];
    return { events, result: { userId, orgId: inv.orgId, orgSlug: inv.orgSlug, email: inv.email } };
  });
  return result;
}

/** Single sign-on for someone with no membership yet: accepts every open invitation to their address.
 * Returns the user id, or undefined when there was nothing to accept. */
export async function acceptInvitationsBySso(
  store: EventStore,
  rawEmail: string,
  name: string | undefined,
): Promise<number | undefined> {
  const email = normalizeEmail(rawEmail);
  const { result } = await store.execute(async (w) => {
    const open = await openInvitationsTo(w.tx, email, w.now.toISOString());
    if (open.length === 0) return { events: [], result: undefined };
    const existing = await findUserByEmail(w.tx, email);
    const userId = existing ? existing.id : await w.nextId();
    const events: NewEvent[] = [
      ...decideUser(existing, userId, email, { name: existing ? undefined : name }, w.now),
    ];
    for (const row of open) {
      const orgId = row.orgId;
      const current = existing ? await findRole(w.tx, orgId, userId) : undefined;
      events.push(...decideMembership(orgId, userId, current, current ?? "member", w.now), {
        type: "InvitationAccepted",
        ...invitationStream(orgId, row.id),
        data: { user_id: userId, accepted_at: w.now.toISOString() },
      });
    }
    return { events, result: userId };
  });
  return result;
}
