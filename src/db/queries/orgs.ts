// A workspace by its id or slug: its slug, id and plan.
import { streamVersionSql } from "../../../events/command.ts";
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

/** A workspace's record by its slug, as the deciders read it; with `version`, its stream's version too (for a
 * command whose decision rests on the org alone). */
export async function orgRecordBySlug(db: Exec, slug: string, opts: { version?: boolean } = {}) {
  const r = await db.execute({
    sql: `SELECT id, slug, name, plan, website_url, created_at${
      opts.version ? `, ${streamVersionSql("org", "id")} AS version` : ""
    } FROM orgs WHERE slug = ?`,
    args: [slug],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        slug: String(row.slug),
        name: String(row.name),
        plan: String(row.plan),
        website_url: row.website_url === null ? null : String(row.website_url),
        created_at: String(row.created_at),
        ...(opts.version ? { version: Number(row.version) } : {}),
      }
    : undefined;
}

/** A workspace's record and settings row (undefined when there is no such workspace). */
export async function workspaceSettingsRow(db: Exec, orgId: number, opts: { version?: boolean } = {}) {
  const r = await db.execute({
    sql: `SELECT o.id, o.slug, o.name, o.website_url, o.plan, w.profile, w.profile_updated_at, w.icp, w.icp_updated_at,
            w.cadence, w.email_delivery, w.slack_delivery, w.chat_connected_at, w.teams_delivery,
            w.teams_connected_at, w.delivery_rules, w.first_brief${
              opts.version ? `, ${streamVersionSql("org", "o.id")} AS version` : ""
            }
          FROM orgs o LEFT JOIN workspace_settings w ON w.id = o.id WHERE o.id = ?`,
    args: [orgId],
  });
  return r.rows[0];
}

/** The team-chat webhook URL a workspace connected for a provider, if any. */
export async function chatWebhookUrlOf(
  db: Exec,
  orgId: number,
  provider: "slack" | "teams",
): Promise<string | undefined> {
  const column = provider === "teams" ? "teams_webhook_url" : "chat_webhook_url";
  const r = await db.execute({
    sql: `SELECT ${column} AS url FROM workspace_settings WHERE id = ?`,
    args: [orgId],
  });
  const v = r.rows[0]?.url;
  return v === null || v === undefined ? undefined : String(v);
}

/** A workspace's slug, name and plan by its id. */
export async function orgSummaryById(db: Exec, orgId: number) {
  const r = await db.execute({ sql: "SELECT id, slug, name, plan FROM orgs WHERE id = ?", args: [orgId] });
  const row = r.rows[0];
  return row ? { slug: String(row.slug), name: String(row.name), plan: String(row.plan) } : undefined;
}
