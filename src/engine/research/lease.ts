// Who runs a research run (migration 0023, research_leases): the instance that started it holds a lease it renews
// while the run goes on and drops when the run ends. Recovery marks failed only running runs whose lease is gone
// or expired — the instance died, or stopped and let go of its leases — so an instance starting on a shared
// database (sqld) never fails the research another live instance is doing (docs/engine.md "Research").
import type { EventMetadata } from "../../../events/catalog.ts";
import type { Tx } from "../../../events/store.ts";
import { handleEndResearch, INTERRUPTED, type RunOutcome } from "../../domain/research.ts";
import type { Services } from "../../services.ts";
import { heartbeat, instanceOf } from "../instance.ts";

/** How long a lease lasts; renewed every third of it. */
export const RESEARCH_LEASE_MS = 60_000;
/** How often `rivals serve` looks for runs whose instance is gone. */
const SWEEP_MS = 30_000;

const until = (now: Date) => new Date(now.getTime() + RESEARCH_LEASE_MS).toISOString();

/** Takes the leases of runs just started, in the command that records their start. */
export async function takeLeases(tx: Tx, s: Services, runIds: number[], now: Date): Promise<void> {
  for (const id of runIds)
    await tx.execute({
      sql: "INSERT OR REPLACE INTO research_leases (run_id, holder, expires_at) VALUES (?, ?, ?)",
      args: [id, instanceOf(s), until(now)],
    });
}

/** Renews the leases of `runIds` until `stop()`. */
export function keepLeases(s: Services, runIds: number[]): { stop(): void } {
  const holder = instanceOf(s);
  return heartbeat(Math.floor(RESEARCH_LEASE_MS / 3), `research runs ${runIds.join(", ")}`, () =>
    s.store.writeTables(({ later, now }) =>
      later.execute({
        sql: `UPDATE research_leases SET expires_at = ? WHERE holder = ?
              AND run_id IN (${runIds.map(() => "?").join(", ")})`,
        args: [until(now), holder, ...runIds],
      }),
    ),
  );
}

/** Records how a run ended and drops its lease, in one command. False when it was no longer running. */
export async function endRun(
  s: Services,
  runId: number,
  outcome: RunOutcome,
  metadata: EventMetadata,
): Promise<boolean> {
  const { result } = await s.store.execute(async (w) => {
    const out = await handleEndResearch(w, runId, outcome);
    await w.tx.execute({ sql: "DELETE FROM research_leases WHERE run_id = ?", args: [runId] });
    return out;
  }, metadata);
  return result.recorded;
}

/** Marks failed every running run whose lease is missing or expired (its instance is gone), each in a command
 * that looks at the lease again (a holder renewing meanwhile keeps its run). Returns the runs marked. */
export async function recoverOrphanedResearch(s: Services): Promise<number[]> {
  const orphaned = `SELECT r.id FROM research_runs r LEFT JOIN research_leases l ON l.run_id = r.id
    WHERE r.state = 'running' AND (l.run_id IS NULL OR l.expires_at <= ?)`;
  const ids = (
    await s.database.client.execute({ sql: `${orphaned} ORDER BY r.id`, args: [s.clock().toISOString()] })
  ).rows.map((row) => Number(row.id));
  const marked: number[] = [];
  for (const id of ids) {
    const { result } = await s.store.execute(
      async (w) => {
        const still = await w.tx.execute({
          sql: `${orphaned} AND r.id = ?`,
          args: [w.now.toISOString(), id],
        });
        if (still.rows.length === 0) return { events: [], result: false };
        const out = await handleEndResearch(w, id, { ok: false, code: "interrupted", reason: INTERRUPTED });
        await w.tx.execute({ sql: "DELETE FROM research_leases WHERE run_id = ?", args: [id] });
        return { events: out.events, result: out.result.recorded };
      },
      { source: "recovery" },
    );
    if (result) marked.push(id);
  }
  return marked;
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
        later.execute({
          sql: "UPDATE research_leases SET expires_at = ? WHERE holder = ?",
          args: [now.toISOString(), instanceOf(s)],
        }),
      );
    },
  };
}
