// A signed-in person changes their own password (the Account page, docs/members.md): the current password
// must match, the new one follows the password rules (8–200 characters) and is stored only as an argon2id
// hash through UserPasswordSet, and the person's other sessions end in the same transaction.
import { type Actor, type Command, type Decision, runCommand } from "../../events/command.ts";
import type { EventStore, Tx } from "../../events/store.ts";
import { userWithVersion } from "../db/queries/members.ts";
import { deleteOtherSessions } from "../db/sessions.ts";
import { DomainError } from "./errors.ts";
import {
  checkPassword,
  decideUser,
  findUserById,
  hashPassword,
  PASSWORD_MAX,
  type UserRow,
} from "./members.ts";

export interface PasswordChange {
  userId: number;
  /** The session making the change (its row key); it stays signed in. */
  sessionId: string;
  current: string;
  next: string;
}

/** `read` is a database client for the checks made before the write (the password verification). */
export async function changePassword(
  store: EventStore,
  read: Pick<Tx, "execute">,
  cmd: PasswordChange,
): Promise<{ endedSessions: number }> {
  checkPassword(cmd.next);
  const user = await findUserById(read, cmd.userId);
  if (!user) throw new DomainError("not_found", "This account no longer exists.");
  if (!user.password_hash)
    throw new DomainError("conflict", "This account signs in with single sign-on and has no password here.");
  const hashBefore = user.password_hash;
  // argon2id work happens outside the writer's transaction (it is deliberately slow).
  const ok = cmd.current.length <= PASSWORD_MAX && (await Bun.password.verify(cmd.current, hashBefore));
  if (!ok) throw new DomainError("invalid_argument", "The current password is not correct.");
  const passwordHash = await hashPassword(cmd.next);
  return runCommand(
    store,
    setPassword,
    { userId: cmd.userId, keepSession: cmd.sessionId, hashBefore, passwordHash },
    { caller: { actor: `user:${cmd.userId}` } },
  );
}

/** A new password's hash for a user whose current hash was verified (`hashBefore`); the user's other
 * sessions end with it. */
export interface SetPassword {
  userId: number;
  /** The session that stays signed in (its row key); "" ends every session. */
  keepSession: string;
  /** The hash the current password was checked against; absent when no check was asked (the operator). */
  hashBefore?: string;
  passwordHash: string;
}

export function decideSetPassword(
  user: UserRow | undefined,
  cmd: SetPassword,
  now: Date,
): Decision<{ endedSessions: number }> {
  if (!user) throw new DomainError("not_found", "This account no longer exists.");
  // Checked against the hash that was verified: a change made meanwhile is not overwritten unseen.
  if (cmd.hashBefore !== undefined && user.password_hash !== cmd.hashBefore)
    throw new DomainError("conflict", "The password was changed meanwhile. Sign in again and retry.");
  return {
    events: decideUser(user, user.id, user.email, { passwordHash: cmd.passwordHash }, now),
    result: { endedSessions: 0 },
  };
}

export const setPassword: Command<
  SetPassword,
  (UserRow & { version: number }) | undefined,
  { endedSessions: number },
  Actor
> = {
  load: (w, cmd) => userWithVersion(w.tx, cmd.userId),
  stream: (u) => (u ? { streamType: "user", streamId: String(u.id), version: u.version } : undefined),
  decide: (user, cmd, { now }) => decideSetPassword(user, cmd, now),
  // In the same transaction: whoever knew the old password is signed out exactly when the new one is set.
  write: async (w, _user, cmd, result) => ({
    ...result,
    endedSessions: await deleteOtherSessions(w.tx, cmd.userId, cmd.keepSession),
  }),
};
