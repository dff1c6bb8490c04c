// Runs research for the tools, the app and `rivals research`: one command records the start (the domain's
// rules: allowance, first brief, one run per competitor), the engine reads each site, and one command per run
// records how it ended. Callers wait up to `waitMs`; a run taking longer goes on in the background and its
// state shows in the dossier's `freshness` (research_state).
import type { EventMetadata } from "../../../events/catalog.ts";
import { runCommand } from "../../../events/command.ts";
import { type StartCommand, type StartResult, startResearchRuns } from "../../domain/research.ts";
import type { ResearchTrigger } from "../../domain/researchTypes.ts";
import type { Caller } from "../../domain/watchlist.ts";
import type { Services } from "../../services.ts";
import { queueHistory, startHistory } from "../archive/background.ts";
import { type FetchResult, workspaceFetcher } from "../fetch/index.ts";
import { tenantRenderer } from "../render/index.ts";
import { extractPool } from "../workers/extract.ts";
import { baselineFromResearch } from "./baseline.ts";
import { readIcon, storeIcon } from "./icon.ts";
import { type ResearchSummary, researchSite } from "./index.ts";
import { endRun, keepLeases, leaseOf } from "./lease.ts";

export interface RunReport {
  run_id: number;
  competitor_id: number;
  name: string;
  status: "finished" | "failed";
  error?: { code: string; reason: string };
  summary?: ResearchSummary;
}

/** Runs of one call at a time (different sites; the fetcher keeps each host polite). */
const CONCURRENCY = 3;

const inFlight = new WeakMap<Services, Set<Promise<unknown>>>();

/** Resolves when every research run this process started on `s` has ended (tests, bench, shutdown). */
export async function researchIdle(s: Services): Promise<void> {
  for (;;) {
    const set = inFlight.get(s);
    if (!set || set.size === 0) return;
    await Promise.allSettled([...set]);
  }
}

async function runOne(
  s: Services,
  orgId: number,
  run: StartResult["runs"][number],
  metadata: EventMetadata,
): Promise<RunReport> {
  const base = { run_id: run.run_id, competitor_id: run.competitor_id, name: run.name };
  let outcome: Awaited<ReturnType<typeof researchSite>>;
  const read = new Map<string, FetchResult>();
  const { fetcher, confined } = await workspaceFetcher(s, orgId);
  try {
    outcome = await researchSite(run.website_url, {
      fetcher,
      renderer: confined ? undefined : tenantRenderer(s, orgId),
      extractor: extractPool(s.config),
      now: s.clock,
      onFetched: (r) => {
        if (r.ok && !read.has(r.url)) read.set(r.url, r);
      },
    });
  } catch (e) {
    console.error(
      JSON.stringify({ level: "error", research_run: run.run_id, error: String((e as Error)?.stack ?? e) }),
    );
    outcome = {
      ok: false,
      code: "internal_error",
      reason: "Research stopped on an internal error; nothing of it was stored. Try again later.",
    };
  }
  if (outcome.ok) {
    await endRun(s, run.run_id, { ok: true, dossier: outcome.dossier }, metadata);
    try {
      await baselineFromResearch(s, orgId, { id: run.competitor_id, name: run.name }, read);
      const home = read.get(run.website_url);
      if (home?.ok && !home.notModified) {
        const icon = await readIcon(fetcher, home.text, home.finalUrl);
        if (icon) await storeIcon(s, orgId, run.competitor_id, icon, s.clock());
      }
    } catch (e) {
      // The first cycle takes the baselines instead: research itself has succeeded.
      console.error(
        JSON.stringify({
          level: "error",
          research_run: run.run_id,
          baseline: String((e as Error)?.message ?? e),
        }),
      );
    }
    return { ...base, status: "finished", summary: outcome.summary };
  }
  await endRun(s, run.run_id, outcome, metadata);
  return { ...base, status: "failed", error: { code: outcome.code, reason: outcome.reason } };
}

async function runAll(
  s: Services,
  orgId: number,
  start: StartResult,
  metadata: EventMetadata,
): Promise<RunReport[]> {
  const reports: RunReport[] = new Array(start.runs.length);
  let next = 0;
  const lane = async () => {
    while (next < start.runs.length) {
      const i = next++;
      reports[i] = await runOne(s, orgId, start.runs[i], metadata);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, start.runs.length) }, lane));
  return reports;
}

export interface Started {
  start: StartResult;
  /** Every run's report, when all have ended. */
  done: Promise<RunReport[]>;
}

/** Records the start (throws the domain's refusals) and launches the runs. */
export async function startResearch(
  s: Services,
  caller: Caller,
  cmd: StartCommand,
  trigger: ResearchTrigger,
  opts: {
    usesAllowance: boolean;
    metadata?: EventMetadata;
    /** What a finished run does about the competitor's web-archive history: read it in the background (default),
     * leave it queued for `rivals serve` (a short-lived process), or nothing (the demo's fictional sites). */
    history?: "background" | "queue" | "none";
  },
): Promise<Started> {
  const metadata = opts.metadata ?? { actor: caller.actor };
  // The runs' leases are taken with their start: no other instance ever sees them running without an owner.
  const start = await runCommand(
    s.store,
    startResearchRuns,
    { cmd, trigger, usesAllowance: opts.usesAllowance, lease: leaseOf(s) },
    { caller, metadata },
  );
  const leases = keepLeases(
    s,
    start.runs.map((r) => r.run_id),
  );
  const history = opts.history ?? "background";
  const done = runAll(s, caller.orgId, start, metadata)
    .finally(() => leases.stop())
    .then(async (reports) => {
      for (const r of reports)
        if (r.status === "finished" && history === "background")
          startHistory(s, caller.orgId, r.competitor_id);
        else if (r.status === "finished" && history === "queue")
          await queueHistory(s, caller.orgId, r.competitor_id).catch(() => undefined);
      return reports;
    });
  let set = inFlight.get(s);
  if (!set) {
    set = new Set();
    inFlight.set(s, set);
  }
  const tracked = done.catch(() => undefined);
  set.add(tracked);
  void tracked.finally(() => set.delete(tracked));
  return { start, done };
}

/** Waits for `done` up to `ms`; undefined when the runs are still going. */
export async function within<T>(done: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
