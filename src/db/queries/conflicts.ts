// The open signals that can disagree with one another about a fact (domain/conflicts.ts): a workspace's
// funding signals, newest first, read through the signals_by_type index and bounded.
import type { ClaimSignal } from "../../domain/conflicts.ts";
import type { Exec } from "../client.ts";
import { selectSql } from "./localReader.ts";

const MAX = 200;

function claimOf(id: unknown, doc: unknown): ClaimSignal {
  const d = JSON.parse(String(doc)) as { title?: string; summary?: string; first_seen_at?: string };
  const s: ClaimSignal = { id: Number(id), title: String(d.title ?? "") };
  if (d.summary) s.summary = d.summary;
  if (d.first_seen_at) s.first_seen_at = d.first_seen_at;
  return s;
}

/** One competitor's listed funding signals, newest first (the dossier's round conflicts, read with it). */
export async function competitorFundingSignals(
  db: object,
  orgId: number,
  competitorId: number,
): Promise<ClaimSignal[]> {
  const rows = await selectSql<[number, string]>(
    db,
    `SELECT id, doc FROM signals
     WHERE org_id = ? AND listed = 1 AND json_extract(doc, '$.type') = 'funding' AND competitor_id = ?
     ORDER BY first_seen_at DESC, id DESC LIMIT ?`,
    [orgId, competitorId, MAX],
  );
  return rows.map(([id, doc]) => claimOf(id, doc));
}

/** The workspace's listed funding signals of the given competitors, by competitor. */
export async function fundingSignals(
  client: Exec,
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
    out.set(cid, [...(out.get(cid) ?? []), claimOf(row.id, row.doc)]);
  }
  return out;
}
