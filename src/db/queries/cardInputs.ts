// What a battlecard is written from besides the dossier, the daily cap's count of generated cards, and a card as its
// commands read it.

import { streamVersionSql } from "../../../events/command.ts";
import type { BattlecardNote, BattlecardSignal } from "../../domain/battlecardTypes.ts";
import type { SignalRecord } from "../../domain/records.ts";
import type { Exec } from "../client.ts";
import { countBetween } from "./datedCounts.ts";
import { NOTES_PAGE, NOTES_TOTAL_SQL } from "./engagement.ts";

/** Battlecards a workspace generated in [start, end). */
export function battlecardGenerationsBetween(
  db: Exec,
  orgId: number,
  start: string,
  end: string,
): Promise<number> {
  return countBetween(db, "battlecard_generations", orgId, start, end);
}

/** A competitor's newest listed signals, at most `limit`, newest first, with what the engine saw change. */
export async function cardSignals(
  db: Exec,
  orgId: number,
  competitorId: number,
  limit: number,
): Promise<BattlecardSignal[]> {
  const sig = await db.execute({
    sql: `SELECT s.id, s.severity, s.first_seen_at, s.state, e.subject, e.value_before, e.value_after
          FROM signals s LEFT JOIN engine_signals e ON e.id = s.id
          WHERE s.org_id = ? AND s.competitor_id = ? AND s.listed = 1
          ORDER BY s.first_seen_at DESC, s.id DESC LIMIT ?`,
    args: [orgId, competitorId, limit],
  });
  return sig.rows.map((row) => {
    const r = JSON.parse(String(row.state)) as SignalRecord;
    return {
      id: Number(row.id),
      title: r.title,
      summary: r.summary,
      category: r.category,
      type: r.type,
      severity: r.severity,
      first_seen_at: r.first_seen_at,
      evidence: r.evidence ?? [],
      ...(row.subject !== null && row.subject !== undefined ? { subject: String(row.subject) } : {}),
      ...(row.value_before !== undefined
        ? { value_before: row.value_before === null ? null : String(row.value_before) }
        : {}),
      ...(row.value_after !== undefined
        ? { value_after: row.value_after === null ? null : String(row.value_after) }
        : {}),
    };
  });
}

/** The newest notes on a competitor's battlecard (a page of them), oldest first, and how many it has in all
 * (one primary-key read of note_counts). */
export async function cardNotes(
  db: Exec,
  orgId: number,
  competitorId: number,
): Promise<{ notes: BattlecardNote[]; total: number }> {
  const [notes, total] = await Promise.all([
    db.execute({
      sql: `SELECT id, body, created_at FROM notes
            WHERE subject_type = 'battlecard' AND subject_id = ? AND org_id = ? ORDER BY id DESC LIMIT ?`,
      args: [competitorId, orgId, NOTES_PAGE],
    }),
    db.execute({ sql: NOTES_TOTAL_SQL, args: ["battlecard", competitorId, orgId] }),
  ]);
  return {
    notes: notes.rows
      .map((n) => ({ id: Number(n.id), body: String(n.body), created_at: String(n.created_at) }))
      .reverse(),
    total: total.rows[0] ? Number(total.rows[0].n) : 0,
  };
}

/** A competitor's battlecard, if it has one: its id, key and stored record. */
export async function competitorCard<R>(
  db: Exec,
  orgId: number,
  competitorId: number,
): Promise<{ id: number; key: string; stored: R } | undefined> {
  const r = await db.execute({
    sql: "SELECT id, key, state FROM battlecards WHERE org_id = ? AND competitor_id = ?",
    args: [orgId, competitorId],
  });
  const row = r.rows[0];
  return row
    ? { id: Number(row.id), key: String(row.key), stored: JSON.parse(String(row.state)) as R }
    : undefined;
}

/** A listed battlecard of the workspace by id, with its stored record and its stream's version. */
export async function listedCardById<R>(db: Exec, orgId: number, id: number) {
  const r = await db.execute({
    sql: `SELECT id, key, competitor_id, state, ${streamVersionSql("battlecard", "id")} AS version
          FROM battlecards WHERE id = ? AND org_id = ? AND listed = 1`,
    args: [id, orgId],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        key: String(row.key),
        competitor_id: Number(row.competitor_id),
        stored: JSON.parse(String(row.state)) as R,
        version: Number(row.version),
      }
    : undefined;
}
