// The team's engagement with signals, digests and battlecards: pins, saved signals, notes, ratings, share
// links, and the battlecard generation log the daily cap counts.
import type { StoredEvent } from "../events/catalog.ts";
import { EVENT_POSITION_SQL, type Tx } from "../events/store.ts";

async function setPin(
  tx: Tx,
  orgId: number,
  type: "signal" | "digest",
  id: number,
  pinned: boolean,
  actor: string,
  at: string,
) {
  if (pinned)
    await tx.execute({
      sql: `INSERT INTO pins (org_id, subject_type, subject_id, pinned_by, pinned_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (subject_type, subject_id) DO NOTHING`,
      args: [orgId, type, id, actor, at],
    });
  else
    await tx.execute({
      sql: "DELETE FROM pins WHERE subject_type = ? AND subject_id = ?",
      args: [type, id],
    });
}

async function addNote(
  tx: Tx,
  orgId: number,
  type: "signal" | "digest" | "battlecard",
  subjectId: number,
  d: { id: number; body: string; author: string; author_name?: string; at: string },
) {
  await tx.execute({
    sql: `INSERT INTO notes (id, org_id, subject_type, subject_id, body, author, author_name, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [d.id, orgId, type, subjectId, d.body, d.author, d.author_name ?? null, d.at],
  });
  await tx.execute({
    sql: `INSERT INTO note_counts (subject_type, subject_id, org_id, n) VALUES (?, ?, ?, 1)
          ON CONFLICT (subject_type, subject_id) DO UPDATE SET n = n + 1`,
    args: [type, subjectId, orgId],
  });
}

async function rate(
  tx: Tx,
  orgId: number,
  type: "signal" | "digest",
  subjectId: number,
  actor: string,
  v: { useful?: boolean; reasons?: string[]; comment?: string; score?: number; missing?: string; at: string },
) {
  await tx.execute({
    sql: `INSERT INTO ratings (org_id, subject_type, subject_id, actor, useful, reasons, comment, score, missing, rated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (subject_type, subject_id, actor) DO UPDATE SET useful = excluded.useful,
            reasons = excluded.reasons, comment = excluded.comment, score = excluded.score,
            missing = excluded.missing, rated_at = excluded.rated_at`,
    args: [
      orgId,
      type,
      subjectId,
      actor,
      v.useful === undefined ? null : v.useful ? 1 : 0,
      v.reasons?.length ? JSON.stringify(v.reasons) : null,
      v.comment ?? null,
      v.score ?? null,
      v.missing ?? null,
      v.at,
    ],
  });
}

export async function projectEngagement(e: StoredEvent, tx: Tx): Promise<void> {
  const orgId = e.orgId!;
  switch (e.type) {
    case "SignalPinSet":
      await setPin(tx, orgId, "signal", e.data.signal_id, e.data.pinned, e.data.actor, e.data.at);
      break;
    case "DigestPinSet":
      await setPin(tx, orgId, "digest", e.data.digest_id, e.data.pinned, e.data.actor, e.data.at);
      break;
    case "SignalSaveSet":
      if (e.data.saved)
        await tx.execute({
          sql: `INSERT INTO saved_signals (org_id, actor, signal_id, saved_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (org_id, actor, signal_id) DO NOTHING`,
          args: [orgId, e.data.actor, e.data.signal_id, e.data.at],
        });
      else
        await tx.execute({
          sql: "DELETE FROM saved_signals WHERE org_id = ? AND actor = ? AND signal_id = ?",
          args: [orgId, e.data.actor, e.data.signal_id],
        });
      break;
    case "SignalNoteAdded":
      await addNote(tx, orgId, "signal", e.data.signal_id, e.data);
      break;
    case "DigestNoteAdded":
      await addNote(tx, orgId, "digest", e.data.digest_id, e.data);
      break;
    case "BattlecardNoteAdded":
      await addNote(tx, orgId, "battlecard", e.data.competitor_id, e.data);
      break;
    case "SignalRated":
      await rate(tx, orgId, "signal", e.data.signal_id, e.data.actor, e.data);
      break;
    case "DigestRated":
      await rate(tx, orgId, "digest", e.data.digest_id, e.data.actor, e.data);
      break;
    case "ShareLinkCreated":
      await tx.execute({
        sql: `INSERT INTO share_links (signal_id, id, org_id, token_hash, include_notes, expires_at, created_at, created_by)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (signal_id) DO UPDATE SET id = excluded.id, token_hash = excluded.token_hash,
                include_notes = excluded.include_notes, expires_at = excluded.expires_at,
                created_at = excluded.created_at, created_by = excluded.created_by`,
        args: [
          e.data.signal_id,
          e.data.id,
          orgId,
          e.data.token_hash,
          e.data.include_notes ? 1 : 0,
          e.data.expires_at,
          e.data.created_at,
          e.data.created_by,
        ],
      });
      break;
    case "BattlecardGenerated":
      // A cycle's rewrite does not count toward the daily cap that limits generate_battlecard.
      if (e.data.trigger === "cycle") break;
      await tx.execute({
        sql: `INSERT INTO battlecard_generations (id, org_id, competitor_id, generated_at) VALUES (${EVENT_POSITION_SQL}, ?, ?, ?)`,
        args: [e.position, orgId, e.data.competitor_id, e.data.record.generated_at ?? e.recordedAt],
      });
      break;
  }
}
