// A signal or a digest as the engagement commands (pins, saves, notes, ratings) read it, in one read each.
import { streamVersionSql } from "../../../events/command.ts";
import type { Exec } from "../client.ts";

/** A visible signal of the workspace with its pin and the actor's save, and with `version` its stream's version;
 * undefined when the workspace cannot see it. */
export async function signalEngagementRow(
  db: Exec,
  orgId: number,
  actor: string,
  signalId: number,
  version: boolean,
) {
  const r = await db.execute({
    sql: `SELECT s.id,
            EXISTS (SELECT 1 FROM pins p WHERE p.subject_type = 'signal' AND p.subject_id = s.id AND p.org_id = s.org_id) AS pinned,
            EXISTS (SELECT 1 FROM saved_signals v WHERE v.org_id = s.org_id AND v.actor = ? AND v.signal_id = s.id) AS saved${
              version ? `, ${streamVersionSql("signal", "s.id")} AS version` : ""
            }
          FROM signals s WHERE s.id = ? AND s.org_id = ? AND s.visible = 1`,
    args: [actor, signalId, orgId],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        pinned: Boolean(row.pinned),
        saved: Boolean(row.saved),
        ...(version ? { version: Number(row.version) } : {}),
      }
    : undefined;
}

/** A listed digest of the workspace by slug, else by numeric id, with its pin, and with `version` its stream's
 * version; undefined when there is none. */
export async function digestEngagementRow(
  db: Exec,
  orgId: number,
  slug: string | null,
  id: number | null,
  version: boolean,
) {
  const r = await db.execute({
    sql: `SELECT d.id,
            EXISTS (SELECT 1 FROM pins p WHERE p.subject_type = 'digest' AND p.subject_id = d.id AND p.org_id = ?) AS pinned${
              version ? `, ${streamVersionSql("digest", "d.id")} AS version` : ""
            }
          FROM (SELECT id, 0 AS by_id FROM digests WHERE org_id = ? AND slug = ? AND listed = 1
                UNION ALL
                SELECT id, 1 AS by_id FROM digests WHERE org_id = ? AND id = ? AND listed = 1) d
          ORDER BY d.by_id LIMIT 1`,
    args: [orgId, orgId, slug, orgId, id],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        pinned: Boolean(row.pinned),
        ...(version ? { version: Number(row.version) } : {}),
      }
    : undefined;
}
