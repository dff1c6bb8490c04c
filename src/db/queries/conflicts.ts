// The open signals that can disagree with one another about a fact (domain/conflicts.ts): a workspace's
// funding signals, newest first, read through the signals_by_type index and bounded.
import type { Client } from "@libsql/client";
import type { ClaimSignal } from "../../domain/conflicts.ts";

const MAX = 200;

/** The workspace's listed funding signals of the given competitors, by competitor. */
export async function fundingSignals(
  client: Client,
  orgId: number,
  competitorIds: readonly number[],
): Promise<Map<number, ClaimSignal[]>> {
  const out = new Map<number, ClaimSignal[]>();
  const wanted = new Set(competitorIds);
  if (wanted.size === 0) return out;
  const r = await client.execute({
    sql: `SELECT id, competitor_id, doc FROM signals
          WHERE org_id = ? AND listed = 1 AND json_extract(doc, '$.type') = 'funding'
          ORDER BY first_seen_at DESC, id DESC LIMIT ?`,
    args: [orgId, MAX],
  });
  for (const row of r.rows) {
    const cid = Number(row.competitor_id);
    if (!wanted.has(cid)) continue;
    const doc = JSON.parse(String(row.doc)) as { title?: string; summary?: string; first_seen_at?: string };
    const s: ClaimSignal = { id: Number(row.id), title: String(doc.title ?? "") };
    if (doc.summary) s.summary = doc.summary;
    if (doc.first_seen_at) s.first_seen_at = doc.first_seen_at;
    out.set(cid, [...(out.get(cid) ?? []), s]);
  }
  return out;
}
