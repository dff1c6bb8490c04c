// One monitoring cycle of one workspace (docs/engine/cycles.md), as orchestration: the cycle's record opened
// (record.ts), the core competitors checked two at a time — their sources (sources.ts), each source checked
// (check.ts: a conditional GET, extraction in the Worker pool, the comparison with its history), what they
// show classified and recorded with one CompetitorChecked event per competitor (competitor.ts, results.ts) —
// then expired signals closed, the after-cycle steps (after.ts), and the summary on the cycle's record. An
// unchanged source adds no snapshot bytes, an unchanged cycle one event per competitor; a 304 answer is not
// even extracted.

import type { Clock } from "../../clock.ts";
import { cycleCompetitors } from "../../db/queries/cycles.ts";
import { orgSlugById } from "../../db/queries/orgs.ts";
import { MAX_FAILURES_LISTED } from "../../domain/cycles.ts";
import { DomainError } from "../../domain/errors.ts";
import type { Services } from "../../services.ts";
import { type Fetcher, workspaceFetcher } from "../fetch/index.ts";
import {
  dropShares,
  offerShares,
  type PendingShare,
  type ShareResult,
  shareResults,
  workShares,
} from "../schedule/shares.ts";
import { collectAfterWork } from "../workers/collect.ts";
import { roomForBody } from "../workers/extract.ts";
import { closeExpiredSignals } from "../write/signals.ts";
import { afterCycleSteps } from "./after.ts";
import { checkAndRecord } from "./competitor.ts";
import { type Lanes, sharedHostWaits } from "./lanes.ts";
import { flushQuietChecks } from "./quiet.ts";
import { adoptCycle, finishCycle, type OpenedCycle, openCycle } from "./record.ts";
import type { CompetitorResult } from "./results.ts";
import { competitorSources } from "./sources.ts";
import type { CompetitorRow, CycleSummary, CycleTrigger, FinishedCycle, Source } from "./types.ts";

/** The main thread's heap size above which the cycle collects garbage after a competitor whose bodies were
 * read (a size check, about 10 µs): the process stays under the peak memory a cycle may reach
 * (docs/decisions.md). 48 MB: at 32 a cycle of first snapshots peaked some 30 MB lower than at 48 but took about a
 * fifth more CPU (the heap is about 25 MB with nothing running, so it collected after nearly every competitor,
 * also in hourly cycles of unchanged pages); at 64 it peaked about as high as at 48 (docs/scale.md, "Memory"). */
const COLLECT_ABOVE_HEAP_BYTES = 48 * 1024 * 1024;

export type { CycleSummary, CycleTrigger, FinishedCycle } from "./types.ts";

export interface CycleOptions {
  competitorId?: number;
  trigger: CycleTrigger;
  /** The scheduler's due slot (ISO start), recorded on CycleStarted. */
  slot?: string;
  /** Competitors of this cycle checked at once (default 2); with `lanes`, also bounded by the process's. */
  concurrency?: number;
  /** The process-wide bound shared with its other cycles (lanes.ts; the scheduler passes it). */
  lanes?: Lanes;
  /** The fetcher (default: the process-wide one for the services' config). */
  fetcher?: Fetcher;
  /** A scheduled cycle shared with the other instances on the database (schedule/shares.ts): its competitors
   * are claimed a few at a time by whichever instance has free lanes, and an unfinished cycle of the same slot
   * whose instance died is taken over, its checked competitors not checked again. Needs `slot` and `lanes`. */
  share?: { holder: string; clock: Clock; pollMs?: number };
}

const running = new WeakMap<Services, Map<number, Promise<unknown>>>();

/** Runs one cycle of the workspace `orgId` (or of one of its core competitors). Cycles of one workspace in this
 * process run one after another. Throws DomainError not_found for an unknown workspace or competitor. */
export async function runCycle(s: Services, orgId: number, opts: CycleOptions): Promise<CycleSummary> {
  let perOrg = running.get(s);
  if (!perOrg) {
    perOrg = new Map();
    running.set(s, perOrg);
  }
  const before = perOrg.get(orgId) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(() => cycle(s, orgId, opts));
  const tracked = mine.catch(() => undefined);
  perOrg.set(orgId, tracked);
  void tracked.finally(() => {
    if (perOrg.get(orgId) === tracked) perOrg.delete(orgId);
  });
  return mine;
}

/** The workspace's core competitors in the cycle's order (or the one asked for). */
async function coreCompetitors(s: Services, orgId: number, competitorId?: number): Promise<CompetitorRow[]> {
  return (await cycleCompetitors(s.database, orgId, competitorId)).map((r): CompetitorRow => {
    const state = JSON.parse(r.state) as { freshness?: { research_state?: string } };
    return { id: r.id, name: r.name, researchState: state.freshness?.research_state };
  });
}

async function cycle(s: Services, orgId: number, opts: CycleOptions): Promise<CycleSummary> {
  const slug = await orgSlugById(s.database, orgId);
  if (slug === undefined) throw new DomainError("not_found", `no workspace ${orgId}`);
  const comps = await coreCompetitors(s, orgId, opts.competitorId);
  if (opts.competitorId !== undefined && comps.length === 0)
    throw new DomainError("not_found", `no core competitor ${opts.competitorId} in this workspace`);

  const started =
    (opts.share && opts.slot !== undefined ? await adoptCycle(s, orgId, opts.slot) : null) ??
    (await openCycle(s, orgId, opts));
  try {
    return await checkAll(s, orgId, slug, comps, started, opts);
  } finally {
    started.stop();
  }
}

async function checkAll(
  s: Services,
  orgId: number,
  orgSlug: string,
  comps: CompetitorRow[],
  started: OpenedCycle,
  opts: CycleOptions,
): Promise<CycleSummary> {
  const fetcher = opts.fetcher ?? (await workspaceFetcher(s, orgId)).fetcher;
  const skipped: CycleSummary["competitors_skipped"] = [];
  const results: CompetitorResult[] = [];
  const keep = (r: ShareResult) => {
    // A competitor removed from the watch list while its cycle was shared gives an empty result: left out.
    if ("result" in r) {
      if (r.result.checked > 0) results.push(r.result);
    } else skipped.push(r.skipped);
  };
  if (opts.share && opts.lanes) {
    // Whichever instance claims a competitor checks it (its sources read then); the rows hold every result until
    // all are done.
    await offerShares(
      s,
      started.id,
      orgId,
      comps.map((c) => c.id),
    );
    const byId = new Map(comps.map((c) => [c.id, c]));
    await workShares(s, {
      cycleId: started.id,
      holder: opts.share.holder,
      clock: opts.share.clock,
      lanes: opts.lanes,
      wait: true,
      pollMs: opts.share.pollMs,
      check: (id) => checkCycleCompetitor(s, orgId, started, id, fetcher, byId.get(id)),
    });
    for (const r of await shareResults(s, started.id)) keep(r);
  } else {
    const work: { comp: CompetitorRow; sources: Source[] }[] = [];
    for (const comp of comps) {
      const sources = await competitorSources(s, orgId, comp.id);
      if (sources.length === 0) skipped.push(notChecked(comp));
      else work.push({ comp, sources });
    }
    let next = 0;
    const recorded: Promise<void>[] = [];
    const lane = async () => {
      while (next < work.length) {
        const w = work[next++];
        const check = () => checkOne(s, orgId, started, w.comp, w.sources, fetcher);
        const pending = await (opts.lanes ? opts.lanes.run(check) : check());
        recorded.push(pending.recorded.then(keep));
      }
    };
    // Two competitors at a time by default: without a pause between requests (a local site) the extraction pool
    // is the bound, and more lanes only hold more pages in memory while they wait for it (docs/engine/speed.md,
    // "Cycles", compares the two). The scheduler passes more, bounded by the process's lanes: with a second
    // between two requests to a host, hosts at once is the speed.
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 2, work.length)) }, lane),
    );
    // Nothing left to start: the quiet checks still waiting for their batch are written now.
    flushQuietChecks(s);
    await Promise.all(recorded);
  }

  const expired = await closeExpiredSignals(s, orgId, s.clock());
  const sum = (f: (r: CompetitorResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const signalIds = {
    created: results.flatMap((r) => r.created),
    updated: results.flatMap((r) => r.updated),
    closed: [...results.flatMap((r) => r.closed), ...expired.closed],
  };
  const summary: CycleSummary = {
    cycle_id: started.id,
    org: orgSlug,
    trigger: opts.trigger,
    started_at: started.startedAt,
    finished_at: "",
    competitors_checked: results.length,
    competitors_skipped: skipped,
    pages_checked: sum((r) => r.checked),
    pages_changed: sum((r) => r.changed),
    pages_failed: sum((r) => r.failed),
    pages_not_modified: sum((r) => r.notModified),
    pages_baseline: sum((r) => r.baseline),
    pages_due_later: sum((r) => r.dueLater),
    signals_created: signalIds.created.length,
    signals_updated: signalIds.updated.length,
    signals_closed: signalIds.closed.length,
    battlecards_written: 0,
    digests_written: 0,
    deliveries: 0,
    failures: results
      .flatMap((r) =>
        r.failures.map((f) => ({
          competitor_id: r.competitorId,
          url: f.url,
          error: f.error,
          failures: f.failures,
        })),
      )
      .slice(0, MAX_FAILURES_LISTED),
  };
  const finished: FinishedCycle = {
    id: started.id,
    orgId,
    startedAt: started.startedAt,
    finishedAt: s.clock().toISOString(),
    signalIds,
    competitorIds: results.map((r) => r.competitorId),
  };
  const errors: string[] = [];
  for (const step of afterCycleSteps) {
    try {
      const part = await step(s, finished);
      for (const [k, v] of Object.entries(part)) {
        if (typeof v === "number" && typeof summary[k] === "number") summary[k] = (summary[k] as number) + v;
        else if (v !== undefined) summary[k] = v;
      }
    } catch (e) {
      const msg = `${step.name || "step"}: ${String((e as Error)?.message ?? e)}`;
      errors.push(msg);
      console.error(JSON.stringify({ level: "error", cycle: started.id, after_cycle_step: msg }));
    }
  }
  if (errors.length) summary.errors = errors;
  await finishCycle(s, started.id, summary);
  if (opts.share) await dropShares(s, started.id);
  return summary;
}

/** Checks one competitor of a cycle: back once its sources are checked (its lane is free then), with its result,
 * or (an internal error) why it was not checked, once its writes are committed. */
async function checkOne(
  s: Services,
  orgId: number,
  cycle: CycleRef,
  comp: CompetitorRow,
  sources: Source[],
  fetcher: Fetcher,
): Promise<PendingShare> {
  const failed = (e: unknown): ShareResult => {
    console.error(
      JSON.stringify({
        level: "error",
        cycle: cycle.id,
        competitor_id: comp.id,
        error: String((e as Error)?.stack ?? e),
      }),
    );
    return {
      skipped: { competitor_id: comp.id, name: comp.name, reason: "internal error; retried next cycle" },
      retry: true,
    };
  };
  try {
    // A competitor starts once the extraction pool has caught up: what waits for it is whole page bodies, so
    // the lanes shrink to what the pool keeps up with (a cycle of first snapshots) and memory stays flat.
    await roomForBody(s.config);
    const checking = checkAndRecord({
      s,
      orgId,
      cycleId: cycle.id,
      comp,
      sources,
      fetcher,
      cycleStart: cycle.startedAt,
    });
    // Its lane is free once its own site is checked; what waits on a shared host (at one request a second for
    // every competitor that names it) waits out of the lane, a bounded number of competitors at once.
    const waiting = await checking.ownChecked;
    const release = waiting ? await sharedHostWaits(s, s.config.schedulerLanes).hold() : () => undefined;
    const recorded = checking.recorded.then(({ result: r, written }) => {
      // Its pages' bodies, snapshots and histories outlived young collections while the competitor's other
      // pages were read, so they sit in the old generation until a full one (docs/engine/speed.md, "Memory").
      // Collected when the heap has grown past a budget, not after every competitor (that cost about a fifth
      // of a changed page's CPU, and held the peak no lower), nor after one whose every answer was a 304 or
      // a failure. A body read only to find the same bytes counts: left to JSC's own pacing, bodies read only
      // to be found unchanged raised the peak of an unchanged cycle above a changed one's.
      // Below the budget, a young collection (a few ms, against 45-70 ms for a full one) frees what the check
      // allocated since the last collection before more of it is promoted: with the Worker doing the same after
      // each page, the process peaked 10-15 MB lower at no CPU measurable (docs/scale.md, "Memory").
      const bodies = r.checked - r.notModified - r.failed;
      if (bodies > 0) collectAfterWork(COLLECT_ABOVE_HEAP_BYTES);
      return written.then((): ShareResult => ({ result: r }));
    });
    return { recorded: recorded.catch(failed).finally(release) };
  } catch (e) {
    return { recorded: Promise.resolve(failed(e)) };
  }
}

/** The cycle a competitor is checked in: its id, and when it started (the hour a rotated source's turn is
 * read from). */
interface CycleRef {
  id: number;
  startedAt: string;
}

/** Why a competitor without sources is not checked. */
function notChecked(comp: CompetitorRow): CycleSummary["competitors_skipped"][number] {
  return {
    competitor_id: comp.id,
    name: comp.name,
    reason:
      comp.researchState === "running"
        ? "research is running; its first cycle comes after it"
        : "no research yet: nothing to check (run research_competitor first)",
  };
}

/** Checks one competitor of a shared cycle (schedule/shares.ts): its row read from the database unless `known`,
 * then its sources. */
export async function checkCycleCompetitor(
  s: Services,
  orgId: number,
  cycle: CycleRef,
  competitorId: number,
  fetcher?: Fetcher,
  known?: CompetitorRow,
): Promise<PendingShare> {
  const comp = known ?? (await coreCompetitors(s, orgId, competitorId))[0];
  // Removed from the watch list since the cycle began: nothing to check, nothing to report.
  if (!comp) return { recorded: Promise.resolve({ result: emptyResult(competitorId) }) };
  const sources = await competitorSources(s, orgId, comp.id);
  if (sources.length === 0) return { recorded: Promise.resolve({ skipped: notChecked(comp) }) };
  return checkOne(s, orgId, cycle, comp, sources, fetcher ?? (await workspaceFetcher(s, orgId)).fetcher);
}

const emptyResult = (competitorId: number): CompetitorResult => ({
  competitorId,
  checked: 0,
  changed: 0,
  failed: 0,
  notModified: 0,
  baseline: 0,
  dueLater: 0,
  created: [],
  updated: [],
  closed: [],
  failures: [],
});
