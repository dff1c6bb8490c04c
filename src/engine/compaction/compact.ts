// Compaction (docs/operations.md): drops the bookkeeping of cycles older than N days that nothing serves —
// CompetitorChecked events but the ones a competitor's freshness comes from, ended cycles' records but each
// workspace's last, snapshot versions beyond RIVALS_SNAPSHOTS_KEPT and blobs no version holds. Run by
// `rivals compact` and, on its cadence, by `rivals serve` (periodic.ts).
import {
  databaseBytes,
  dropOldChecks,
  dropOldCycles,
  streamsWithOldChecks,
  vacuum,
} from "../../db/compaction.ts";
import type { Services } from "../../services.ts";
import { snapshotStoreFor } from "../snapshots/index.ts";

/** Days of cycles kept whole: a weekly digest counts the cycles of its week, and may be written again. */
export const COMPACT_DAYS = 35;

export interface CompactReport {
  before: string;
  checks_deleted: number;
  cycles_deleted: number;
  cycle_events_deleted: number;
  snapshot_versions_deleted: number;
  snapshot_blobs_deleted: number;
  bytes_before: number;
  bytes_after: number;
  free_bytes_after: number;
}

/** Compacts what was recorded before `days` days ago (by the services' clock). */
export async function compact(
  s: Services,
  days: number,
  o: { vacuum?: boolean } = {},
): Promise<CompactReport> {
  const before = new Date(s.clock().getTime() - days * 86_400_000).toISOString();
  const size0 = await databaseBytes(s.database);
  let checks = 0;
  // A competitor per transaction: the writer stays free for the service between them.
  for (const stream of await streamsWithOldChecks(s.database, before))
    checks += await s.store.writeTables(({ tx }) => dropOldChecks(tx, stream, before));
  const cycles = await s.store.writeTables(({ tx }) => dropOldCycles(tx, before));
  const snapshots = snapshotStoreFor(s);
  const pruned = await snapshots.pruneAll();
  const blobs = pruned.blobsDeleted + (await snapshots.gc());
  if (o.vacuum) await vacuum(s.database);
  const size1 = await databaseBytes(s.database);
  return {
    before,
    checks_deleted: checks,
    cycles_deleted: cycles.cycles,
    cycle_events_deleted: cycles.events,
    snapshot_versions_deleted: pruned.pruned,
    snapshot_blobs_deleted: blobs,
    bytes_before: size0.bytes,
    bytes_after: size1.bytes,
    free_bytes_after: size1.free,
  };
}
