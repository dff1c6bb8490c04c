// A member's approval of an app in a workspace (docs/oauth.md): remembered so the next authorization does not
// ask again, widened by a later approval, forgotten when the app is disconnected or the member leaves.
import type { NewEvent } from "../../events/catalog.ts";
import type { Actor, Command, Decision, StreamAt, Writing } from "../../events/command.ts";
import type { Tx } from "../../events/store.ts";
import { consentScopes, consentsIn, type GrantScope, liveFamiliesIn, revokeFamilyRows } from "../db/oauth.ts";
import { SCOPES } from "./apiKeys.ts";
import { DomainError } from "./errors.ts";
import { findRole, type Role } from "./members.ts";

const consentStream = (orgId: number, userId: number, clientId: string) => ({
  streamType: "oauth_consent" as const,
  streamId: `${orgId}:${userId}:${clientId}`,
});
const stream = (orgId: number, userId: number, clientId: string) => ({
  orgId,
  ...consentStream(orgId, userId, clientId),
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

/** A member's remembered approval of an app in a workspace, widened by this one. */
export interface RecordConsent {
  orgId: number;
  userId: number;
  clientId: string;
  scopes: readonly string[];
}

/** The approval as its stream holds it: the scopes approved so far, at the stream's version. */
interface HeldConsent {
  scopes: string[];
  stream: StreamAt;
}

export const recordConsent: Command<RecordConsent, HeldConsent | undefined, null, Actor> = {
  load: async (w, c) => {
    const held = await consentScopes(w.tx, c.userId, c.clientId, c.orgId);
    if (!held) return undefined;
    const id = consentStream(c.orgId, c.userId, c.clientId);
    return { scopes: held.scopes.split(" ").filter(Boolean), stream: { ...id, version: held.version } };
  },
  stream: (held) => held?.stream,
  decide: (held, c, { now }) => ({ events: decideConsentGranted(c, held?.scopes, now), result: null }),
};

/** An app's access in part of a workspace (one member, one app): its live grant families and the remembered
 * approvals. */
export interface AppAccess {
  families: string[];
  consents: { userId: number; clientId: string }[];
}

export async function loadAppAccess(tx: Pick<Tx, "execute">, where: GrantScope): Promise<AppAccess> {
  return { families: await liveFamiliesIn(tx, where), consents: await consentsIn(tx, where) };
}

/** Taking access away forgets the approvals, so the next authorization asks again. */
export function decideAppAccessRevoked(
  orgId: number,
  access: AppAccess,
  reason: "revoked" | "member_removed",
  now: Date,
): NewEvent[] {
  return decideConsentsRevoked(orgId, access.consents, reason, now);
}

/** The operational side of taking access away: the grant families and their tokens are revoked (the next
 * /mcp request with one is 401). */
export async function revokeAppGrants(
  tx: Writing["later"],
  access: AppAccess,
  reason: "revoked" | "member_removed",
  now: Date,
): Promise<void> {
  for (const id of access.families)
    await revokeFamilyRows(tx, id, now.toISOString(), reason === "revoked" ? "disconnected" : reason);
}

/** The member who disconnects, as the events record them (`user:<id>`). */
export interface ActingMember extends Actor {
  orgId: number;
  userId: number;
}

export interface AppDisconnection {
  role: Role | undefined;
  access: AppAccess;
}

export function decideDisconnectApp(
  st: AppDisconnection,
  app: { clientId: string; userId: number },
  by: ActingMember,
  now: Date,
): Decision<{ families: number; approvals: number }> {
  if (!st.role) throw new DomainError("not_found", "You are not a member of this workspace.");
  if (st.role !== "admin" && app.userId !== by.userId)
    throw new DomainError("forbidden", "Only admins can disconnect apps that other members connected.");
  const events = decideAppAccessRevoked(by.orgId, st.access, "revoked", now);
  if (st.access.families.length === 0 && events.length === 0)
    throw new DomainError("not_found", "That app is not connected to this workspace.");
  return { events, result: { families: st.access.families.length, approvals: events.length } };
}

/** Disconnects one member's grant of an app in a workspace. An admin may disconnect anyone's; a member only
 * their own (the role is read in the transaction, so a demotion applies at once). */
export const disconnectApp: Command<
  { clientId: string; userId: number },
  AppDisconnection,
  { families: number; approvals: number },
  ActingMember
> = {
  load: async (w, app, by) => ({
    role: await findRole(w.tx, by.orgId, by.userId),
    access: await loadAppAccess(w.tx, { orgId: by.orgId, userId: app.userId, clientId: app.clientId }),
  }),
  decide: (st, app, { caller, now }) => decideDisconnectApp(st, app, caller, now),
  write: async (w, st, _cmd, result) => {
    await revokeAppGrants(w.later, st.access, "revoked", w.now);
    return result;
  },
};
