// A workspace's watchlist as its commands read it: the org's plan, its competitors and their monitored pages.
import { streamVersionSql } from "../../../events/command.ts";
import type { Exec } from "../client.ts";

/** A workspace's id, plan and creation time. */
export async function orgPlanRow(db: Exec, orgId: number) {
  const r = await db.execute({ sql: "SELECT id, plan, created_at FROM orgs WHERE id = ?", args: [orgId] });
  const row = r.rows[0];
  return row ? { id: Number(row.id), plan: String(row.plan), created_at: String(row.created_at) } : undefined;
}

/** A competitor the workspace lists, as a `competitors` row (with `version`, its stream's version too). */
export async function listedCompetitorRow(db: Exec, orgId: number, id: number, version: boolean) {
  const v = version ? `, ${streamVersionSql("competitor", "id")} AS version` : "";
  const r = await db.execute({
    sql: `SELECT id, key, name, website_url, watch, tracking, state${v}
          FROM competitors WHERE id = ? AND org_id = ? AND listed = 1`,
    args: [id, orgId],
  });
  return r.rows[0] as Record<string, unknown> | undefined;
}

/** Where a page of competitors with a website ended: the next page starts after it. */
export interface WebsiteCursor {
  websiteUrl: string;
  id: number;
}

/** Competitors a page of `competitorRowsWithWebsite` holds at most. */
export const WEBSITE_PAGE = 500;

/** A page of the workspace's competitors that have a website, whatever their tracking, by website and id
 * (competitors_by_website gives the order), after `after`; the caller reads the next page from its last row
 * until a page comes back short. */
export async function competitorRowsWithWebsite(
  db: Exec,
  orgId: number,
  after?: WebsiteCursor,
  limit = WEBSITE_PAGE,
) {
  const r = after
    ? await db.execute({
        sql: `SELECT id, key, name, website_url, watch, tracking, state FROM competitors
              WHERE org_id = ? AND website_url IS NOT NULL AND (website_url, id) > (?, ?)
              ORDER BY website_url, id LIMIT ?`,
        args: [orgId, after.websiteUrl, after.id, limit],
      })
    : await db.execute({
        sql: `SELECT id, key, name, website_url, watch, tracking, state FROM competitors
              WHERE org_id = ? AND website_url IS NOT NULL ORDER BY website_url, id LIMIT ?`,
        args: [orgId, limit],
      });
  return r.rows as unknown as Record<string, unknown>[];
}

/** Whether a competitor of the workspace has this record key. */
export async function competitorKeyTaken(db: Exec, orgId: number, key: string): Promise<boolean> {
  const r = await db.execute({
    sql: "SELECT 1 FROM competitors WHERE org_id = ? AND key = ?",
    args: [orgId, key],
  });
  return !!r.rows[0];
}

/** A competitor's monitored pages in the order they were added (the plan bounds how many). */
export async function monitoredPageRows(db: Exec, orgId: number, competitorId: number) {
  const r = await db.execute({
    sql: "SELECT id, url, added_at, render, url_key FROM monitored_pages WHERE org_id = ? AND competitor_id = ? ORDER BY id",
    args: [orgId, competitorId],
  });
  return r.rows.map((x) => ({
    id: Number(x.id),
    url: String(x.url),
    added_at: String(x.added_at),
    render: Number(x.render) === 1,
    url_key: String(x.url_key),
  }));
}

/** One monitored page of a competitor, by its id or else by its URL's key. */
export async function monitoredPage(
  db: Exec,
  orgId: number,
  competitorId: number,
  by: { id: number } | { urlKey: string },
) {
  const r =
    "id" in by
      ? await db.execute({
          sql: "SELECT id, url, added_at FROM monitored_pages WHERE id = ? AND org_id = ? AND competitor_id = ?",
          args: [by.id, orgId, competitorId],
        })
      : await db.execute({
          sql: "SELECT id, url, added_at FROM monitored_pages WHERE url_key = ? AND org_id = ? AND competitor_id = ?",
          args: [by.urlKey, orgId, competitorId],
        });
  const row = r.rows[0];
  return row ? { id: Number(row.id), url: String(row.url), added_at: String(row.added_at) } : undefined;
}
