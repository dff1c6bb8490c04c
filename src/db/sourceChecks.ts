// What a cycle's checks write on the snapshot store's sources (snapshot_sources, operational): a source found
// unchanged or not modified (its new validators and rendered mark), a changed one's body hash, a failed check.
// The versions themselves are src/db/snapshots.ts's. Every statement runs in the writer's transaction the caller
// passes, scoped by org.
import type { Exec } from "./client.ts";

/** A source a check found unchanged or not modified. `e`, `m`, `h`, `r`: its new ETag, Last-Modified, body
 * hash and rendered mark (1/0) where the answer gave one (null keeps the stored one); `t`: when it was checked. */
export interface KeptSource {
  o: number;
  c: number;
  k: string;
  t: string;
  e: string | null;
  m: string | null;
  h: string | null;
  r: number | null;
}

/** Records unchanged and not-modified checks, of any competitors and workspaces, in one statement. */
export async function recordKeptSources(tx: Exec, kept: KeptSource[]): Promise<void> {
  if (kept.length === 0) return;
  await tx.execute({
    sql: `UPDATE snapshot_sources AS s SET last_checked_at = u.value ->> 't',
            etag = COALESCE(u.value ->> 'e', s.etag), last_modified = COALESCE(u.value ->> 'm', s.last_modified),
            body_hash = COALESCE(u.value ->> 'h', s.body_hash), rendered = COALESCE(u.value ->> 'r', s.rendered),
            failures = 0
          FROM json_each(?) AS u
          WHERE s.org_id = u.value ->> 'o' AND s.competitor_id = u.value ->> 'c' AND s.source_key = u.value ->> 'k'`,
    args: [JSON.stringify(kept)],
  });
}

/** A changed (or first) snapshot's body hash and rendered mark on its source. */
export async function recordSourceBody(
  tx: Exec,
  p: { orgId: number; competitorId: number; key: string; bodyHash: string; rendered: boolean },
): Promise<void> {
  await tx.execute({
    sql: `UPDATE snapshot_sources SET body_hash = ?, rendered = ?
          WHERE org_id = ? AND competitor_id = ? AND source_key = ?`,
    args: [p.bodyHash, Number(p.rendered), p.orgId, p.competitorId, p.key],
  });
}

/** A failed check: the source's failures in a row, its error and since when it fails (the source is created
 * when it never answered). */
export async function recordSourceFailure(
  tx: Exec,
  p: {
    orgId: number;
    competitorId: number;
    key: string;
    url: string;
    kind: string;
    at: string;
    error: string;
  },
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO snapshot_sources (org_id, competitor_id, source_key, url, kind, first_seen_at,
            last_checked_at, failures, last_error, last_error_at, failing_since)
          VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
          ON CONFLICT (org_id, competitor_id, source_key) DO UPDATE SET failures = failures + 1,
            last_error = excluded.last_error, last_error_at = excluded.last_error_at,
            failing_since = CASE WHEN failures = 0 OR failing_since IS NULL THEN excluded.last_error_at
              ELSE failing_since END`,
    args: [p.orgId, p.competitorId, p.key, p.url, p.kind, p.at, p.at, p.error, p.at, p.at],
  });
}
