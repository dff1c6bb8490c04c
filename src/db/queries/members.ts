// Who belongs where, as sign-in asks it.
import { streamVersionSql } from "../../../events/command.ts";
import type { Exec } from "../client.ts";

/** Whether the user belongs to any workspace (memberships_by_user). */
export async function hasMembership(db: Exec, userId: number): Promise<boolean> {
  const r = await db.execute({ sql: "SELECT 1 FROM memberships WHERE user_id = ? LIMIT 1", args: [userId] });
  return r.rows.length > 0;
}

/** How many admins a workspace has (a change never leaves it without one). */
export async function adminCount(db: Exec, orgId: number): Promise<number> {
  const r = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM memberships WHERE org_id = ? AND role = 'admin'",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}

function toUser(row: Record<string, unknown>) {
  return {
    id: Number(row.id),
    email: String(row.email),
    name: row.name === null ? null : String(row.name),
    password_hash: row.password_hash === null ? null : String(row.password_hash),
    created_at: String(row.created_at),
  };
}

/** A user by email (users' unique email index). */
export async function userByEmail(db: Exec, email: string) {
  const r = await db.execute({
    sql: "SELECT id, email, name, password_hash, created_at FROM users WHERE email = ?",
    args: [email],
  });
  return r.rows[0] ? toUser(r.rows[0] as Record<string, unknown>) : undefined;
}

/** A user by id. */
export async function userById(db: Exec, id: number) {
  const r = await db.execute({
    sql: "SELECT id, email, name, password_hash, created_at FROM users WHERE id = ?",
    args: [id],
  });
  return r.rows[0] ? toUser(r.rows[0] as Record<string, unknown>) : undefined;
}

/** A user by id with the version of their stream, for a command whose decision rests on the user alone. */
export async function userWithVersion(db: Exec, id: number) {
  const r = await db.execute({
    sql: `SELECT id, email, name, password_hash, created_at, ${streamVersionSql("user", "id")} AS version
          FROM users WHERE id = ?`,
    args: [id],
  });
  const row = r.rows[0] as Record<string, unknown> | undefined;
  return row ? { ...toUser(row), version: Number(row.version) } : undefined;
}

/** A person's role in a workspace, if they are a member. */
export async function roleOf(db: Exec, orgId: number, userId: number): Promise<string | undefined> {
  const r = await db.execute({
    sql: "SELECT role FROM memberships WHERE org_id = ? AND user_id = ?",
    args: [orgId, userId],
  });
  return r.rows[0] ? String(r.rows[0].role) : undefined;
}

/** Members a page of `memberPage` holds at most. */
export const MEMBER_PAGE = 200;

/** A page of the people of one org, by user id after `afterUserId` (the memberships key gives the order). */
export async function memberPage(db: Exec, orgId: number, afterUserId = 0, limit = MEMBER_PAGE) {
  const r = await db.execute({
    sql: `SELECT u.id, u.email, u.name, m.role, m.joined_at FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.org_id = ? AND m.user_id > ? ORDER BY m.user_id LIMIT ?`,
    args: [orgId, afterUserId, limit],
  });
  return r.rows.map((row) => ({
    user_id: Number(row.id),
    email: String(row.email),
    ...(row.name === null ? {} : { name: String(row.name) }),
    role: String(row.role),
    joined_at: String(row.joined_at),
  }));
}

/** The people of one org, admins first, then by join time: read a page at a time (a workspace's seats bound
 * how many there are, but the operator may add people past them). */
export async function memberRows(db: Exec, orgId: number) {
  const all: Awaited<ReturnType<typeof memberPage>> = [];
  for (let after = 0; ; ) {
    const page = await memberPage(db, orgId, after);
    all.push(...page);
    if (page.length < MEMBER_PAGE) break;
    after = page[page.length - 1].user_id;
  }
  const admin = (m: { role: string }) => (m.role === "admin" ? 0 : 1);
  return all.sort(
    (a, b) =>
      admin(a) - admin(b) ||
      (a.joined_at < b.joined_at ? -1 : a.joined_at > b.joined_at ? 1 : 0) ||
      a.user_id - b.user_id,
  );
}
