import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";
import { keptWith, type StoredCard } from "../src/domain/battlecardProposals.ts";
import type { BattlecardRecord } from "../src/domain/records.ts";
import { battlecardDoc } from "./docs.ts";

export async function projectBattlecards(e: StoredEvent, tx: Tx): Promise<void> {
  if (
    e.type === "BattlecardRecorded" ||
    e.type === "BattlecardGenerated" ||
    e.type === "BattlecardProposalAccepted" ||
    e.type === "BattlecardEdited"
  )
    await writeBattlecard(tx, e.orgId!, e.data);
  // A proposal changes only the stored state: the card people read stays as it is until a member accepts.
  else if (e.type === "BattlecardProposed")
    await tx.execute({
      sql: "UPDATE battlecards SET state = json_set(state, '$.proposal', json(?)) WHERE id = ? AND org_id = ?",
      args: [JSON.stringify(e.data.proposal), e.data.id, e.orgId],
    });
  else if (e.type === "BattlecardProposalDismissed") {
    // The team's lines whose drop was dismissed are remembered with the fact behind it (domain `keptWith`).
    const r = await tx.execute({
      sql: `SELECT state FROM battlecards
            WHERE id = ? AND org_id = ? AND json_extract(state, '$.proposal.proposed_at') = ?`,
      args: [e.data.id, e.orgId, e.data.proposed_at],
    });
    if (!r.rows[0]) return;
    const { proposal: _p, ...state } = JSON.parse(String(r.rows[0].state)) as StoredCard;
    const kept = keptWith(state, e.data.kept ?? []);
    await tx.execute({
      sql: "UPDATE battlecards SET state = ? WHERE id = ? AND org_id = ?",
      args: [JSON.stringify(kept.length ? { ...state, kept } : state), e.data.id, e.orgId],
    });
  }
}

/** Writes a battlecard row and keeps its competitor's `battlecard_id` in step (imports and generate_battlecard). */
export async function writeBattlecard(
  tx: Tx,
  orgId: number,
  data: { id: number; key: string; competitor_id: number; record: BattlecardRecord },
): Promise<void> {
  const { id, key, competitor_id: cid, record: r } = data;
  const c = (await tx.execute({ sql: "SELECT name, listed FROM competitors WHERE id = ?", args: [cid] }))
    .rows[0];
  const name = c ? String(c.name) : null;
  const visible = c && Number(c.listed) === 1 ? 1 : 0;
  const generated = r.status === "generated" ? 1 : 0;
  const prev = (await tx.execute({ sql: "SELECT competitor_id FROM battlecards WHERE id = ?", args: [id] }))
    .rows[0];
  await tx.execute({
    sql: `INSERT INTO battlecards (id, org_id, key, competitor_id, competitor_name, status, visible, listed, generated_at,
            state, doc)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (id) DO UPDATE SET key = excluded.key, competitor_id = excluded.competitor_id,
            competitor_name = excluded.competitor_name,
            status = excluded.status, visible = excluded.visible, listed = excluded.listed,
            generated_at = excluded.generated_at, state = excluded.state, doc = excluded.doc`,
    args: [
      id,
      orgId,
      key,
      cid,
      name,
      r.status,
      visible,
      visible && generated,
      r.generated_at ?? null,
      JSON.stringify({ competitor_id: cid, ...r }),
      JSON.stringify(battlecardDoc(id, cid, name, r)),
    ],
  });
  // A battlecard moved to another competitor leaves the old dossier without it.
  if (prev && Number(prev.competitor_id) !== cid)
    await tx.execute({
      sql: "UPDATE competitors SET battlecard_id = NULL WHERE id = ? AND battlecard_id = ?",
      args: [Number(prev.competitor_id), id],
    });
  // The dossier names its battlecard only while a generated one exists.
  await tx.execute({
    sql: "UPDATE competitors SET battlecard_id = ? WHERE id = ?",
    args: [generated ? id : null, cid],
  });
}
