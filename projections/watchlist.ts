// The core watchlist's own events: competitors added, renamed, removed and restored by the tools, and the
// extra pages watched on them. Competitor rows go through writeCompetitor, so the names and visibility that
// signals and battlecards copy stay in step.
import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";
import type { CompetitorRecord } from "../src/domain/records.ts";
import { writeCompetitor } from "./competitors.ts";

async function current(tx: Tx, id: number): Promise<{ key: string; record: CompetitorRecord } | undefined> {
  const r = await tx.execute({ sql: "SELECT key, state FROM competitors WHERE id = ?", args: [id] });
  const row = r.rows[0];
  return row ? { key: String(row.key), record: JSON.parse(String(row.state)) } : undefined;
}

async function update(
  tx: Tx,
  orgId: number,
  id: number,
  change: (r: CompetitorRecord) => CompetitorRecord,
): Promise<void> {
  const c = await current(tx, id);
  if (c) await writeCompetitor(tx, orgId, id, c.key, change(c.record));
}

export async function projectWatchlist(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "CompetitorAdded":
      await writeCompetitor(tx, e.orgId!, e.data.id, e.data.key, {
        name: e.data.name,
        website_url: e.data.website_url,
        watch: "core",
        tracking: "active",
        tracked_since: e.data.added_at,
      });
      break;
    case "CompetitorRenamed":
      await update(tx, e.orgId!, e.data.id, (r) => ({ ...r, name: e.data.name }));
      break;
    case "CompetitorRemoved":
      await update(tx, e.orgId!, e.data.id, (r) => ({ ...r, tracking: "removed" }));
      break;
    case "CompetitorRestored":
      await update(tx, e.orgId!, e.data.id, (r) => ({ ...r, watch: "core", tracking: "active" }));
      break;
    case "MonitoredPageAdded":
      await tx.execute({
        sql: `INSERT INTO monitored_pages (id, org_id, competitor_id, url, url_key, added_at, render)
              VALUES (?, ?, ?, ?, ?, ?, ?)`,
        args: [
          e.data.id,
          e.orgId,
          e.data.competitor_id,
          e.data.url,
          e.data.url_key,
          e.data.added_at,
          e.data.render ? 1 : 0,
        ],
      });
      break;
    case "MonitoredPageRemoved":
      await tx.execute({ sql: "DELETE FROM monitored_pages WHERE id = ?", args: [e.data.id] });
      break;
  }
}
