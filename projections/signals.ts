import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";
import type { SignalRecord } from "../src/domain/records.ts";
import { inVocabulary } from "../src/domain/vocabulary.ts";
import { signalDoc } from "./docs.ts";

/** Writes one signal's row (and its search entry when the title or summary may have changed). */
async function writeSignal(
  tx: Tx,
  orgId: number,
  id: number,
  key: string,
  cid: number | null,
  r: SignalRecord,
  reindex = true,
): Promise<void> {
  const c = cid
    ? (await tx.execute({ sql: "SELECT name, listed FROM competitors WHERE id = ?", args: [cid] })).rows[0]
    : undefined;
  const name = c ? String(c.name) : null;
  const visible = cid === null || (c && Number(c.listed) === 1) ? 1 : 0;
  const listed = visible && r.status === "open" ? 1 : 0;
  await tx.execute({
    sql: `INSERT INTO signals (id, org_id, key, competitor_id, competitor_name, status, severity, first_seen_at, visible,
            listed, title, summary, state, doc)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (id) DO UPDATE SET key = excluded.key, competitor_id = excluded.competitor_id,
            competitor_name = excluded.competitor_name, status = excluded.status, severity = excluded.severity,
            first_seen_at = excluded.first_seen_at, visible = excluded.visible, listed = excluded.listed,
            title = excluded.title, summary = excluded.summary, state = excluded.state, doc = excluded.doc`,
    args: [
      id,
      orgId,
      key,
      cid,
      name,
      r.status,
      r.severity ?? null,
      r.first_seen_at ?? null,
      visible,
      listed,
      r.title,
      r.summary ?? null,
      JSON.stringify({ competitor_id: cid, ...r }),
      JSON.stringify(signalDoc(id, cid, name, r)),
    ],
  });
  if (!reindex) return;
  await tx.execute({ sql: "DELETE FROM signals_fts WHERE rowid = ?", args: [id] });
  await tx.execute({
    sql: "INSERT INTO signals_fts (rowid, title, summary) VALUES (?, ?, ?)",
    args: [id, r.title, r.summary ?? ""],
  });
}

/** A stored signal's key, competitor and record, to change and write back. */
async function loadSignal(
  tx: Tx,
  id: number,
): Promise<{ key: string; cid: number | null; record: SignalRecord } | undefined> {
  const row = (await tx.execute({ sql: "SELECT key, state FROM signals WHERE id = ?", args: [id] })).rows[0];
  if (!row) return undefined;
  const { competitor_id, ...record } = JSON.parse(String(row.state)) as SignalRecord & {
    competitor_id: number | null;
  };
  return { key: String(row.key), cid: competitor_id ?? null, record };
}

export async function projectSignals(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "SignalRecorded": {
      const { id, key, competitor_id: cid, record } = e.data;
      // An import from before the one vocabulary reads in it too (parseSignal maps new imports already).
      const v = inVocabulary(record.category, record.type, [record.title, record.summary]);
      const r = v.category === record.category && v.type === record.type ? record : { ...record, ...v };
      await writeSignal(tx, e.orgId!, id, key, cid, r);
      return;
    }
    case "SignalDetected": {
      const d = e.data;
      await writeSignal(tx, e.orgId!, d.id, d.key, d.competitor_id, d.record);
      await tx.execute({
        sql: `INSERT INTO engine_signals (id, org_id, competitor_id, dedup_key, category, type, status, subject,
                value_before, value_after, evidence_count, first_seen_at, last_seen_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (id) DO NOTHING`,
        args: [
          d.id,
          e.orgId,
          d.competitor_id,
          d.dedup_key,
          d.record.category ?? "",
          d.record.type ?? "",
          d.record.status,
          d.subject ?? null,
          d.value?.before ?? null,
          d.value?.after ?? null,
          d.record.evidence.length,
          d.record.first_seen_at ?? e.recordedAt,
          d.record.last_seen_at ?? d.record.first_seen_at ?? e.recordedAt,
        ],
      });
      return;
    }
    case "SignalEvidenceAdded": {
      const d = e.data;
      const s = await loadSignal(tx, d.id);
      if (!s) return;
      const r: SignalRecord = { ...s.record, evidence: [...s.record.evidence, ...d.evidence] };
      r.last_seen_at = d.last_seen_at;
      if (d.severity) r.severity = d.severity;
      if (d.confidence !== undefined) r.confidence = d.confidence;
      await writeSignal(tx, e.orgId!, d.id, s.key, s.cid, r, false);
      await tx.execute({
        sql: "UPDATE engine_signals SET evidence_count = evidence_count + ?, last_seen_at = ? WHERE id = ?",
        args: [d.evidence.length, d.last_seen_at, d.id],
      });
      return;
    }
    case "SignalClosed": {
      const d = e.data;
      const s = await loadSignal(tx, d.id);
      if (!s) return;
      const r: SignalRecord = {
        ...s.record,
        status: "closed",
        evidence: [...s.record.evidence, ...(d.evidence ?? [])],
      };
      await writeSignal(tx, e.orgId!, d.id, s.key, s.cid, r, false);
      await tx.execute({
        sql: `UPDATE engine_signals SET status = 'closed', closed_at = ?, closed_reason = ?,
                evidence_count = evidence_count + ? WHERE id = ?`,
        args: [d.closed_at, d.reason, d.evidence?.length ?? 0, d.id],
      });
      return;
    }
  }
}
