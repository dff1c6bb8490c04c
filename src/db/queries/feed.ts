// What the signal feed shows besides the list itself: the categories and types its filters offer, the team's
// pinned signals, and the engagement of the signals on the page (pinned, saved and rated by the reader, notes).
// Every query is scoped by org and bounded; each is served by an index (signals_by_category / signals_by_type,
// pins_by_org, the primary keys of saved_signals, ratings and note_counts).
import type { Db, Exec } from "../client.ts";
import { cacheOf } from "./cache.ts";
import { appLinks, withUrl } from "./links.ts";

type Obj = Record<string, unknown>;

/** How many distinct categories or types a filter offers at most. */
const FACETS_MAX = 100;
/** How many pinned signals the feed's pinned section shows. */
export const PINNED_MAX = 10;

/** The categories and types of the workspace's open signals, each sorted. */
export function signalFacets(
  db: Db,
  client: Exec,
  orgId: number,
): Promise<{ categories: string[]; types: string[] }> {
  return cacheOf(db).get(`feed-facets|${orgId}`, async () => {
    // A skip scan: each step jumps the index to the next value greater than the last, so the cost is one
    // index seek per distinct value, not one row per signal.
    const of = async (field: "category" | "type") => {
      const expr = `json_extract(doc, '$.${field}')`;
      const r = await client.execute({
        sql: `WITH RECURSIVE f(v) AS (
                SELECT (SELECT ${expr} AS x FROM signals
                        WHERE org_id = ?1 AND listed = 1 AND ${expr} IS NOT NULL ORDER BY x LIMIT 1)
                UNION ALL
                SELECT (SELECT ${expr} AS x FROM signals
                        WHERE org_id = ?1 AND listed = 1 AND ${expr} > f.v ORDER BY x LIMIT 1)
                FROM f WHERE f.v IS NOT NULL LIMIT ?2)
              SELECT v FROM f WHERE v IS NOT NULL`,
        args: [orgId, FACETS_MAX],
      });
      return r.rows.map((row) => String(row.v));
    };
    const [categories, types] = await Promise.all([of("category"), of("type")]);
    return { categories, types };
  });
}

/** The team's pinned signals (open or closed, still visible), newest pin first. */
export async function pinnedSignals(client: Exec, orgId: number, base: string): Promise<Obj[]> {
  const r = await client.execute({
    sql: `SELECT s.id, s.doc, p.pinned_at FROM pins p JOIN signals s ON s.id = p.subject_id AND s.org_id = p.org_id
          WHERE p.org_id = ? AND p.subject_type = 'signal' AND s.visible = 1
          ORDER BY p.pinned_at DESC LIMIT ?`,
    args: [orgId, PINNED_MAX],
  });
  return r.rows.map((row) => withUrl(String(row.doc), appLinks.signal(base, Number(row.id))));
}

export interface CardEngagement {
  pinned: boolean;
  saved: boolean;
  /** The reader's own rating. */
  useful?: boolean;
  notes: number;
}

/** Engagement of the given signals as one reader sees it (at most a page of ids). */
export async function cardEngagement(
  client: Exec,
  orgId: number,
  ids: number[],
  actor: string,
): Promise<Map<number, CardEngagement>> {
  const out = new Map<number, CardEngagement>(
    ids.map((id) => [id, { pinned: false, saved: false, notes: 0 }]),
  );
  if (ids.length === 0) return out;
  const marks = ids.map(() => "?").join(",");
  const [pins, saved, ratings, notes] = await Promise.all([
    client.execute({
      sql: `SELECT subject_id AS id FROM pins WHERE subject_type = 'signal' AND subject_id IN (${marks}) AND org_id = ?`,
      args: [...ids, orgId],
    }),
    client.execute({
      sql: `SELECT signal_id AS id FROM saved_signals WHERE org_id = ? AND actor = ? AND signal_id IN (${marks})`,
      args: [orgId, actor, ...ids],
    }),
    client.execute({
      sql: `SELECT subject_id AS id, useful FROM ratings
            WHERE subject_type = 'signal' AND subject_id IN (${marks}) AND actor = ? AND org_id = ?`,
      args: [...ids, actor, orgId],
    }),
    client.execute({
      sql: `SELECT subject_id AS id, n FROM note_counts WHERE subject_type = 'signal' AND subject_id IN (${marks}) AND org_id = ?`,
      args: [...ids, orgId],
    }),
  ]);
  for (const r of pins.rows) out.get(Number(r.id))!.pinned = true;
  for (const r of saved.rows) out.get(Number(r.id))!.saved = true;
  for (const r of ratings.rows) if (r.useful !== null) out.get(Number(r.id))!.useful = Number(r.useful) === 1;
  for (const r of notes.rows) out.get(Number(r.id))!.notes = Number(r.n);
  return out;
}
