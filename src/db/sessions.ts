// Sign-in sessions (an operational table, only digests of their tokens) and what a session shows of its
// person: the user and their memberships. The rules (idle and hard ends, touching, cookies) are src/auth/session.ts.
import type { Exec } from "./client.ts";

/** Starts a session, first dropping every one that has ended. */
export async function insertSession(
  tx: Exec,
  s: { tokenHash: string; userId: number; csrfToken: string; at: string; expiresAt: string; via: string },
): Promise<void> {
  await tx.execute({ sql: "DELETE FROM sessions WHERE expires_at <= ?", args: [s.at] });
  await tx.execute({
    sql: `INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at, via)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
    args: [s.tokenHash, s.userId, s.csrfToken, s.at, s.at, s.expiresAt, s.via],
  });
}

export async function deleteSession(tx: Exec, tokenHash: string): Promise<void> {
  await tx.execute({ sql: "DELETE FROM sessions WHERE token_hash = ?", args: [tokenHash] });
}

/** Ends every session of a user but `keep`; how many ended. */
export async function deleteOtherSessions(tx: Exec, userId: number, keep: string): Promise<number> {
  const r = await tx.execute({
    sql: "DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?",
    args: [userId, keep],
  });
  return r.rowsAffected;
}

export async function touchSession(tx: Exec, tokenHash: string, lastSeenAt: string, expiresAt: string) {
  await tx.execute({
    sql: "UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE token_hash = ?",
    args: [lastSeenAt, expiresAt, tokenHash],
  });
}

export interface StoredSession {
  userId: number;
  csrfToken: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  email: string;
  name: string | null;
}

/** A session by its token's digest, with its user. */
export async function sessionByDigest(db: Exec, tokenHash: string): Promise<StoredSession | undefined> {
  const r = await db.execute({
    sql: `SELECT s.user_id, s.csrf_token, s.created_at, s.last_seen_at, s.expires_at, u.email, u.name
          FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`,
    args: [tokenHash],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    userId: Number(row.user_id),
    csrfToken: String(row.csrf_token),
    createdAt: String(row.created_at),
    lastSeenAt: String(row.last_seen_at),
    expiresAt: String(row.expires_at),
    email: String(row.email),
    name: row.name === null ? null : String(row.name),
  };
}

/** A user's address and name. */
export async function userById(
  db: Exec,
  userId: number,
): Promise<{ email: string; name: string | null } | undefined> {
  const r = await db.execute({ sql: "SELECT id, email, name FROM users WHERE id = ?", args: [userId] });
  const row = r.rows[0];
  if (!row) return undefined;
  return { email: String(row.email), name: row.name === null ? null : String(row.name) };
}

export interface UserMembership {
  orgId: number;
  orgSlug: string;
  orgName: string;
  plan: string;
  role: string;
  orgWebsite: string | null;
  orgCreatedAt: string;
}

/** A user's workspaces with their role in each, by name (memberships_by_user). */
export async function membershipsOf(db: Exec, userId: number): Promise<UserMembership[]> {
  const r = await db.execute({
    sql: `SELECT m.role, o.id, o.slug, o.name, o.plan, o.website_url, o.created_at
          FROM memberships m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = ? ORDER BY o.name, o.id`,
    args: [userId],
  });
  return r.rows.map((row) => ({
    orgId: Number(row.id),
    orgSlug: String(row.slug),
    orgName: String(row.name),
    plan: String(row.plan),
    role: String(row.role),
    orgWebsite: row.website_url === null ? null : String(row.website_url),
    orgCreatedAt: String(row.created_at),
  }));
}
