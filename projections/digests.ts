import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";
import { digestDoc } from "./docs.ts";

export async function projectDigests(e: StoredEvent, tx: Tx): Promise<void> {
  if (e.type !== "DigestRecorded") return;
  const { id, key, signal_ids, record: r } = e.data;
  // Newest coverage period first: the end of the period, then its start, then when it was written.
  const periodSort = r.coverage_period_end ?? r.coverage_period_start ?? r.generated_at ?? "";
  await tx.execute({
    sql: `INSERT INTO digests (id, org_id, key, slug, type, status, listed, period_sort, generated_at, state, list_doc, doc)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (id) DO UPDATE SET key = excluded.key, slug = excluded.slug, type = excluded.type,
            status = excluded.status, listed = excluded.listed, period_sort = excluded.period_sort,
            generated_at = excluded.generated_at, state = excluded.state, list_doc = excluded.list_doc, doc = excluded.doc`,
    args: [
      id,
      e.orgId,
      key,
      r.slug ?? null,
      r.type,
      r.status,
      r.status === "generated" ? 1 : 0,
      periodSort,
      r.generated_at ?? null,
      JSON.stringify({ ...r, signal_ids }),
      JSON.stringify(digestDoc(id, r, signal_ids, false)),
      JSON.stringify(digestDoc(id, r, signal_ids, true)),
    ],
  });
}
