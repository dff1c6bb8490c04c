// Who runs a research run (migration 0023, research_leases): the instance that started it holds a lease it renews
// while the run goes on and drops when the run ends. Recovery marks failed only running runs whose lease is gone
// or expired — the instance died, or stopped and let go of its leases — so an instance starting on a shared
// database (sqld) never fails the research another live instance is doing (docs/engine.md "Research").
import type { EventMetadata } from "../../../events/catalog.ts";
import { handle } from "../../../events/command.ts";
import type { Tx, WriteContext } from "../../../events/store.ts";
import {
  dropResearchLease,
  expireResearchLeasesOf,
  ORPHANS_PAGE,
  orphanedResearchRuns,
  renewResearchLeases,
  researchRunOrphaned,
  takeResearchLeases,
} from "../../db/researchLeases.ts";
import { endResearchRun, INTERRUPTED, type RunOutcome } from "../../domain/research.ts";
import type { Services } from "../../services.ts";
import { heartbeat, instanceOf } from "../instance.ts";

/** How long a lease lasts; renewed every third of it. */
export const RESEARCH_LEASE_MS = 60_000;
/** How often `rivals serve` looks for runs whose instance is gone. */
const SWEEP_MS = 30_000;

const until = (now: Date) => new Date(now.getTime() + RESEARCH_LEASE_MS).toISOString();

/** Takes the leases of runs just started, in the command that records their start. */
export async function takeLeases(tx: Tx, s: Services, runIds: number[], now: Date): Promise<void> {
  await takeResearchLeases(tx, runIds, instanceOf(s), until(now));
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
  const { result } = await s.store.execute(
    (w) => endHere(w, runId, outcome, metadata.actor ?? "engine"),
    metadata,
  );
  return result.recorded;
}

/** Records how a run ended and drops its lease, in the writer's transaction. */
async function endHere(w: WriteContext, runId: number, outcome: RunOutcome, actor: string) {
  const out = await handle(endResearchRun, w, { actor }, { runId, outcome });
  await dropResearchLease(w.tx, runId);
  return out;
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
  const { result } = await s.store.execute(
    async (w) => {
      if (!(await researchRunOrphaned(w.tx, id, w.now.toISOString()))) return { events: [], result: false };
      const out = await endHere(w, id, { ok: false, code: "interrupted", reason: INTERRUPTED }, "engine");
      return { events: out.events, result: out.result.recorded };
    },
    { source: "recovery" },
  );
  return result;
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
