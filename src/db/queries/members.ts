// Who belongs where, as sign-in asks it.
import type { Exec } from "../client.ts";

/** Whether the user belongs to any workspace (memberships_by_user). */
export async function hasMembership(db: Exec, userId: number): Promise<boolean> {
  const r = await db.execute({ sql: "SELECT 1 FROM memberships WHERE user_id = ? LIMIT 1", args: [userId] });
  return r.rows.length > 0;
}
