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
  tech: { name: string; category: string }[];
}

let pool: WorkerPool<ExtractTask, ExtractTaskResult> | undefined;

export function extractPool(): WorkerPool<ExtractTask, ExtractTaskResult> {
  pool ??= new WorkerPool<ExtractTask, ExtractTaskResult>(
    new URL("./extractWorker.ts", import.meta.url).href,
  );
  return pool;
}
