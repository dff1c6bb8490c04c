// A workspace's invitations as the invitation commands and the Members page read them.
import type { Exec } from "../client.ts";

/** The ids of a workspace's pending invitations to one address (a new one replaces them). */
export async function pendingInvitationIds(db: Exec, orgId: number, email: string): Promise<number[]> {
  const r = await db.execute({
    sql: "SELECT id FROM invitations WHERE org_id = ? AND email = ? AND status = 'pending'",
    args: [orgId, email],
  });
  return r.rows.map((row) => Number(row.id));
}

/** Seats a workspace's members and its pending, unexpired invitations to other addresses than `email` take. */
export async function seatsTaken(db: Exec, orgId: number, email: string, nowIso: string): Promise<number> {
  const r = await db.execute({
    sql: `SELECT (SELECT COUNT(*) FROM memberships WHERE org_id = ?) +
                 (SELECT COUNT(*) FROM invitations WHERE org_id = ? AND status = 'pending' AND expires_at > ? AND email <> ?) AS n`,
    args: [orgId, orgId, nowIso, email],
  });
  return Number(r.rows[0].n);
}

/** The status of an invitation of this org, if it has one by that id. */
export async function invitationStatusOf(db: Exec, orgId: number, id: number): Promise<string | undefined> {
  const r = await db.execute({
    sql: "SELECT status FROM invitations WHERE id = ? AND org_id = ?",
    args: [id, orgId],
  });
  return r.rows[0] ? String(r.rows[0].status) : undefined;
}

/** Pending, unexpired invitations of one org, newest first (a workspace's seats bound them). */
export async function pendingInvitationRows(db: Exec, orgId: number, nowIso: string) {
  const r = await db.execute({
    sql: `SELECT id, email, role, invited_by, created_at, expires_at FROM invitations
          WHERE org_id = ? AND status = 'pending' AND expires_at > ? ORDER BY created_at DESC, id DESC`,
    args: [orgId, nowIso],
  });
  return r.rows.map((row) => ({
    id: Number(row.id),
    email: String(row.email),
    invited_by: row.invited_by === null ? null : String(row.invited_by),
    created_at: String(row.created_at),
    expires_at: String(row.expires_at),
  }));
}

/** The invitation with this token digest, its workspace and the invitee's existing account, if any. */
export async function invitationByTokenHash(db: Exec, tokenHash: string) {
  const r = await db.execute({
    sql: `SELECT i.id, i.org_id, i.email, i.invited_by, i.expires_at, i.status, o.slug, o.name,
                 u.id AS user_id, u.password_hash
          FROM invitations i JOIN orgs o ON o.id = i.org_id LEFT JOIN users u ON u.email = i.email
          WHERE i.token_hash = ?`,
    args: [tokenHash],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        orgId: Number(row.org_id),
        email: String(row.email),
        invitedBy: row.invited_by === null ? null : String(row.invited_by),
        expiresAt: String(row.expires_at),
        status: String(row.status),
        orgSlug: String(row.slug),
        orgName: String(row.name),
        userId: row.user_id === null ? null : Number(row.user_id),
        hasPassword: row.password_hash !== null,
      }
    : undefined;
}

/** Pending, unexpired invitations to one address, across workspaces (single sign-on accepts them all). */
export async function openInvitationsTo(db: Exec, email: string, nowIso: string) {
  const r = await db.execute({
    sql: "SELECT id, org_id FROM invitations WHERE email = ? AND status = 'pending' AND expires_at > ?",
    args: [email, nowIso],
  });
  return r.rows.map((row) => ({ id: Number(row.id), orgId: Number(row.org_id) }));
}
