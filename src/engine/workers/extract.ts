// The process-wide extraction pool: page parsing and tech detection run in Workers (extractWorker.ts).
import type { PageExtract } from "../extract/page.ts";
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

let pool: WorkerPool<ExtractTask, ExtractTaskResult> | undefined;

/** Where the worker's entry is. From source, next to this file. In the binary `bun build --compile` makes
 * (scripts/build.ts lists the worker as a second entry point, files kept under their paths below src/), this
 * module is bundled into the executable at /$bunfs/root/<name>, and the worker is embedded at
 * /$bunfs/root/engine/workers/extractWorker.ts. */
export function workerEntry(here: string = import.meta.url): string {
  const compiled = here.includes("$bunfs") || here.includes("%24bunfs") || here.includes("~BUN");
  return new URL(compiled ? "./engine/workers/extractWorker.ts" : "./extractWorker.ts", here).href;
}

export function extractPool(): WorkerPool<ExtractTask, ExtractTaskResult> {
  pool ??= new WorkerPool<ExtractTask, ExtractTaskResult>(workerEntry());
  return pool;
}
