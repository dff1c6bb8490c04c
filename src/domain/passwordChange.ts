// A signed-in person changes their own password (the Account page, docs/members.md): the current password
// must match, the new one follows the password rules (8–200 characters) and is stored only as an argon2id
// hash through UserPasswordSet, and the person's other sessions end in the same transaction.
import type { EventStore, Tx } from "../../events/store.ts";
import { endOtherSessionsIn } from "../auth/session.ts";
import { DomainError } from "./errors.ts";
import { checkPassword, decideUser, findUserById, hashPassword, PASSWORD_MAX } from "./members.ts";

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
  const { result } = await store.execute(
    async ({ tx, now }) => {
      const fresh = await findUserById(tx, cmd.userId);
      // Checked against the hash that was verified: a change made meanwhile is not overwritten unseen.
      if (!fresh || fresh.password_hash !== hashBefore)
        throw new DomainError("conflict", "The password was changed meanwhile. Sign in again and retry.");
      const events = decideUser(fresh, fresh.id, fresh.email, { passwordHash }, now);
      const endedSessions = await endOtherSessionsIn(tx, cmd.userId, cmd.sessionId);
      return { events, result: { endedSessions } };
    },
    { actor: `user:${cmd.userId}` },
  );
  return result;
}
