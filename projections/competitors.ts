import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";
import type { CompetitorRecord } from "../src/domain/records.ts";
import { competitorDetailDoc, competitorSummaryDoc } from "./docs.ts";

const NO_PRIORITY = 2_147_483_647;

/** Writes a competitor row and, when its visibility or name changed, the rows that copy them. */
export async function writeCompetitor(tx: Tx, orgId: number, id: number, key: string, r: CompetitorRecord) {
  const prev = await tx.execute({ sql: "SELECT name, listed FROM competitors WHERE id = ?", args: [id] });
  const listed = r.tracking === "active" ? 1 : 0;
  await tx.execute({
    sql: `INSERT INTO competitors (id, org_id, key, name, website_url, watch, tracking, listed, priority_sort, tracked_sort,
            state, summary_doc, detail_doc)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (id) DO UPDATE SET key = excluded.key, name = excluded.name, website_url = excluded.website_url,
            watch = excluded.watch, tracking = excluded.tracking, listed = excluded.listed,
            priority_sort = excluded.priority_sort, tracked_sort = excluded.tracked_sort, state = excluded.state,
            summary_doc = excluded.summary_doc, detail_doc = excluded.detail_doc`,
    args: [
      id,
      orgId,
      key,
      r.name,
      r.website_url ?? null,
      r.watch,
      r.tracking,
      listed,
      r.priority ?? NO_PRIORITY,
      r.tracked_since ?? "9999",
      JSON.stringify(r),
      JSON.stringify(competitorSummaryDoc(id, r)),
      JSON.stringify(competitorDetailDoc(id, r)),
    ],
  });
  const old = prev.rows[0];
  if (old && old.name === r.name && Number(old.listed) === listed) return;
  await tx.execute({
    sql: `UPDATE signals SET visible = ?1, listed = (?1 = 1 AND status = 'open'), competitor_name = ?2,
            doc = json_set(doc, '$.competitor_name', ?2) WHERE competitor_id = ?3`,
    args: [listed, r.name, id],
  });
  await tx.execute({
    sql: `UPDATE battlecards SET visible = ?1, listed = (?1 = 1 AND status = 'generated'), competitor_name = ?2,
            doc = json_set(doc, '$.competitor_name', ?2) WHERE competitor_id = ?3`,
    args: [listed, r.name, id],
  });
}

export async function projectCompetitors(e: StoredEvent, tx: Tx): Promise<void> {
  if (e.type === "CompetitorRecorded")
    await writeCompetitor(tx, e.orgId!, e.data.id, e.data.key, e.data.record);
}
