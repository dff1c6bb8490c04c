import type { Client } from "@libsql/client";
// Embedded as text so the compiled binary carries its own migrations.
import m0001 from "./migrations/0001_init.sql" with { type: "text" };
import m0002 from "./migrations/0002_mcp.sql" with { type: "text" };
import m0003 from "./migrations/0003_workspace.sql" with { type: "text" };
import m0004 from "./migrations/0004_engagement.sql" with { type: "text" };
import m0005 from "./migrations/0005_members.sql" with { type: "text" };
import m0006 from "./migrations/0006_oauth.sql" with { type: "text" };
import m0010 from "./migrations/0010_free_briefs.sql" with { type: "text" };
import m0011 from "./migrations/0011_connected_apps.sql" with { type: "text" };
import m0012 from "./migrations/0012_idempotency_claims.sql" with { type: "text" };
import m0013 from "./migrations/0013_research.sql" with { type: "text" };
import m0014 from "./migrations/0014_snapshots.sql" with { type: "text" };
import m0015 from "./migrations/0015_signals_engine.sql" with { type: "text" };
import m0016 from "./migrations/0016_cycles.sql" with { type: "text" };
import m0017 from "./migrations/0017_cycles_body_hash.sql" with { type: "text" };
import m0018 from "./migrations/0018_delivery.sql" with { type: "text" };
import m0019 from "./migrations/0019_demo_sites.sql" with { type: "text" };
import m0021 from "./migrations/0021_data_changes.sql" with { type: "text" };
import m0022 from "./migrations/0022_note_counts.sql" with { type: "text" };
import m0023 from "./migrations/0023_cycle_research_leases.sql" with { type: "text" };
import m0024 from "./migrations/0024_snapshot_digests.sql" with { type: "text" };
import m0025 from "./migrations/0025_idempotency_leases.sql" with { type: "text" };
import m0026 from "./migrations/0026_free_brief_answers.sql" with { type: "text" };
import m0027 from "./migrations/0027_demo_queued_advance.sql" with { type: "text" };
import m0028 from "./migrations/0028_shared_limits.sql" with { type: "text" };
import m0029 from "./migrations/0029_free_brief_email_retry.sql" with { type: "text" };
import m0040 from "./migrations/0040_monitored_page_render.sql" with { type: "text" };
import m0050 from "./migrations/0050_signal_facets.sql" with { type: "text" };
import m0055 from "./migrations/0055_archive_history.sql" with { type: "text" };
import m0060 from "./migrations/0060_competitor_icons.sql" with { type: "text" };
import m0070 from "./migrations/0070_free_brief_optin.sql" with { type: "text" };
import m0080 from "./migrations/0080_webhooks.sql" with { type: "text" };
import m0090 from "./migrations/0090_source_rendered.sql" with { type: "text" };
import m0092 from "./migrations/0092_robots_cache.sql" with { type: "text" };
import m0093 from "./migrations/0093_teams_delivery.sql" with { type: "text" };
import m0094 from "./migrations/0094_feeds.sql" with { type: "text" };
import m0095 from "./migrations/0095_delivery_rules.sql" with { type: "text" };
import m0096 from "./migrations/0096_cycle_shares.sql" with { type: "text" };
import m0097 from "./migrations/0097_instance_settings.sql" with { type: "text" };
import m0098 from "./migrations/0098_maintenance_claims.sql" with { type: "text" };
import m0099 from "./migrations/0099_source_hosts.sql" with { type: "text" };
import m0100 from "./migrations/0100_host_turns.sql" with { type: "text" };

/** In order. `formerly`: the id a migration was recorded under before it was renumbered (two once shared
 * the number 0016); a database that applied it under that id does not run it again. */
const migrations: { id: string; sql: string; formerly?: string }[] = [
  { id: "0001_init", sql: m0001 },
  { id: "0002_mcp", sql: m0002 },
  { id: "0003_workspace", sql: m0003 },
  { id: "0004_engagement", sql: m0004 },
  { id: "0005_members", sql: m0005 },
  { id: "0006_oauth", sql: m0006 },
  { id: "0010_free_briefs", sql: m0010 },
  { id: "0011_connected_apps", sql: m0011 },
  { id: "0012_idempotency_claims", sql: m0012 },
  { id: "0013_research", sql: m0013 },
  { id: "0014_snapshots", sql: m0014 },
  { id: "0015_signals_engine", sql: m0015 },
  { id: "0016_cycles", sql: m0016 },
  { id: "0017_cycles_body_hash", sql: m0017, formerly: "0016_cycles_body_hash" },
  { id: "0018_delivery", sql: m0018 },
  { id: "0019_demo_sites", sql: m0019 },
  { id: "0021_data_changes", sql: m0021 },
  { id: "0022_note_counts", sql: m0022 },
  { id: "0023_cycle_research_leases", sql: m0023 },
  { id: "0024_snapshot_digests", sql: m0024 },
  { id: "0025_idempotency_leases", sql: m0025 },
  { id: "0026_free_brief_answers", sql: m0026 },
  { id: "0027_demo_queued_advance", sql: m0027 },
  { id: "0028_shared_limits", sql: m0028 },
  { id: "0029_free_brief_email_retry", sql: m0029 },
  { id: "0040_monitored_page_render", sql: m0040 },
  { id: "0050_signal_facets", sql: m0050 },
  { id: "0055_archive_history", sql: m0055 },
  { id: "0060_competitor_icons", sql: m0060 },
  { id: "0070_free_brief_optin", sql: m0070 },
  { id: "0080_webhooks", sql: m0080 },
  { id: "0090_source_rendered", sql: m0090 },
  { id: "0092_robots_cache", sql: m0092 },
  { id: "0093_teams_delivery", sql: m0093 },
  { id: "0094_feeds", sql: m0094 },
  { id: "0095_delivery_rules", sql: m0095 },
  { id: "0096_cycle_shares", sql: m0096 },
  { id: "0097_instance_settings", sql: m0097 },
  { id: "0098_maintenance_claims", sql: m0098 },
  { id: "0099_source_hosts", sql: m0099 },
  { id: "0100_host_turns", sql: m0100 },
];

/** Applies every migration not yet recorded, each in its own transaction. Returns the ids applied. */
export async function migrate(client: Client): Promise<string[]> {
  await client.execute(
    "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)",
  );
  const done = new Set(
    (await client.execute("SELECT id FROM schema_migrations")).rows.map((r) => String(r.id)),
  );
  const applied: string[] = [];
  for (const m of migrations) {
    const ids = m.formerly ? [m.id, m.formerly] : [m.id];
    if (ids.some((id) => done.has(id))) continue;
    const tx = await client.transaction("write");
    try {
      // Asked again inside the write transaction: instances starting at once on one server (sqld) take
      // turns here, and each migration runs once.
      const taken = await tx.execute({
        sql: `SELECT 1 FROM schema_migrations WHERE id IN (${ids.map(() => "?").join(", ")})`,
        args: ids,
      });
      if (taken.rows.length > 0) {
        await tx.commit();
        continue;
      }
      await tx.executeMultiple(m.sql);
      await tx.execute({
        sql: "INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)",
        args: [m.id, new Date().toISOString()],
      });
      await tx.commit();
      applied.push(m.id);
    } catch (e) {
      await tx.rollback();
      throw e;
    } finally {
      tx.close();
    }
  }
  return applied;
}
