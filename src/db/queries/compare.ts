// What the compare page reads: every tracked competitor's dossier with, per competitor, its newest material
// signal (medium or high, open or closed) and its newest open hiring-volume signal with the counts it records.
// One statement, bounded by the tracked-competitor limit; each per-competitor lookup walks that competitor's own
// signals (signals_of_competitor / signals_by_competitor), newest first, and stops at the first match.

import { LIST } from "../../domain/limits.ts";
import type { Exec } from "../client.ts";

type Obj = Record<string, unknown>;

export interface CompareSignal {
  id: number;
  title: string;
  at: string;
  severity?: string;
  type?: string;
  before?: string | null;
  after?: string | null;
}

export interface CompareSource {
  id: number;
  doc: Obj;
  material?: CompareSignal;
  hiring?: CompareSignal;
}

const SQL = `SELECT c.id, c.detail_doc,
  (SELECT json_object('id', s.id, 'title', s.title, 'at', s.first_seen_at, 'severity', s.severity)
     FROM signals s
    WHERE s.competitor_id = c.id AND s.org_id = c.org_id AND s.visible = 1 AND s.severity IN ('medium', 'high')
    ORDER BY s.first_seen_at DESC, s.id DESC LIMIT 1) AS material,
  (SELECT json_object('id', s.id, 'title', s.title, 'at', s.first_seen_at, 'type', json_extract(s.doc, '$.type'),
          'before', e.value_before, 'after', e.value_after)
     FROM signals s LEFT JOIN engine_signals e ON e.id = s.id AND e.org_id = s.org_id
    WHERE s.org_id = c.org_id AND s.competitor_id = c.id AND s.listed = 1
      AND json_extract(s.doc, '$.type') IN ('hiring_surge', 'hiring_slowdown')
    ORDER BY e.value_after IS NOT NULL DESC, s.first_seen_at DESC, s.id DESC LIMIT 1) AS hiring
FROM competitors c
WHERE c.org_id = ? AND c.listed = 1
ORDER BY c.priority_sort, c.tracked_sort, c.id
LIMIT ?`;

const parse = (v: unknown): CompareSignal | undefined =>
  typeof v === "string" ? (JSON.parse(v) as CompareSignal) : undefined;

export async function compareSources(client: Exec, orgId: number): Promise<CompareSource[]> {
  const r = await client.execute({ sql: SQL, args: [orgId, LIST.trackedCompetitors] });
  return r.rows.map((row) => ({
    id: Number(row.id),
    doc: JSON.parse(String(row.detail_doc)) as Obj,
    material: parse(row.material),
    hiring: parse(row.hiring),
  }));
}
