// A workspace by its id or slug: its slug, id and plan.
import type { Exec } from "../client.ts";

/** A workspace's id by its slug. */
export async function orgIdBySlug(db: Exec, slug: string): Promise<number | undefined> {
  const r = await db.execute({ sql: "SELECT id FROM orgs WHERE slug = ?", args: [slug] });
  return r.rows[0] ? Number(r.rows[0].id) : undefined;
}

/** A workspace's slug by its id. */
export async function orgSlugById(db: Exec, orgId: number): Promise<string | undefined> {
  const r = await db.execute({ sql: "SELECT slug FROM orgs WHERE id = ?", args: [orgId] });
  return r.rows[0] ? String(r.rows[0].slug) : undefined;
}

/** The workspace's plan (undefined when there is no such workspace). */
export async function planOfOrg(db: Exec, orgId: number): Promise<string | undefined> {
  const r = await db.execute({ sql: "SELECT plan FROM orgs WHERE id = ?", args: [orgId] });
  return r.rows[0] ? String(r.rows[0].plan) : undefined;
}
