// A battlecard's earlier versions, read from its own event stream.
import type { Exec } from "../client.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

export interface PreviousVersion {
  generated_at?: string;
  sections: Obj;
}

/** The version before the current one: the newest earlier event of the battlecard's stream whose sections
 * differ from the current ones (a rewrite that changed nothing is not a version). Reads the stream through its
 * unique key, newest first, at most 20 events. */
export async function previousVersion(
  db: Exec,
  orgId: number,
  id: number,
  current: Obj,
): Promise<PreviousVersion | undefined> {
  const r = await db.execute({
    sql: `SELECT data FROM events WHERE stream_type = 'battlecard' AND stream_id = ? AND org_id = ?
            AND type IN ('BattlecardGenerated', 'BattlecardRecorded', 'BattlecardProposalAccepted', 'BattlecardEdited')
          ORDER BY stream_version DESC LIMIT 20`,
    args: [String(id), orgId],
  });
  const now = JSON.stringify(current.sections ?? {});
  let seenCurrent = false;
  for (const row of r.rows) {
    const rec = (JSON.parse(String(row.data)) as { record?: Obj }).record ?? {};
    const sections = isObj(rec.sections) ? rec.sections : {};
    if (!seenCurrent) {
      seenCurrent = true;
      continue;
    }
    if (JSON.stringify(sections) === now) continue;
    return { generated_at: typeof rec.generated_at === "string" ? rec.generated_at : undefined, sections };
  }
  return undefined;
}
