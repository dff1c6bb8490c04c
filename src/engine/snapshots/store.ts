// The snapshot store (docs/engine/compare.md): content-addressed, zstd-compressed blobs of normalised content
// outside the event log, and per source the last N versions. Reads are scoped by org in SQL; writes go
// through the event store's single writer (a command that appends no events), so they never meet SQLITE_BUSY.
import type { Client, InValue, Row } from "@libsql/client";
import type { EventStore, Tx } from "../../../events/store.ts";
import type { Clock } from "../../clock.ts";
import { serialise, snapshotHash } from "../compare/normalise.ts";
import { digestBytes, digestFromBytes, digestOf, Seen } from "../compare/seen.ts";
import type { Snapshot, SnapshotKind } from "../compare/types.ts";

/** One source of one competitor of one workspace. `key` defaults to `kind:url`. */
export interface SourceRef {
  orgId: number;
  competitorId: number;
  url: string;
  kind: SnapshotKind;
  key?: string;
}

export interface PutInput extends SourceRef {
  snapshot: Snapshot;
  observedAt?: Date;
  /** HTTP validators for the next conditional GET. */
  etag?: string;
  lastModified?: string;
  status?: number;
  finalUrl?: string;
}

export interface PutResult {
  /** False when the content equals the source's latest version: nothing was stored but last_checked_at. */
  changed: boolean;
  hash: string;
  previousHash: string | null;
  sourceId: number;
  versionId: number | null;
  /** Versions dropped beyond the kept number, and blobs no version refers to any more. */
  pruned: number;
  blobsDeleted: number;
}

export interface SnapshotVersion {
  id: number;
  hash: string;
  observedAt: string;
  status: number | null;
  finalUrl: string | null;
  snapshot: Snapshot;
}

export interface SourceState {
  id: number;
  orgId: number;
  competitorId: number;
  key: string;
  url: string;
  kind: SnapshotKind;
  etag: string | null;
  lastModified: string | null;
  firstSeenAt: string;
  lastCheckedAt: string;
  lastChangedAt: string | null;
  latestHash: string | null;
  /** Failed checks in a row (reset by any successful check). */
  failures: number;
  lastError: string | null;
  lastErrorAt: string | null;
  /** When the current run of failed checks began (migration 0016). */
  failingSince: string | null;
  /** The last good check's body: `<hash of the raw bytes>`, for a page `<hash>.<page signature>` (compare/signature.ts). */
  bodyHash: string | null;
  /** The last good check read the page in the browser: it is fetched whole, never conditionally (migration 0090). */
  rendered: boolean;
}

export const CODEC = "zstd";

export function compress(serialised: string): Uint8Array {
  return Bun.zstdCompressSync(new TextEncoder().encode(serialised));
}

export function decompress(codec: string, data: ArrayBuffer | Uint8Array): string {
  const bytes = new Uint8Array(data instanceof Uint8Array ? data : new Uint8Array(data));
  const raw = codec === "gzip" ? Bun.gunzipSync(bytes) : Bun.zstdDecompressSync(bytes);
  return new TextDecoder().decode(raw);
}

const keyOf = (ref: SourceRef) => ref.key ?? `${ref.kind}:${ref.url}`;
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

function rowToSource(r: Row): SourceState {
  return {
    id: Number(r.id),
    orgId: Number(r.org_id),
    competitorId: Number(r.competitor_id),
    key: String(r.source_key),
    url: String(r.url),
    kind: String(r.kind) as SnapshotKind,
    etag: str(r.etag),
    lastModified: str(r.last_modified),
    firstSeenAt: String(r.first_seen_at),
    lastCheckedAt: String(r.last_checked_at),
    lastChangedAt: str(r.last_changed_at),
    latestHash: str(r.latest_hash),
    failures: Number(r.failures),
    lastError: str(r.last_error),
    lastErrorAt: str(r.last_error_at),
    failingSince: str(r.failing_since),
    bodyHash: str(r.body_hash),
    rendered: Number(r.rendered ?? 0) === 1,
  };
}

function toVersion(row: Row): SnapshotVersion {
  return {
    id: Number(row.id),
    hash: String(row.hash),
    observedAt: String(row.observed_at),
    status: row.status === null ? null : Number(row.status),
    finalUrl: str(row.final_url),
    snapshot: JSON.parse(decompress(String(row.codec), row.data as ArrayBuffer)) as Snapshot,
  };
}

/** A source's versions with their blobs (the caller adds the order and bounds). */
const VERSION_ROWS = `SELECT v.id, v.hash, v.observed_at, v.status, v.final_url, b.codec, b.data, b.seen
  FROM snapshot_sources s
  JOIN snapshot_versions v ON v.org_id = s.org_id AND v.source_id = s.id
  JOIN snapshot_blobs b ON b.hash = v.hash
  WHERE s.org_id = ? AND s.competitor_id = ? AND s.source_key = ?`;

const SOURCE_BY_KEY =
  "SELECT * FROM snapshot_sources WHERE org_id = ? AND competitor_id = ? AND source_key = ?";

export interface SnapshotStoreOptions {
  client: Client;
  store: EventStore;
  clock: Clock;
  /** Versions kept per source (RIVALS_SNAPSHOTS_KEPT). */
  kept: number;
}

export class SnapshotStore {
  readonly kept: number;
  private client: Client;
  private writer: EventStore;
  private clock: Clock;

  constructor(opts: SnapshotStoreOptions) {
    if (!Number.isInteger(opts.kept) || opts.kept < 1) throw new Error("kept must be a positive integer");
    this.client = opts.client;
    this.writer = opts.store;
    this.clock = opts.clock;
    this.kept = opts.kept;
  }

  /** `later` takes the writes whose result is not read: they go with the writer's one request. */
  private write<T>(fn: (tx: Tx, now: Date, later: Tx) => Promise<T>): Promise<T> {
    return this.writer.writeTables(({ tx, now, later }) => fn(tx, now, later));
  }

  /** Records a check's content. Unchanged content (same hash as the latest version) only moves last_checked_at
   * and the validators; changed content adds a version (and a blob unless that content is stored already),
   * then drops the versions beyond `kept` and the blobs nothing refers to any more. */
  async put(input: PutInput): Promise<PutResult> {
    const serialised = serialise(input.snapshot);
    const hash = snapshotHash(serialised);
    const key = keyOf(input);
    const known = await this.source(input);
    // Compress (and take the rotation rule's digest) outside the writer's transaction, and only when the
    // content is new to this source.
    const fresh = known?.latestHash !== hash;
    let data: Uint8Array | null = fresh ? compress(serialised) : null;
    let seen: Uint8Array | null = fresh ? digestBytes(digestOf(input.snapshot)) : null;
    const observed = (input.observedAt ?? this.clock()).toISOString();
    return this.write(async (tx, _now, later) => {
      let row = (await tx.execute({ sql: SOURCE_BY_KEY, args: [input.orgId, input.competitorId, key] }))
        .rows[0];
      if (!row) {
        row = (
          await tx.execute({
            sql: `INSERT INTO snapshot_sources (org_id, competitor_id, source_key, url, kind, first_seen_at, last_checked_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
            args: [input.orgId, input.competitorId, key, input.url, input.kind, observed, observed],
          })
        ).rows[0];
      }
      const source = rowToSource(row);
      const validators: InValue[] = [input.etag ?? null, input.lastModified ?? null];
      if (source.latestHash === hash) {
        await later.execute({
          sql: `UPDATE snapshot_sources SET last_checked_at = ?, etag = ?, last_modified = ?, failures = 0
                WHERE org_id = ? AND id = ?`,
          args: [observed, ...validators, input.orgId, source.id],
        });
        return {
          changed: false,
          hash,
          previousHash: hash,
          sourceId: source.id,
          versionId: null,
          pruned: 0,
          blobsDeleted: 0,
        };
      }
      data ??= compress(serialised);
      seen ??= digestBytes(digestOf(input.snapshot));
      await tx.execute({
        sql: `INSERT INTO snapshot_blobs (hash, codec, size, data, seen) VALUES (?, ?, ?, ?, ?)
              ON CONFLICT (hash) DO UPDATE SET seen = excluded.seen WHERE snapshot_blobs.seen IS NULL`,
        args: [hash, CODEC, serialised.length, data, seen],
      });
      const version = await tx.execute({
        sql: `INSERT INTO snapshot_versions (org_id, source_id, hash, observed_at, status, final_url)
              VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
        args: [input.orgId, source.id, hash, observed, input.status ?? null, input.finalUrl ?? null],
      });
      await tx.execute({
        sql: `UPDATE snapshot_sources SET latest_hash = ?, last_changed_at = ?, last_checked_at = ?, etag = ?,
                last_modified = ?, url = ?, failures = 0 WHERE org_id = ? AND id = ?`,
        args: [hash, observed, observed, ...validators, input.url, input.orgId, source.id],
      });
      const { pruned, blobsDeleted } = await this.prune(tx, input.orgId, source.id, this.kept);
      return {
        changed: true,
        hash,
        previousHash: source.latestHash,
        sourceId: source.id,
        versionId: Number(version.rows[0].id),
        pruned,
        blobsDeleted,
      };
    });
  }

  /** Drops a source's versions beyond the newest `keep`, then the blobs they held that nothing else refers to. */
  private async prune(
    tx: Tx,
    orgId: number,
    sourceId: number,
    keep: number,
  ): Promise<{ pruned: number; blobsDeleted: number }> {
    const old = await tx.execute({
      sql: `SELECT id, hash FROM snapshot_versions WHERE org_id = ? AND source_id = ?
            ORDER BY observed_at DESC, id DESC LIMIT -1 OFFSET ?`,
      args: [orgId, sourceId, keep],
    });
    if (old.rows.length === 0) return { pruned: 0, blobsDeleted: 0 };
    for (const r of old.rows)
      await tx.execute({
        sql: "DELETE FROM snapshot_versions WHERE org_id = ? AND id = ?",
        args: [orgId, r.id],
      });
    let blobsDeleted = 0;
    for (const hash of new Set(old.rows.map((r) => String(r.hash))))
      blobsDeleted += await this.dropBlob(tx, hash);
    return { pruned: old.rows.length, blobsDeleted };
  }

  /** Deletes a blob when no version (of any workspace: identical content is stored once) refers to it. */
  private async dropBlob(tx: Tx, hash: string): Promise<number> {
    const r = await tx.execute({
      sql: `DELETE FROM snapshot_blobs WHERE hash = ?
            AND NOT EXISTS (SELECT 1 FROM snapshot_versions WHERE hash = ?)`,
      args: [hash, hash],
    });
    return r.rowsAffected;
  }

  /** A check that brought no content to compare (a 304 answer): moves last_checked_at and the validators. */
  async recordCheck(
    ref: SourceRef,
    opts: { etag?: string; lastModified?: string; at?: Date } = {},
  ): Promise<void> {
    const at = (opts.at ?? this.clock()).toISOString();
    await this.write(async (_tx, _now, later) => {
      await later.execute({
        sql: `UPDATE snapshot_sources SET last_checked_at = ?, etag = COALESCE(?, etag),
                last_modified = COALESCE(?, last_modified), failures = 0
              WHERE org_id = ? AND competitor_id = ? AND source_key = ?`,
        args: [at, opts.etag ?? null, opts.lastModified ?? null, ref.orgId, ref.competitorId, keyOf(ref)],
      });
    });
  }

  /** A failed check (timeout, 5xx, robots): counts failures in a row; returns the count. */
  async recordFailure(ref: SourceRef, error: string, at: Date = this.clock()): Promise<number> {
    const when = at.toISOString();
    return this.write(async (tx) => {
      const r = await tx.execute({
        sql: `INSERT INTO snapshot_sources (org_id, competitor_id, source_key, url, kind, first_seen_at, last_checked_at,
                failures, last_error, last_error_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
              ON CONFLICT (org_id, competitor_id, source_key) DO UPDATE SET failures = failures + 1,
                last_error = excluded.last_error, last_error_at = excluded.last_error_at
              RETURNING failures`,
        args: [ref.orgId, ref.competitorId, keyOf(ref), ref.url, ref.kind, when, when, error, when],
      });
      return Number(r.rows[0].failures);
    });
  }

  /** Forgets a source (a monitored page removed): its versions, its row and the blobs only it held. */
  async removeSource(ref: SourceRef): Promise<boolean> {
    return this.write(async (tx) => {
      const row = (await tx.execute({ sql: SOURCE_BY_KEY, args: [ref.orgId, ref.competitorId, keyOf(ref)] }))
        .rows[0];
      if (!row) return false;
      await this.prune(tx, ref.orgId, Number(row.id), 0);
      await tx.execute({
        sql: "DELETE FROM snapshot_sources WHERE org_id = ? AND id = ?",
        args: [ref.orgId, row.id],
      });
      return true;
    });
  }

  /** Drops every source's versions beyond the kept number (after RIVALS_SNAPSHOTS_KEPT was lowered: a source
   * is otherwise pruned only when it changes), a source per transaction. Answers the versions and blobs dropped. */
  async pruneAll(): Promise<{ pruned: number; blobsDeleted: number }> {
    const over = await this.client.execute({
      sql: "SELECT org_id, source_id FROM snapshot_versions GROUP BY org_id, source_id HAVING COUNT(*) > ?",
      args: [this.kept],
    });
    let pruned = 0;
    let blobsDeleted = 0;
    for (const row of over.rows) {
      const r = await this.write((tx) =>
        this.prune(tx, Number(row.org_id), Number(row.source_id), this.kept),
      );
      pruned += r.pruned;
      blobsDeleted += r.blobsDeleted;
    }
    return { pruned, blobsDeleted };
  }

  /** Deletes every blob no version refers to (maintenance; pruning already does it as it goes). */
  async gc(): Promise<number> {
    return this.write(async (tx) => {
      const r = await tx.execute(
        "DELETE FROM snapshot_blobs WHERE NOT EXISTS (SELECT 1 FROM snapshot_versions v WHERE v.hash = snapshot_blobs.hash)",
      );
      return r.rowsAffected;
    });
  }

  async source(ref: SourceRef): Promise<SourceState | null> {
    const r = await this.client.execute({
      sql: SOURCE_BY_KEY,
      args: [ref.orgId, ref.competitorId, keyOf(ref)],
    });
    return r.rows[0] ? rowToSource(r.rows[0]) : null;
  }

  /** The sources of a workspace, or of one of its competitors. */
  async sources(orgId: number, competitorId?: number): Promise<SourceState[]> {
    const r =
      competitorId === undefined
        ? await this.client.execute({
            sql: "SELECT * FROM snapshot_sources WHERE org_id = ? ORDER BY competitor_id, source_key",
            args: [orgId],
          })
        : await this.client.execute({
            sql: "SELECT * FROM snapshot_sources WHERE org_id = ? AND competitor_id = ? ORDER BY source_key",
            args: [orgId, competitorId],
          });
    return r.rows.map(rowToSource);
  }

  /** A source's versions, newest first (at most `limit`, default all kept), with their content. */
  async latest(ref: SourceRef, limit: number = this.kept): Promise<SnapshotVersion[]> {
    return (await this.versionRows(ref, limit)).map(toVersion);
  }

  /** What a new snapshot is compared with: the source's latest version, whole, and the digests of what every
   * kept version showed (compare/seen.ts). Only the latest version is parsed; an older one only when it was
   * stored without a digest. */
  async history(ref: SourceRef): Promise<{ previous: SnapshotVersion | null; seen: Seen }> {
    const rows = await this.versionRows(ref, this.kept);
    const previous = rows.length > 0 ? toVersion(rows[0]) : null;
    const seen = new Seen();
    rows.forEach((row, i) => {
      const stored = row.seen as ArrayBuffer | null;
      if (stored) seen.add(digestFromBytes(stored));
      else seen.add(digestOf(i === 0 && previous ? previous.snapshot : toVersion(row).snapshot));
    });
    return { previous, seen };
  }

  /** Records a version observed in the past (a web-archive capture, `capture` its timestamp) without making it
   * the source's latest: the versions stay in time order, the next check still compares with the newest. */
  async putPast(
    input: SourceRef & {
      snapshot: Snapshot;
      observedAt: Date;
      capture: string;
      status?: number;
      finalUrl?: string;
    },
  ): Promise<{ hash: string; versionId: number }> {
    const serialised = serialise(input.snapshot);
    const hash = snapshotHash(serialised);
    const data = compress(serialised);
    const seen = digestBytes(digestOf(input.snapshot));
    const observed = input.observedAt.toISOString();
    return this.write(async (tx, now) => {
      const key = keyOf(input);
      let row = (await tx.execute({ sql: SOURCE_BY_KEY, args: [input.orgId, input.competitorId, key] }))
        .rows[0];
      if (!row)
        row = (
          await tx.execute({
            sql: `INSERT INTO snapshot_sources (org_id, competitor_id, source_key, url, kind, first_seen_at, last_checked_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
            args: [input.orgId, input.competitorId, key, input.url, input.kind, observed, now.toISOString()],
          })
        ).rows[0];
      const sourceId = Number(row.id);
      await tx.execute({
        sql: `INSERT INTO snapshot_blobs (hash, codec, size, data, seen) VALUES (?, ?, ?, ?, ?)
              ON CONFLICT (hash) DO UPDATE SET seen = excluded.seen WHERE snapshot_blobs.seen IS NULL`,
        args: [hash, CODEC, serialised.length, data, seen],
      });
      const version = await tx.execute({
        sql: `INSERT INTO snapshot_versions (org_id, source_id, hash, observed_at, status, final_url, capture)
              VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        args: [
          input.orgId,
          sourceId,
          hash,
          observed,
          input.status ?? null,
          input.finalUrl ?? null,
          input.capture,
        ],
      });
      await this.prune(tx, input.orgId, sourceId, this.kept);
      return { hash, versionId: Number(version.rows[0].id) };
    });
  }

  /** What a version observed at `at` is compared with: the newest version observed before it, whole, and the
   * digests of the kept versions before it; `at`: whether a version observed at that very time is stored. */
  async historyBefore(
    ref: SourceRef,
    at: string,
  ): Promise<{ previous: SnapshotVersion | null; seen: Seen; at: boolean }> {
    const rows = (
      await this.client.execute({
        sql: `${VERSION_ROWS} AND v.observed_at <= ? ORDER BY v.observed_at DESC, v.id DESC LIMIT ?`,
        args: [ref.orgId, ref.competitorId, keyOf(ref), at, this.kept + 1],
      })
    ).rows;
    const same = rows.length > 0 && String(rows[0].observed_at) === at;
    const before = same ? rows.slice(1) : rows.slice(0, this.kept);
    const seen = new Seen();
    for (const row of before) {
      const stored = row.seen as ArrayBuffer | null;
      seen.add(stored ? digestFromBytes(stored) : digestOf(toVersion(row).snapshot));
    }
    return { previous: before[0] ? toVersion(before[0]) : null, seen, at: same };
  }

  /** The oldest version observed after `at`, if any. */
  async firstAfter(ref: SourceRef, at: string): Promise<SnapshotVersion | null> {
    const r = await this.client.execute({
      sql: `${VERSION_ROWS} AND v.observed_at > ? ORDER BY v.observed_at, v.id LIMIT 1`,
      args: [ref.orgId, ref.competitorId, keyOf(ref), at],
    });
    return r.rows[0] ? toVersion(r.rows[0]) : null;
  }

  private async versionRows(ref: SourceRef, limit: number): Promise<Row[]> {
    const r = await this.client.execute({
      sql: `${VERSION_ROWS} ORDER BY v.observed_at DESC, v.id DESC LIMIT ?`,
      args: [ref.orgId, ref.competitorId, keyOf(ref), limit],
    });
    return r.rows;
  }

  /** What a workspace holds: its sources, versions, and the distinct blobs (and their compressed bytes) they use. */
  async stats(
    orgId: number,
  ): Promise<{ sources: number; versions: number; blobs: number; blobBytes: number }> {
    const r = await this.client.execute({
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
}
