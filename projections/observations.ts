// A cycle's observations on the competitor's dossier (CompetitorObserved): the reads its changed sources changed,
// what each page names now (kept internal), and when the competitor's state and signals last moved (`freshness`).
import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";
import type { CompetitorRecord } from "../src/domain/records.ts";
import { writeCompetitor } from "./competitors.ts";

export async function projectObservations(e: StoredEvent, tx: Tx): Promise<void> {
  if (e.type !== "CompetitorObserved") return;
  const d = e.data;
  const r = await tx.execute({
    sql: "SELECT org_id, key, state FROM competitors WHERE id = ?",
    args: [d.competitor_id],
  });
  const row = r.rows[0];
  if (!row) return;
  const record = JSON.parse(String(row.state)) as CompetitorRecord;
  const reads: Record<string, unknown> = { ...(record.reads ?? {}), ...(d.reads ?? {}) };
  for (const k of d.removed ?? []) delete reads[k];
  const next = { ...record, ...(d.profile ?? {}), reads } as CompetitorRecord & Record<string, unknown>;
  for (const k of d.profile_removed ?? []) delete next[k];
  if (Object.keys(reads).length === 0) delete next.reads;
  if (d.read_sources) next.internal = { ...(next.internal ?? {}), read_sources: d.read_sources };
  if (d.profile_evidence) next.internal = { ...(next.internal ?? {}), profile_evidence: d.profile_evidence };
  const freshness = { ...(record.freshness ?? {}) };
  if (d.reads || d.removed || d.profile || d.profile_removed) freshness.state_updated_at = d.observed_at;
  if (d.last_signal_at) freshness.last_signal_at = d.last_signal_at;
  next.freshness = freshness;
  await writeCompetitor(tx, Number(row.org_id), d.competitor_id, String(row.key), next);
}
