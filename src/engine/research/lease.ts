// Who runs a research run (migration 0023, research_leases): the instance that started it holds a lease it renews
// while the run goes on and drops when the run ends. Recovery marks failed only running runs whose lease is gone
// or expired — the instance died, or stopped and let go of its leases — so an instance starting on a shared
// database (sqld) never fails the research another live instance is doing (docs/engine.md "Research").
import type { EventMetadata } from "../../../events/catalog.ts";
import { runCommand } from "../../../events/command.ts";
import {
  expireResearchLeasesOf,
  ORPHANS_PAGE,
  orphanedResearchRuns,
  renewResearchLeases,
} from "../../db/researchLeases.ts";
import { endResearchRun, interruptResearchRun, type RunOutcome } from "../../domain/research.ts";
import type { Services } from "../../services.ts";
import { heartbeat, instanceOf } from "../instance.ts";

/** How long a lease lasts; renewed every third of it. */
export const RESEARCH_LEASE_MS = 60_000;
/** How often `rivals serve` looks for runs whose instance is gone. */
const SWEEP_MS = 30_000;

const until = (now: Date) => new Date(now.getTime() + RESEARCH_LEASE_MS).toISOString();

/** The lease this instance takes on runs it starts, with their start (startResearchRuns' `lease`). */
export function leaseOf(s: Services): { holder: string; ms: number } {
  return { holder: instanceOf(s), ms: RESEARCH_LEASE_MS };
}

/** Renews the leases of `runIds` until `stop()`. */
export function keepLeases(s: Services, runIds: number[]): { stop(): void } {
  const holder = instanceOf(s);
  return heartbeat(Math.floor(RESEARCH_LEASE_MS / 3), `research runs ${runIds.join(", ")}`, () =>
    s.store.writeTables(({ later, now }) => renewResearchLeases(later, runIds, holder, until(now))),
  );
}

/** Records how a run ended and drops its lease, in one command. False when it was no longer running. */
export async function endRun(
  s: Services,
  runId: number,
  outcome: RunOutcome,
  metadata: EventMetadata,
): Promise<boolean> {
  const { recorded } = await runCommand(
    s.store,
    endResearchRun,
    { runId, outcome },
    { caller: metadata.actor === undefined ? {} : { actor: metadata.actor }, metadata },
  );
  return recorded;
}

/** Marks failed every running run whose lease is missing or expired (its instance is gone), each in a command
 * that looks at the lease again (a holder renewing meanwhile keeps its run). Returns the runs marked. */
export async function recoverOrphanedResearch(s: Services): Promise<number[]> {
  const at = s.clock().toISOString();
  const marked: number[] = [];
  for (let after = 0; ; ) {
    const page = await orphanedResearchRuns(s.database, at, after);
    for (const id of page) if (await markInterrupted(s, id)) marked.push(id);
    if (page.length < ORPHANS_PAGE) return marked;
    after = page[page.length - 1];
  }
}

/** Marks run `id` failed as interrupted and drops its lease, if it still has no live lease. */
async function markInterrupted(s: Services, id: number): Promise<boolean> {
  const { recorded } = await runCommand(
    s.store,
    interruptResearchRun,
    { runId: id },
    { caller: {}, metadata: { source: "recovery" } },
  );
  return recorded;
}

/** `rivals serve`: recovers now (before anything else runs), then every SWEEP_MS; `stop()` lets go of this
 * instance's leases, so the next start (or another instance) marks its interrupted runs failed at once. */
export async function startResearchRecovery(s: Services): Promise<{ stop(): Promise<void> }> {
  const sweep = async () => {
    const marked = await recoverOrphanedResearch(s);
    if (marked.length) console.log(JSON.stringify({ level: "warn", research_runs_interrupted: marked }));
  };
  await sweep();
  const sweeps = heartbeat(SWEEP_MS, "research recovery", sweep);
  return {
    stop: async () => {
      sweeps.stop();
      await s.store.writeTables(({ later, now }) =>
        expireResearchLeasesOf(later, instanceOf(s), now.toISOString()),
      );
    },
  };
}
