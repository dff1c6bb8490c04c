// The process-wide extraction pool: page parsing and tech detection run in Workers (extractWorker.ts); so do
// a monitoring cycle's page snapshots (extract, normalise, serialise and hash in one task).
import type { Config } from "../../config.ts";
import type { SignalDraft } from "../classify/types.ts";
import type { Snapshot } from "../compare/types.ts";
import type { PageExtract } from "../extract/page.ts";
import type { PageRead } from "../research/pageRead.ts";
import type { PreparedSnapshot } from "../snapshots/blob.ts";
import type { DraftContext, StoredHistory } from "../snapshots/observe.ts";
import { WorkerPool } from "./pool.ts";

export interface ExtractTask {
  html: string;
  url: string;
  headers?: Record<string, string>;
  /** Also detect technologies (home page and a few others). */
  tech?: boolean;
}
export interface ExtractTaskResult {
  page: PageExtract;
  tech: { name: string; category: string; evidence: string }[];
}

/** A cycle's page check: the page's normalised snapshot and its hash. `url` is the page's final URL (links
 * resolve against it); `sourceUrl` the URL the snapshot records (the source's own). `signature`: the page
 * signature (compare/signature.ts) of the body the source's latest snapshot was made from, when the page has one
 * (once its bytes have changed without its snapshot). */
export interface SnapshotTask {
  snapshot: true;
  html: string;
  url: string;
  sourceUrl: string;
  signature?: string;
  /** The hash of the source's latest snapshot: a snapshot with this hash changed nothing. */
  latestHash?: string;
  /** Who and when the page's changes are classified for: a snapshot with another hash than `latestHash` asks
   * for the source's history as stored (`SnapshotQuestion`), is compared with it and classified. Without it, or
   * with no stored version in the history, the snapshot is a baseline. */
  compare?: DraftContext;
  /** Also give a changed page's read for the dossier (research/pageRead.ts) as a source of research's `kind`,
   * with its technologies when `tech`. */
  read?: { kind: string; tech: boolean; headers: Record<string, string> };
  /** The source's first snapshot: nothing compares it and the dossier reads nothing from it. */
  first?: boolean;
  /** The snapshot itself back, whatever it is (the web archive's captures, compared where they are stored). */
  whole?: boolean;
}
/** What a page check found, each with the page's `signature` when it has one (never when the page could only be
 * read as text): `same`, nothing new (the signature is the task's, or the snapshot's hash is the latest one:
 * then the page is signed, its bytes having moved without its content); `first`, a baseline, as the store keeps
 * it; `changed`, the new snapshot as the store keeps it, the drafts of what it changed (none when nothing the
 * rules read did) and the page's read when asked; `whole`, the snapshot. */
export type SnapshotTaskResult =
  | { whole: true; snapshot: Snapshot; hash: string; signature?: string }
  | { same: true; signature?: string }
  | { first: true; hash: string; signature?: string; prepared: PreparedSnapshot }
  | {
      changed: true;
      hash: string;
      signature?: string;
      prepared: PreparedSnapshot;
      drafts: SignalDraft[];
      read?: PageRead;
    };

/** What a snapshot task asks while it runs: the source's history, as stored (answered with a StoredHistory). */
export type SnapshotQuestion = "history";

/** How long the pool's workers outlive their last task: between two hourly cycles they end, and the process goes
 * back to its size before them. */
const IDLE_MS = 60_000;

/** The workers run on JavaScriptCore's small heap (Bun's `smol` Worker option): a cycle of first snapshots
 * (1,000 competitors x 2 pages) peaked about 10 MB lower for the whole process; its CPU per page did not differ
 * beyond the machine's noise (docs/scale.md, "Memory"). */
const SMOL = true;

type SnapshotPool = WorkerPool<SnapshotTask, SnapshotTaskResult, SnapshotQuestion, StoredHistory>;
type Pool = WorkerPool<
  ExtractTask | SnapshotTask,
  ExtractTaskResult | SnapshotTaskResult,
  SnapshotQuestion,
  StoredHistory
>;
let pool: Pool | undefined;

/** Where the worker's entry is. From source, next to this file. In the binary `bun build --compile` makes
 * (scripts/build.ts lists the worker as a second entry point, files kept under their paths below src/), this
 * module is bundled into the executable at /$bunfs/root/<name>, and the worker is embedded at
 * /$bunfs/root/engine/workers/extractWorker.ts. */
export function workerEntry(here: string = import.meta.url): string {
  const compiled = here.includes("$bunfs") || here.includes("%24bunfs") || here.includes("~BUN");
  return new URL(compiled ? "./engine/workers/extractWorker.ts" : "./extractWorker.ts", here).href;
}

/** The process's one pool, sized by the first configuration that asks for it (`workers`, RIVALS_WORKERS). */
function sharedPool(config: Pick<Config, "workers">) {
  pool ??= new WorkerPool(workerEntry(), config.workers, { idleMs: IDLE_MS, smol: SMOL }) as Pool;
  return pool;
}

export function extractPool(config: Pick<Config, "workers">): WorkerPool<ExtractTask, ExtractTaskResult> {
  return sharedPool(config) as unknown as WorkerPool<ExtractTask, ExtractTaskResult>;
}

/** Page bodies waiting or being read per extraction worker at which a cycle reads no further body. */
export const BACKLOG_PER_WORKER = 4;

/** Resolves once the pool has room for another page body (fewer than BACKLOG_PER_WORKER tasks per worker). What
 * waits for the pool is whole bodies: when it is the slower side (a cycle of first snapshots), a cycle that waits
 * here before each request holds a few bodies, not every page of every competitor it checks at once. */
export function roomForBody(config: Pick<Config, "workers">): Promise<void> {
  return sharedPool(config).room(BACKLOG_PER_WORKER * config.workers);
}

/** The same pool, for snapshot tasks. */
export function snapshotPool(config: Pick<Config, "workers">): SnapshotPool {
  return sharedPool(config) as unknown as SnapshotPool;
}
