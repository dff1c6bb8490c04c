// The snapshot store (docs/engine/compare.md): content-addressed, zstd-compressed blobs of normalised content
// outside the event log, and per source the last N versions. Its statements are src/db/snapshots.ts (reads
// scoped by org in SQL); writes go through the event store's single writer (a command that appends no events),
// so they never meet SQLITE_BUSY.
import type { Row } from "@libsql/client";
import type { EventStore, Tx } from "../../../events/store.ts";
import type { Clock } from "../../clock.ts";
import type { Exec } from "../../db/client.ts";
import {
  deleteBlobIfUnused,
  deleteSnapshotSource,
  deleteSnapshotVersion,
  deleteUnusedBlobs,
  firstVersionRowAfter,
  historyRows,
  insertSnapshotVersion,
  markSourceChanged,
  markSourceNotModified,
  markSourceUnchanged,
  newestVersionRows,
  putSnapshotBlob,
  recordSourceFailure,
  snapshotSourceOrNew,
  snapshotSourceRow,
  snapshotSourceRows,
  snapshotStats,
  sourcesOverKept,
  versionRowsUpTo,
  versionsBeyond,
} from "../../db/snapshots.ts";
import { serialise, snapshotHash } from "../compare/normalise.ts";
import { digestFromBytes, digestOf, Seen } from "../compare/seen.ts";
import type { Snapshot, SnapshotKind } from "../compare/types.ts";
import { CODEC, decompress, type PreparedSnapshot, prepareSnapshot } from "./blob.ts";
import type { StoredHistory } from "./observe.ts";

export { CODEC, compress, decompress, type PreparedSnapshot, prepareSnapshot } from "./blob.ts";

/** One source of one competitor of one workspace. `key` defaults to `kind:url`. */
export interface SourceRef {
  orgId: number;
  competitorId: number;
  url: string;
  kind: SnapshotKind;
  key?: string;
}

/** The content: the snapshot, or the snapshot as stored (blob.ts) when it was prepared where it was made. */
export type PutInput = SourceRef &
  ({ snapshot: Snapshot; prepared?: undefined } | { prepared: PreparedSnapshot; snapshot?: undefined }) &
  PutDetails;

export interface PutDetails {
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

const sourceKey = (ref: SourceRef) => ({ orgId: ref.orgId, competitorId: ref.competitorId, key: keyOf(ref) });

export interface SnapshotStoreOptions {
  /** Where reads run (the database, or a client). */
  database: Exec;
  store: EventStore;
  clock: Clock;
  /** Versions kept per source (RIVALS_SNAPSHOTS_KEPT). */
  kept: number;
}

export class SnapshotStore {
  readonly kept: number;
  private db: Exec;
  private writer: EventStore;
  private clock: Clock;

  constructor(opts: SnapshotStoreOptions) {
    if (!Number.isInteger(opts.kept) || opts.kept < 1) throw new Error("kept must be a positive integer");
    this.db = opts.database;
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
    const serialised = input.prepared ? "" : serialise(input.snapshot);
    const hash = input.prepared?.hash ?? snapshotHash(serialised);
    const known = await this.source(input);
    // Compress (and take the rotation rule's digest) outside the writer's transaction, and only when the
    // content is new to this source.
    const stored = () => input.prepared ?? prepareSnapshot(input.snapshot, serialised, hash);
    let prepared = known?.latestHash !== hash ? stored() : null;
    const observed = (input.observedAt ?? this.clock()).toISOString();
    return this.write(async (tx, _now, later) => {
      const row = await snapshotSourceOrNew(tx, {
        ...sourceKey(input),
        url: input.url,
        kind: input.kind,
        firstSeenAt: observed,
        lastCheckedAt: observed,
      });
      const source = rowToSource(row);
      const validators = { etag: input.etag ?? null, lastModified: input.lastModified ?? null };
      if (source.latestHash === hash) {
        await markSourceUnchanged(later, input.orgId, source.id, observed, validators);
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
      prepared ??= stored();
      const { size, data, seen } = prepared;
      await putSnapshotBlob(tx, { hash, codec: CODEC, size, data, seen });
      const versionId = await insertSnapshotVersion(tx, {
        orgId: input.orgId,
        sourceId: source.id,
        hash,
        observedAt: observed,
        status: input.status ?? null,
        finalUrl: input.finalUrl ?? null,
      });
      await markSourceChanged(tx, input.orgId, source.id, {
        hash,
        at: observed,
        url: input.url,
        ...validators,
      });
      const { pruned, blobsDeleted } = await this.prune(tx, input.orgId, source.id, this.kept);
      return {
        changed: true,
        hash,
        previousHash: source.latestHash,
        sourceId: source.id,
        versionId,
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
    const old = await versionsBeyond(tx, orgId, sourceId, keep);
    if (old.length === 0) return { pruned: 0, blobsDeleted: 0 };
    for (const r of old) await deleteSnapshotVersion(tx, orgId, r.id);
    let blobsDeleted = 0;
    for (const hash of new Set(old.map((r) => r.hash))) blobsDeleted += await deleteBlobIfUnused(tx, hash);
    return { pruned: old.length, blobsDeleted };
  }

  /** A check that brought no content to compare (a 304 answer): moves last_checked_at and the validators. */
  async recordCheck(
    ref: SourceRef,
    opts: { etag?: string; lastModified?: string; at?: Date } = {},
  ): Promise<void> {
    const at = (opts.at ?? this.clock()).toISOString();
    await this.write((_tx, _now, later) =>
      markSourceNotModified(later, sourceKey(ref), at, {
        etag: opts.etag ?? null,
        lastModified: opts.lastModified ?? null,
      }),
    );
  }

  /** A failed check (timeout, 5xx, robots): counts failures in a row; returns the count. */
  async recordFailure(ref: SourceRef, error: string, at: Date = this.clock()): Promise<number> {
    const when = at.toISOString();
    return this.write((tx) =>
      recordSourceFailure(tx, { ...sourceKey(ref), url: ref.url, kind: ref.kind }, error, when),
    );
  }

  /** Forgets a source (a monitored page removed): its versions, its row and the blobs only it held. */
  async removeSource(ref: SourceRef): Promise<boolean> {
    return this.write(async (tx) => {
      const row = await snapshotSourceRow(tx, ref.orgId, ref.competitorId, keyOf(ref));
      if (!row) return false;
      await this.prune(tx, ref.orgId, Number(row.id), 0);
      await deleteSnapshotSource(tx, ref.orgId, Number(row.id));
      return true;
    });
  }

  /** Drops every source's versions beyond the kept number (after RIVALS_SNAPSHOTS_KEPT was lowered: a source
   * is otherwise pruned only when it changes), a source per transaction. Answers the versions and blobs dropped. */
  async pruneAll(): Promise<{ pruned: number; blobsDeleted: number }> {
    let pruned = 0;
    let blobsDeleted = 0;
    for (const over of await sourcesOverKept(this.db, this.kept)) {
      const r = await this.write((tx) => this.prune(tx, over.orgId, over.sourceId, this.kept));
      pruned += r.pruned;
      blobsDeleted += r.blobsDeleted;
    }
    return { pruned, blobsDeleted };
  }

  /** Deletes every blob no version refers to (maintenance; pruning already does it as it goes). */
  async gc(): Promise<number> {
    return this.write((tx) => deleteUnusedBlobs(tx));
  }

  async source(ref: SourceRef): Promise<SourceState | null> {
    const row = await snapshotSourceRow(this.db, ref.orgId, ref.competitorId, keyOf(ref));
    return row ? rowToSource(row) : null;
  }

  /** The sources of a workspace, or of one of its competitors. */
  async sources(orgId: number, competitorId?: number): Promise<SourceState[]> {
    return (await snapshotSourceRows(this.db, orgId, competitorId)).map(rowToSource);
  }

  /** A source's versions, newest first (at most `limit`, default all kept), with their content. */
  async latest(ref: SourceRef, limit: number = this.kept): Promise<SnapshotVersion[]> {
    return (await this.versionRows(ref, limit)).map(toVersion);
  }

  /** What a new snapshot is compared with, as stored (snapshots/observe.ts readHistory reads it): the kept
   * versions' digests, and the content of the latest one (and of any stored without a digest). */
  async storedHistory(ref: SourceRef): Promise<StoredHistory> {
    const rows = await historyRows(this.db, sourceKey(ref), this.kept);
    return {
      versions: rows.map((row) => ({
        codec: String(row.codec),
        seen: (row.seen as ArrayBuffer | null) ?? null,
        data: (row.data as ArrayBuffer | null) ?? null,
      })),
    };
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
    const { hash, size, data, seen } = prepareSnapshot(input.snapshot);
    const observed = input.observedAt.toISOString();
    return this.write(async (tx, now) => {
      const row = await snapshotSourceOrNew(tx, {
        ...sourceKey(input),
        url: input.url,
        kind: input.kind,
        firstSeenAt: observed,
        lastCheckedAt: now.toISOString(),
      });
      const sourceId = Number(row.id);
      await putSnapshotBlob(tx, { hash, codec: CODEC, size, data, seen });
      const versionId = await insertSnapshotVersion(tx, {
        orgId: input.orgId,
        sourceId,
        hash,
        observedAt: observed,
        status: input.status ?? null,
        finalUrl: input.finalUrl ?? null,
        capture: input.capture,
      });
      await this.prune(tx, input.orgId, sourceId, this.kept);
      return { hash, versionId };
    });
  }

  /** What a version observed at `at` is compared with: the newest version observed before it, whole, and the
   * digests of the kept versions before it; `at`: whether a version observed at that very time is stored. */
  async historyBefore(
    ref: SourceRef,
    at: string,
  ): Promise<{ previous: SnapshotVersion | null; seen: Seen; at: boolean }> {
    const rows = await versionRowsUpTo(this.db, sourceKey(ref), at, this.kept + 1);
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
    const row = await firstVersionRowAfter(this.db, sourceKey(ref), at);
    return row ? toVersion(row) : null;
  }

  private versionRows(ref: SourceRef, limit: number): Promise<Row[]> {
    return newestVersionRows(this.db, sourceKey(ref), limit);
  }

  /** What a workspace holds: its sources, versions, and the distinct blobs (and their compressed bytes) they use. */
  async stats(
    orgId: number,
  ): Promise<{ sources: number; versions: number; blobs: number; blobBytes: number }> {
    return snapshotStats(this.db, orgId);
  }
}
