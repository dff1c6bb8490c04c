// The snapshot store's tables (snapshot_sources, snapshot_versions, snapshot_blobs; operational, outside the
// event log): a source per (workspace, competitor, key), its last versions, and content-addressed blobs shared by
// every workspace. Reads are scoped by org in SQL; writes run in the writer's transaction the caller passes. The
// rules (hashing, compression, when a version is kept or pruned) are src/engine/snapshots/store.ts.
import type { InValue, Row } from "@libsql/client";
import type { Exec } from "./client.ts";

/** A source, whole, by its key. */
export async function snapshotSourceRow(
  db: Exec,
  orgId: number,
  competitorId: number,
  key: string,
): Promise<Row | undefined> {
  const r = await db.execute({
    sql: "SELECT * FROM snapshot_sources WHERE org_id = ? AND competitor_id = ? AND source_key = ?",
    args: [orgId, competitorId, key],
  });
  return r.rows[0];
}

/** A new source, first seen at `firstSeenAt`; the row as inserted. */
async function insertSnapshotSource(
  tx: Exec,
  s: {
    orgId: number;
    competitorId: number;
    key: string;
    url: string;
    kind: string;
    firstSeenAt: string;
    lastCheckedAt: string;
  },
): Promise<Row> {
  const r = await tx.execute({
    sql: `INSERT INTO snapshot_sources (org_id, competitor_id, source_key, url, kind, first_seen_at, last_checked_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    args: [s.orgId, s.competitorId, s.key, s.url, s.kind, s.firstSeenAt, s.lastCheckedAt],
  });
  return r.rows[0];
}

/** A source by its key, inserted (first seen at `firstSeenAt`) when it is new. */
export async function snapshotSourceOrNew(
  tx: Exec,
  s: Parameters<typeof insertSnapshotSource>[1],
): Promise<Row> {
  return (await snapshotSourceRow(tx, s.orgId, s.competitorId, s.key)) ?? (await insertSnapshotSource(tx, s));
}

/** HTTP validators of a check, for the next conditional GET. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

/** A check that found the latest content again: when it was checked, its validators, no failures. */
export async function markSourceUnchanged(
  tx: Exec,
  orgId: number,
  sourceId: number,
  at: string,
  v: Validators,
): Promise<void> {
  await tx.execute({
    sql: `UPDATE snapshot_sources SET last_checked_at = ?, etag = ?, last_modified = ?, failures = 0
                WHERE org_id = ? AND id = ?`,
    args: [at, v.etag, v.lastModified, orgId, sourceId],
  });
}

/** A check that found new content: its hash is the source's latest. */
export async function markSourceChanged(
  tx: Exec,
  orgId: number,
  sourceId: number,
  c: { hash: string; at: string; url: string } & Validators,
): Promise<void> {
  await tx.execute({
    sql: `UPDATE snapshot_sources SET latest_hash = ?, last_changed_at = ?, last_checked_at = ?, etag = ?,
                last_modified = ?, url = ?, failures = 0 WHERE org_id = ? AND id = ?`,
    args: [c.hash, c.at, c.at, c.etag, c.lastModified, c.url, orgId, sourceId],
  });
}

/** Stores content once by its hash (a blob stored before its digest was kept gets the digest). */
export async function putSnapshotBlob(
  tx: Exec,
  b: { hash: string; codec: string; size: number; data: Uint8Array; seen: Uint8Array },
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO snapshot_blobs (hash, codec, size, data, seen) VALUES (?, ?, ?, ?, ?)
              ON CONFLICT (hash) DO UPDATE SET seen = excluded.seen WHERE snapshot_blobs.seen IS NULL`,
    args: [b.hash, b.codec, b.size, b.data, b.seen],
  });
}

/** A version of a source (`capture`: the web-archive timestamp of a version observed in the past); its id. */
export async function insertSnapshotVersion(
  tx: Exec,
  v: {
    orgId: number;
    sourceId: number;
    hash: string;
    observedAt: string;
    status: number | null;
    finalUrl: string | null;
    capture?: string;
  },
): Promise<number> {
  const args: InValue[] = [v.orgId, v.sourceId, v.hash, v.observedAt, v.status, v.finalUrl];
  const r =
    v.capture === undefined
      ? await tx.execute({
          sql: `INSERT INTO snapshot_versions (org_id, source_id, hash, observed_at, status, final_url)
              VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
          args,
        })
      : await tx.execute({
          sql: `INSERT INTO snapshot_versions (org_id, source_id, hash, observed_at, status, final_url, capture)
              VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          args: [...args, v.capture],
        });
  return Number(r.rows[0].id);
}

/** A source's versions beyond its newest `keep` (ids and hashes). */
export async function versionsBeyond(
  tx: Exec,
  orgId: number,
  sourceId: number,
  keep: number,
): Promise<{ id: number; hash: string }[]> {
  const r = await tx.execute({
    sql: `SELECT id, hash FROM snapshot_versions WHERE org_id = ? AND source_id = ?
            ORDER BY observed_at DESC, id DESC LIMIT -1 OFFSET ?`,
    args: [orgId, sourceId, keep],
  });
  return r.rows.map((row) => ({ id: Number(row.id), hash: String(row.hash) }));
}

export async function deleteSnapshotVersion(tx: Exec, orgId: number, id: number): Promise<void> {
  await tx.execute({
    sql: "DELETE FROM snapshot_versions WHERE org_id = ? AND id = ?",
    args: [orgId, id],
  });
}

/** Deletes a blob when no version (of any workspace: identical content is stored once) refers to it; 1 when
 * it did. */
export async function deleteBlobIfUnused(tx: Exec, hash: string): Promise<number> {
  const r = await tx.execute({
    sql: `DELETE FROM snapshot_blobs WHERE hash = ?
            AND NOT EXISTS (SELECT 1 FROM snapshot_versions WHERE hash = ?)`,
    args: [hash, hash],
  });
  return r.rowsAffected;
}

/** A check that brought no content (a 304 answer): when it was checked, the validators it brought. */
export async function markSourceNotModified(
  tx: Exec,
  ref: { orgId: number; competitorId: number; key: string },
  at: string,
  v: Validators,
): Promise<void> {
  await tx.execute({
    sql: `UPDATE snapshot_sources SET last_checked_at = ?, etag = COALESCE(?, etag),
                last_modified = COALESCE(?, last_modified), failures = 0
              WHERE org_id = ? AND competitor_id = ? AND source_key = ?`,
    args: [at, v.etag, v.lastModified, ref.orgId, ref.competitorId, ref.key],
  });
}

/** A failed check, counted on the source (created when it has never been checked); the failures in a row. */
export async function recordSourceFailure(
  tx: Exec,
  ref: { orgId: number; competitorId: number; key: string; url: string; kind: string },
  error: string,
  at: string,
): Promise<number> {
  const r = await tx.execute({
    sql: `INSERT INTO snapshot_sources (org_id, competitor_id, source_key, url, kind, first_seen_at, last_checked_at,
                failures, last_error, last_error_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
              ON CONFLICT (org_id, competitor_id, source_key) DO UPDATE SET failures = failures + 1,
                last_error = excluded.last_error, last_error_at = excluded.last_error_at
              RETURNING failures`,
    args: [ref.orgId, ref.competitorId, ref.key, ref.url, ref.kind, at, at, error, at],
  });
  return Number(r.rows[0].failures);
}

export async function deleteSnapshotSource(tx: Exec, orgId: number, id: number): Promise<void> {
  await tx.execute({
    sql: "DELETE FROM snapshot_sources WHERE org_id = ? AND id = ?",
    args: [orgId, id],
  });
}

/** Every source (of any workspace) holding more than `kept` versions. */
export async function sourcesOverKept(
  db: Exec,
  kept: number,
): Promise<{ orgId: number; sourceId: number }[]> {
  const r = await db.execute({
    sql: "SELECT org_id, source_id FROM snapshot_versions GROUP BY org_id, source_id HAVING COUNT(*) > ?",
    args: [kept],
  });
  return r.rows.map((row) => ({ orgId: Number(row.org_id), sourceId: Number(row.source_id) }));
}

/** Deletes every blob no version refers to; how many. */
export async function deleteUnusedBlobs(tx: Exec): Promise<number> {
  const r = await tx.execute(
    "DELETE FROM snapshot_blobs WHERE NOT EXISTS (SELECT 1 FROM snapshot_versions v WHERE v.hash = snapshot_blobs.hash)",
  );
  return r.rowsAffected;
}

/** The sources of a workspace, or of one of its competitors, by competitor and key. */
export async function snapshotSourceRows(db: Exec, orgId: number, competitorId?: number): Promise<Row[]> {
  const r =
    competitorId === undefined
      ? await db.execute({
          sql: "SELECT * FROM snapshot_sources WHERE org_id = ? ORDER BY competitor_id, source_key",
          args: [orgId],
        })
      : await db.execute({
          sql: "SELECT * FROM snapshot_sources WHERE org_id = ? AND competitor_id = ? ORDER BY source_key",
          args: [orgId, competitorId],
        });
  return r.rows;
}

/** A source's versions with their blobs (the query adds the order and bounds). */
const VERSION_ROWS = `SELECT v.id, v.hash, v.observed_at, v.status, v.final_url, b.codec, b.data, b.seen
  FROM snapshot_sources s
  JOIN snapshot_versions v ON v.org_id = s.org_id AND v.source_id = s.id
  JOIN snapshot_blobs b ON b.hash = v.hash
  WHERE s.org_id = ? AND s.competitor_id = ? AND s.source_key = ?`;

/** One source of one competitor of one workspace, by key. */
export interface SourceKey {
  orgId: number;
  competitorId: number;
  key: string;
}

const keyArgs = (k: SourceKey): InValue[] => [k.orgId, k.competitorId, k.key];

/** A source's newest versions with their content (id, hash, observed_at, status, final_url, codec, data, seen),
 * newest first, at most `limit`. */
export async function newestVersionRows(db: Exec, k: SourceKey, limit: number): Promise<Row[]> {
  const r = await db.execute({
    sql: `${VERSION_ROWS} ORDER BY v.observed_at DESC, v.id DESC LIMIT ?`,
    args: [...keyArgs(k), limit],
  });
  return r.rows;
}

/** What a new snapshot of a source is compared with, newest first, at most `limit` versions: each one's codec and
 * digest, and its compressed content only where it is read (the newest version, and any stored without a
 * digest). The older versions' blobs are not copied out of the database for nothing. */
export async function historyRows(db: Exec, k: SourceKey, limit: number): Promise<Row[]> {
  const r = await db.execute({
    sql: `SELECT b.codec, b.seen,
        CASE WHEN b.seen IS NULL OR ROW_NUMBER() OVER (ORDER BY v.observed_at DESC, v.id DESC) = 1
          THEN b.data END AS data
      FROM snapshot_sources s
      JOIN snapshot_versions v ON v.org_id = s.org_id AND v.source_id = s.id
      JOIN snapshot_blobs b ON b.hash = v.hash
      WHERE s.org_id = ? AND s.competitor_id = ? AND s.source_key = ?
      ORDER BY v.observed_at DESC, v.id DESC LIMIT ?`,
    args: [...keyArgs(k), limit],
  });
  return r.rows;
}

/** A source's newest versions observed at or before `at`, newest first, at most `limit`. */
export async function versionRowsUpTo(db: Exec, k: SourceKey, at: string, limit: number): Promise<Row[]> {
  const r = await db.execute({
    sql: `${VERSION_ROWS} AND v.observed_at <= ? ORDER BY v.observed_at DESC, v.id DESC LIMIT ?`,
    args: [...keyArgs(k), at, limit],
  });
  return r.rows;
}

/** A source's oldest version observed after `at`. */
export async function firstVersionRowAfter(db: Exec, k: SourceKey, at: string): Promise<Row | undefined> {
  const r = await db.execute({
    sql: `${VERSION_ROWS} AND v.observed_at > ? ORDER BY v.observed_at, v.id LIMIT 1`,
    args: [...keyArgs(k), at],
  });
  return r.rows[0];
}

/** What a workspace holds: its sources, versions, and the distinct blobs (and their compressed bytes) they use. */
export async function snapshotStats(
  db: Exec,
  orgId: number,
): Promise<{ sources: number; versions: number; blobs: number; blobBytes: number }> {
  const r = await db.execute({
    sql: `SELECT (SELECT COUNT(*) FROM snapshot_sources WHERE org_id = ?) AS sources,
                   (SELECT COUNT(*) FROM snapshot_versions WHERE org_id = ?) AS versions,
                   COUNT(*) AS blobs, COALESCE(SUM(LENGTH(b.data)), 0) AS bytes
            FROM snapshot_blobs b WHERE b.hash IN (SELECT hash FROM snapshot_versions WHERE org_id = ?)`,
    args: [orgId, orgId, orgId],
  });
  const row = r.rows[0];
  return {
    sources: Number(row.sources),
    versions: Number(row.versions),
    blobs: Number(row.blobs),
    blobBytes: Number(row.bytes),
  };
}

/** How many sources, in every workspace, read from `host` and were checked after `since`: the demand on a host
 * that the cycles' politeness shares out (src/engine/schedule/rotation.ts). Deliberately not scoped by org: it
 * is a count the instance paces its requests by, never shown to a workspace. */
export async function sourcesOnHostSince(db: Exec, host: string, since: string): Promise<number> {
  const r = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM snapshot_sources WHERE host = ? AND last_checked_at > ?",
    args: [host, since],
  });
  return Number(r.rows[0]?.n ?? 0);
}
