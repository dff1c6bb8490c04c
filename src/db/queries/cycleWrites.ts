// What the steps after a cycle read (in or before the writer's transaction): the signals a cycle created, the
// state of a period's digest, the engine's open signals of a competitor and the ones gone stale.
import type { Row } from "@libsql/client";
import type { Exec } from "../client.ts";

const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/** The competitors (ids, ascending) with a medium or high signal among `signalIds`, 500 ids a query. */
export async function competitorsWithMaterialSignals(
  db: Exec,
  orgId: number,
  signalIds: number[],
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < signalIds.length; i += 500) {
    const chunk = signalIds.slice(i, i + 500);
    const r = await db.execute({
      sql: `SELECT DISTINCT competitor_id FROM signals
            WHERE org_id = ? AND id IN (${marks(chunk.length)})
              AND severity IN ('medium', 'high') AND competitor_id IS NOT NULL`,
      args: [orgId, ...chunk],
    });
    for (const row of r.rows) ids.push(Number(row.competitor_id));
  }
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** The severities of the signals `ids` (undefined: none). */
export async function severitiesOf(db: Exec, orgId: number, ids: number[]): Promise<(string | undefined)[]> {
  if (ids.length === 0) return [];
  const r = await db.execute({
    sql: `SELECT severity FROM signals WHERE org_id = ? AND id IN (${marks(ids.length)})`,
    args: [orgId, ...ids],
  });
  return r.rows.map((row) => (row.severity === null ? undefined : String(row.severity)));
}

/** When the workspace was created. */
export async function orgCreatedAt(db: Exec, orgId: number): Promise<string | undefined> {
  const r = await db.execute({ sql: "SELECT created_at FROM orgs WHERE id = ?", args: [orgId] });
  const v = r.rows[0]?.created_at;
  return v === undefined || v === null ? undefined : String(v);
}

/** When a period's digest was written, and its newest listed signal (first seen in [from, to)). */
export async function periodDigestState(
  db: Exec,
  orgId: number,
  p: { slug: string; from: string; to: string },
): Promise<{ writtenAt?: string; newestSignalAt?: string }> {
  const written = await db.execute({
    sql: "SELECT generated_at FROM digests WHERE org_id = ? AND slug = ? ORDER BY id LIMIT 1",
    args: [orgId, p.slug],
  });
  const newest = await db.execute({
    sql: `SELECT first_seen_at FROM signals WHERE org_id = ? AND listed = 1 AND first_seen_at >= ? AND first_seen_at < ?
          ORDER BY first_seen_at DESC LIMIT 1`,
    args: [orgId, p.from, p.to],
  });
  const w = written.rows[0]?.generated_at;
  const n = newest.rows[0]?.first_seen_at;
  return {
    ...(w !== undefined && w !== null ? { writtenAt: String(w) } : {}),
    ...(n !== undefined && n !== null ? { newestSignalAt: String(n) } : {}),
  };
}

/** The engine's open signals of a competitor, oldest first, with their records (signals.state). */
export async function openEngineSignalRows(tx: Exec, orgId: number, competitorId: number): Promise<Row[]> {
  const r = await tx.execute({
    sql: `SELECT e.id, e.dedup_key, e.category, e.type, e.subject, e.value_before, e.value_after, s.state
          FROM engine_signals e JOIN signals s ON s.id = e.id
          WHERE e.org_id = ? AND e.competitor_id = ? AND e.status = 'open'
          ORDER BY e.id`,
    args: [orgId, competitorId],
  });
  return r.rows;
}

/** A competitor of the workspace: its name, site and record (JSON); undefined when it has no such competitor. */
export async function competitorNameAndRecord(
  tx: Exec,
  orgId: number,
  competitorId: number,
): Promise<{ name: string; websiteUrl: string | null; state: string } | undefined> {
  const r = await tx.execute({
    sql: "SELECT name, website_url, state FROM competitors WHERE id = ? AND org_id = ?",
    args: [competitorId, orgId],
  });
  const row = r.rows[0];
  return row
    ? {
        name: String(row.name),
        websiteUrl: row.website_url === null ? null : String(row.website_url),
        state: String(row.state),
      }
    : undefined;
}

/** The workspace's open engine signals last seen before `cutoff` (at most 1,000, oldest id first). */
export async function staleEngineSignals(tx: Exec, orgId: number, cutoff: string): Promise<number[]> {
  const r = await tx.execute({
    sql: `SELECT id FROM engine_signals WHERE org_id = ? AND status = 'open' AND last_seen_at < ?
          ORDER BY id LIMIT 1000`,
    args: [orgId, cutoff],
  });
  return r.rows.map((x) => Number(x.id));
}
