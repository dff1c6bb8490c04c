// What digests and deliveries read: signals with their competitor's watch and what the engine recorded of the
// change, newest first; the counts a digest states; a period's digest.
import type { Row } from "@libsql/client";
import type { Exec } from "../client.ts";
import { countBetween } from "./datedCounts.ts";

/** Which signals of one workspace: listed ones first seen in [from, to), or the ones of `ids` (at most 500). */
export type DigestSignalSelection =
  | { orgId: number; from: string; to: string }
  | { orgId: number; ids: number[] };

/** The selected signals' rows, newest first, at most `limit`: the signal's record (state), its competitor's
 * watch and tracking, and the engine's subject and values before and after. */
export async function digestSignalRows(
  db: Exec,
  which: DigestSignalSelection,
  limit: number,
): Promise<Row[]> {
  const [where, args] =
    "ids" in which
      ? [
          `s.org_id = ? AND s.id IN (${which.ids
            .slice(0, 500)
            .map(() => "?")
            .join(",")})`,
          [which.orgId, ...which.ids.slice(0, 500)],
        ]
      : [
          "s.org_id = ? AND s.listed = 1 AND s.first_seen_at >= ? AND s.first_seen_at < ?",
          [which.orgId, which.from, which.to],
        ];
  const r = await db.execute({
    sql: `SELECT s.id, s.competitor_id, s.competitor_name, s.first_seen_at, s.state, c.watch, c.tracking,
                 e.subject, e.value_before, e.value_after
          FROM signals s
          LEFT JOIN competitors c ON c.id = s.competitor_id AND c.org_id = s.org_id
          LEFT JOIN engine_signals e ON e.id = s.id AND e.org_id = s.org_id
          WHERE ${where}
          ORDER BY s.first_seen_at DESC, s.id DESC LIMIT ?`,
    args: [...args, limit],
  });
  return r.rows;
}

/** How many listed signals of the workspace were first seen in [from, to). */
export async function listedSignalsIn(db: Exec, orgId: number, from: string, to: string): Promise<number> {
  const r = await db.execute({
    sql: `SELECT COUNT(*) AS n FROM signals
          WHERE org_id = ? AND listed = 1 AND first_seen_at >= ? AND first_seen_at < ?`,
    args: [orgId, from, to],
  });
  return Number(r.rows[0].n);
}

/** How many of the workspace's cycles finished in [from, to). */
export function cyclesFinishedIn(db: Exec, orgId: number, from: string, to: string): Promise<number> {
  return countBetween(db, "cycles", orgId, from, to);
}

/** The workspace's digest of a period (by its slug), if written. */
export async function digestOfPeriod(
  db: Exec,
  orgId: number,
  slug: string,
): Promise<{ id: number; key: string } | undefined> {
  const r = await db.execute({
    sql: "SELECT id, key FROM digests WHERE org_id = ? AND slug = ? ORDER BY id LIMIT 1",
    args: [orgId, slug],
  });
  const row = r.rows[0];
  return row ? { id: Number(row.id), key: String(row.key) } : undefined;
}
