import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";
import { signalDoc } from "./docs.ts";

export async function projectSignals(e: StoredEvent, tx: Tx): Promise<void> {
  if (e.type !== "SignalRecorded") return;
  const { id, key, competitor_id: cid, record: r } = e.data;
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
      e.orgId,
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
  await tx.execute({ sql: "DELETE FROM signals_fts WHERE rowid = ?", args: [id] });
  await tx.execute({
    sql: "INSERT INTO signals_fts (rowid, title, summary) VALUES (?, ?, ?)",
    args: [id, r.title, r.summary ?? ""],
  });
}
