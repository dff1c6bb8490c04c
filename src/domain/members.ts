// People: users (global by email), their memberships in workspaces, and passwords.
import type { NewEvent } from "../../events/catalog.ts";
import { type Actor, type Command, type Issuer, runCommand } from "../../events/command.ts";
import type { EventStore, Tx } from "../../events/store.ts";
import { memberRows, roleOf, userByEmail, userById } from "../db/queries/members.ts";
import { OPERATOR } from "./operator.ts";
import { findOrg, type OrgState, orgNamed } from "./state.ts";
import { InvalidInput } from "./validate.ts";

export const ROLES = ["admin", "member"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(v: unknown): v is Role {
  return typeof v === "string" && (ROLES as readonly string[]).includes(v);
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** Emails are compared lowercased and trimmed; a user is one row per such address. */
export function normalizeEmail(raw: string, field = "email"): string {
  const e = raw.trim().toLowerCase();
  if (e.length > 254 || !EMAIL.test(e)) throw new InvalidInput(`${field} must be an email address`, field);
  return e;
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;

export function checkPassword(pw: string): void {
  if (pw.length < PASSWORD_MIN)
    throw new InvalidInput(`password must be at least ${PASSWORD_MIN} characters`, "password");
  if (pw.length > PASSWORD_MAX)
    throw new InvalidInput(`password must be at most ${PASSWORD_MAX} characters`, "password");
}

export function checkName(raw: string | undefined): string | undefined {
  const n = raw?.trim();
  if (!n) return undefined;
  if (n.length > 100) throw new InvalidInput("name is longer than 100", "name");
  return n;
}

/** argon2id, computed outside the writer's transaction (it is deliberately slow). */
export function hashPassword(pw: string): Promise<string> {
  checkPassword(pw);
  return Bun.password.hash(pw, { algorithm: "argon2id" });
}

export interface UserRow {
  id: number;
  email: string;
  name: string | null;
  password_hash: string | null;
  created_at: string;
}

export function findUserByEmail(tx: Pick<Tx, "execute">, email: string): Promise<UserRow | undefined> {
  return userByEmail(tx, email);
}

export function findUserById(tx: Pick<Tx, "execute">, id: number): Promise<UserRow | undefined> {
  return userById(tx, id);
}

export async function findRole(
  tx: Pick<Tx, "execute">,
  orgId: number,
  userId: number,
): Promise<Role | undefined> {
  return (await roleOf(tx, orgId, userId)) as Role | undefined;
}

const userStream = (id: number) => ({ orgId: null, streamType: "user" as const, streamId: String(id) });
const membershipStream = (orgId: number, userId: number) => ({
  orgId,
  streamType: "membership" as const,
  streamId: `${orgId}:${userId}`,
});

/** Events that register a user, or update name/password of the existing one. */
export function decideUser(
  existing: UserRow | undefined,
  id: number,
  email: string,
  opts: { name?: string; passwordHash?: string },
  now: Date,
): NewEvent[] {
  const events: NewEvent[] = [];
  if (!existing) {
    events.push({
      type: "UserRegistered",
      ...userStream(id),
      data: { id, email, ...(opts.name ? { name: opts.name } : {}), created_at: now.toISOString() },
    });
  } else if (opts.name && opts.name !== existing.name) {
    events.push({ type: "UserNameChanged", ...userStream(id), data: { name: opts.name } });
  }
  if (opts.passwordHash)
    events.push({ type: "UserPasswordSet", ...userStream(id), data: { password_hash: opts.passwordHash } });
  return events;
}

/** Events that make a user a member with a role (or change the role). */
export function decideMembership(
  orgId: number,
  userId: number,
  current: Role | undefined,
  role: Role,
  now: Date,
): NewEvent[] {
  if (current === role) return [];
  if (current === undefined)
    return [
      {
        type: "MembershipGranted",
        ...membershipStream(orgId, userId),
        data: { user_id: userId, role, joined_at: now.toISOString() },
      },
    ];
  return [
    { type: "MembershipRoleChanged", ...membershipStream(orgId, userId), data: { user_id: userId, role } },
  ];
}

export interface AddMember {
  org: string;
  email: string;
  role: string;
  name?: string;
  /** Plain password; hashed before the write. */
  password?: string;
}

/** A membership to grant, its fields checked and the password hashed (argon2id is slow: it is computed
 * before the write). */
export interface GrantMembership {
  org: string;
  /** Normalized (normalizeEmail). */
  email: string;
  role: Role;
  name?: string;
  passwordHash?: string;
}

export interface MembershipGrant {
  org: OrgState | undefined;
  existing: UserRow | undefined;
  /** The existing user's id, or a new one. */
  userId: number;
  current: Role | undefined;
}

export const addMemberCommand: Command<
  GrantMembership,
  MembershipGrant,
  { user_id: number; org: string; email: string; role: Role; created: boolean },
  Actor
> = {
  load: async (w, cmd) => {
    const org = await findOrg(w.tx, cmd.org);
    const existing = await findUserByEmail(w.tx, cmd.email);
    const userId = existing ? existing.id : await w.nextId();
    const current = existing && org ? await findRole(w.tx, org.id, userId) : undefined;
    return { org, existing, userId, current };
  },
  decide: (st, cmd, { now }) => {
    const org = orgNamed(st.org, cmd.org);
    const events = [
      ...decideUser(
        st.existing,
        st.userId,
        cmd.email,
        { name: cmd.name, passwordHash: cmd.passwordHash },
        now,
      ),
      ...decideMembership(org.id, st.userId, st.current, cmd.role, now),
    ];
    return {
      events,
      result: { user_id: st.userId, org: org.slug, email: cmd.email, role: cmd.role, created: !st.existing },
    };
  },
};

/** `rivals member add`: creates the user if needed, sets the password when given, grants the membership. */
export async function addMember(store: EventStore, cmd: AddMember, by: Issuer<Actor> = OPERATOR) {
  const email = normalizeEmail(cmd.email);
  if (!isRole(cmd.role)) throw new InvalidInput(`role must be one of ${ROLES.join(", ")}`, "role");
  const name = checkName(cmd.name);
  const passwordHash = cmd.password === undefined ? undefined : await hashPassword(cmd.password);
  return runCommand(store, addMemberCommand, { org: cmd.org, email, role: cmd.role, name, passwordHash }, by);
}

export interface MemberView {
  user_id: number;
  email: string;
  name?: string;
  role: Role;
  joined_at: string;
}

/** The people of one org, admins first, then by join time. */
export async function listMembers(client: Pick<Tx, "execute">, orgId: number): Promise<MemberView[]> {
  return (await memberRows(client, orgId)).map((m) => ({ ...m, role: m.role as Role }));
}
