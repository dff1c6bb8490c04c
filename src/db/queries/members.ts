// Who belongs where, as sign-in asks it.
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
