// History runs in the background (docs/engine/archive.md): started when research of a
// competitor finishes and when a page is added to watch, one run per competitor in this process (a start while it
// runs reads the new pages after it), and taken up again by `rivals serve` when a run's instance stopped or died.

import { orphanedRuns, queueRun } from "../../db/archiveHistory.ts";
import type { Services } from "../../services.ts";
import { heartbeat } from "../instance.ts";
import { readHistory } from "./run.ts";

/** How often `rivals serve` looks for runs left unfinished. */
const SWEEP_MS = 60_000;

interface Running {
  done: Promise<void>;
  again: boolean;
}

const running = new WeakMap<Services, Map<string, Running>>();
const stopping = new WeakSet<Services>();

function log(line: Record<string, unknown>): void {
  console.error(JSON.stringify(line));
}

/** Starts (or, when one runs, queues another pass of) the competitor's history. Never throws. */
export function startHistory(s: Services, orgId: number, competitorId: number): void {
  if (s.config.archiveMonths === 0 || stopping.has(s)) return;
  let map = running.get(s);
  if (!map) {
    map = new Map();
    running.set(s, map);
  }
  const k = `${orgId}:${competitorId}`;
  const had = map.get(k);
  if (had) {
    had.again = true;
    return;
  }
  const entry: Running = { again: false, done: Promise.resolve() };
  const loop = async () => {
    do {
      entry.again = false;
      try {
        await readHistory(s, orgId, competitorId, { stopped: () => stopping.has(s) });
      } catch (e) {
        log({ level: "error", history: competitorId, org: orgId, error: String((e as Error)?.stack ?? e) });
      }
    } while (entry.again && !stopping.has(s));
  };
  entry.done = loop().finally(() => map.delete(k));
  map.set(k, entry);
}

/** Leaves the competitor's history to be read by the next `rivals serve` (a run without a holder). */
export async function queueHistory(s: Services, orgId: number, competitorId: number): Promise<void> {
  if (s.config.archiveMonths > 0) await queueRun(s, orgId, competitorId, s.config.archiveMonths);
}

/** Resolves when every history run this process started on `s` has ended (tests, shutdown). */
export async function historyIdle(s: Services): Promise<void> {
  for (;;) {
    const map = running.get(s);
    if (!map || map.size === 0) return;
    await Promise.allSettled([...map.values()].map((r) => r.done));
  }
}

/** `rivals serve`: takes up unfinished runs now and every minute; `stop()` stops this process's runs between two
 * captures and lets go of them (the next start goes on from there). */
export function startHistoryLoop(s: Services): { stop(): Promise<void> } {
  const sweep = async () => {
    for (const r of await orphanedRuns(s)) startHistory(s, r.orgId, r.competitorId);
  };
  void sweep().catch((e) => log({ level: "warn", history_sweep: String((e as Error)?.message ?? e) }));
  const beat = heartbeat(SWEEP_MS, "history sweep", sweep);
  return {
    stop: async () => {
      beat.stop();
      stopping.add(s);
      await historyIdle(s);
    },
  };
}
