// Each competitor's check in a monitoring cycle (the dossier's `freshness`: when its sources were last checked,
// when one last changed, and the sources failing now). The cycles table is the cycle's own record, written by
// src/engine/cycle/record.ts outside the log through src/db/cycleRecords.ts; CycleStarted / CycleFinished are only
// in logs written before that, and imports and rebuilds of them fill the same rows through the same statements
// (which is why the table is not emptied by a rebuild).
import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";
import { finishCycleRow, insertCycle } from "../src/db/cycleRecords.ts";
import type { CompetitorRecord } from "../src/domain/records.ts";
import { competitorFreshnessDoc } from "./docs.ts";

type Freshness = NonNullable<CompetitorRecord["freshness"]> & Record<string, unknown>;

export async function projectCycles(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "CycleStarted": {
      const d = e.data;
      await insertCycle(tx, {
        id: d.cycle_id,
        orgId: e.orgId,
        trigger: d.trigger,
        slot: d.slot ?? null,
        competitorId: d.competitor_id ?? null,
        startedAt: d.started_at,
        holder: null,
        expiresAt: null,
      });
      break;
    }
    case "CycleFinished": {
      const d = e.data;
      await finishCycleRow(tx, d.cycle_id, d.finished_at, JSON.stringify(d.summary));
      break;
    }
    case "CompetitorChecked": {
      const d = e.data;
      // Only the freshness changes: that part of the stored record and of its detail document is read and
      // replaced in place (the same bytes a rewrite of the whole record would give), not the whole competitor.
      const r = await tx.execute({
        sql: "SELECT json_extract(state, '$.freshness') AS f FROM competitors WHERE id = ?",
        args: [d.competitor_id],
      });
      const row = r.rows[0];
      if (!row) return;
      const f: Freshness = row.f == null ? {} : JSON.parse(String(row.f));
      f.last_snapshot_at = d.checked_at;
      f.last_checked_at = d.checked_at;
      if (d.changed > 0) f.last_changed_at = d.checked_at;
      f.sources = { checked: d.sources, changed: d.changed, failed: d.failed };
      if (d.failing?.length) f.source_failures = d.failing;
      else delete f.source_failures;
      if (d.job_board) {
        // The board the careers page names now replaces the one research found (research replaces both).
        await tx.execute({
          sql: "DELETE FROM research_sources WHERE competitor_id = ? AND kind LIKE 'job_board:%'",
          args: [d.competitor_id],
        });
        await tx.execute({
          sql: `INSERT INTO research_sources (org_id, competitor_id, url, kind, discovered_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (competitor_id, url) DO UPDATE SET kind = excluded.kind`,
          args: [e.orgId, d.competitor_id, d.job_board.url, d.job_board.kind, d.checked_at],
        });
      }
      await tx.execute({
        sql: `UPDATE competitors SET state = json_set(state, '$.freshness', json(?)),
                detail_doc = json_set(detail_doc, '$.freshness', json(?)) WHERE id = ?`,
        args: [JSON.stringify(f), JSON.stringify(competitorFreshnessDoc(f)), d.competitor_id],
      });
      break;
    }
  }
}
