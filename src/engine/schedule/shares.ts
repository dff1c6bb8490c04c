// A scheduled cycle's competitors shared by the instances on one database (migration 0096, cycle_shares). The
// instance holding the slot's lease leads the cycle: it offers one row per competitor, and every instance with
// free lanes — the lead included — claims a few at a time (as many as it can check at once), checks them,
// records each one's result on its row and marks it done. A claim lasts SHARE_TTL_MS and is renewed while its
// holder checks; a holder that died stops renewing, its claims expire and are claimed again, so a dead
// instance's share is checked within a minute and a competitor is never checked by two living instances. The
// lead waits until every row is done, then sums the results for the cycle's summary and deletes the rows.
import type { Clock } from "../../clock.ts";
import {
  claimableShareCycles,
  claimOpenShares,
  deleteClosedCyclesShares,
  deleteShares,
  finishShareRow,
  insertShares,
  openShareCount,
  releaseShareClaim,
  renewShareClaims,
  shareResultRows,
} from "../../db/cycleShares.ts";
import type { Services } from "../../services.ts";
import type { Lanes } from "../cycle/lanes.ts";
import { flushQuietChecks } from "../cycle/quiet.ts";
import type { CompetitorResult } from "../cycle/results.ts";
import { heartbeat } from "../instance.ts";

/** How long a claim lasts without renewal; renewed every third of it. */
export const SHARE_TTL_MS = 30_000;

/** Claims of one competitor whose check failed inside (a write the database ended, say) before its failure is
 * the cycle's result: the earlier ones give it back at once, for a check that committed nothing. */
const TRIES = 3;

/** What a shared competitor came to: its result, or why it was not checked (`retry`: a failure inside, worth
 * another claim). */
export type ShareResult =
  | { result: CompetitorResult }
  | { skipped: { competitor_id: number; name: string; reason: string }; retry?: boolean };

/** A competitor's check once its lane is free: what it came to, once its writes are committed (a quiet check
 * waits for its batch: cycle/quiet.ts). */
export interface PendingShare {
  recorded: Promise<ShareResult>;
}

const iso = (now: Date, plusMs = 0) => new Date(now.getTime() + plusMs).toISOString();

/** Offers the cycle's competitors in order (rows already there, of a cycle taken over, are kept). */
export async function offerShares(s: Services, cycleId: number, orgId: number, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 200) {
    const part = ids.slice(i, i + 200);
    await s.store.writeTables(({ later }) => insertShares(later, { cycleId, orgId, from: i, ids: part }));
  }
}

/** Claims up to `n` of the cycle's competitors nobody holds (or whose holder let the claim expire), in the
 * cycle's order. Returns their ids and how often each was claimed. */
export async function claimShares(
  s: Services,
  cycleId: number,
  holder: string,
  now: Date,
  n: number,
): Promise<{ id: number; claims: number }[]> {
  if (n <= 0) return [];
  return s.store.writeTables(({ tx }) =>
    claimOpenShares(tx, { cycleId, holder, at: iso(now), until: iso(now, SHARE_TTL_MS), n }),
  );
}

/** Records a claimed competitor's result. False when the claim was lost (it expired and was taken). */
function finishShare(
  s: Services,
  cycleId: number,
  competitorId: number,
  holder: string,
  now: Date,
  result: ShareResult,
): Promise<boolean> {
  return s.store.writeTables(({ tx }) =>
    finishShareRow(tx, { cycleId, competitorId, holder, at: iso(now), result: JSON.stringify(result) }),
  );
}

/** The running cycles with a competitor free to claim now (nobody holds it, or its claim expired). A cycle that
 * ended without summing its rows (its lead failed) is no longer worked on. */
export function claimableCycles(
  s: Services,
  now: Date,
): Promise<{ cycleId: number; orgId: number; startedAt: string }[]> {
  return claimableShareCycles(s.database, iso(now));
}

/** Every competitor's result, in the cycle's order (once none is open). */
export async function shareResults(s: Services, cycleId: number): Promise<ShareResult[]> {
  return (await shareResultRows(s.database, cycleId)).map((r) => JSON.parse(r) as ShareResult);
}

/** Deletes the cycle's rows (its summary carries what they said). */
export async function dropShares(s: Services, cycleId: number): Promise<void> {
  await s.store.writeTables(({ later }) => deleteShares(later, cycleId));
}

/** Deletes the rows of cycles no longer open (a lead that died after the last check left them). */
export async function pruneShares(s: Services): Promise<void> {
  await s.store.writeTables(({ later }) => deleteClosedCyclesShares(later));
}

export interface ShareWork {
  cycleId: number;
  holder: string;
  clock: Clock;
  lanes: Lanes;
  /** Checks one competitor of the cycle (in a lane already). */
  check(competitorId: number): Promise<PendingShare>;
  /** The lead waits for the other instances' claims (and takes over those that expire); a helper stops when
   * nothing is left to claim. */
  wait: boolean;
  /** How often the lead looks again while others hold the rest (default 1 s). */
  pollMs?: number;
}

/** Claims and checks the cycle's competitors while there are any; returns how many this call checked. */
export async function workShares(s: Services, w: ShareWork): Promise<number> {
  const beat = heartbeat(Math.floor(SHARE_TTL_MS / 3), `cycle ${w.cycleId} shares`, () =>
    s.store.writeTables(({ later }) =>
      renewShareClaims(later, { cycleId: w.cycleId, holder: w.holder, until: iso(w.clock(), SHARE_TTL_MS) }),
    ),
  );
  const running = new Set<Promise<void>>();
  let checked = 0;
  // A lane comes free before its competitor is done (a quiet check waits for its batch without one): the loop
  // claims again then.
  let laneFreed: (() => void) | undefined;
  const one = async ({ id, claims }: { id: number; claims: number }) => {
    try {
      const pending = await w.lanes.run(() => w.check(id));
      laneFreed?.();
      const result = await pending.recorded;
      if ("skipped" in result && result.retry && claims < TRIES) {
        await s.store.writeTables(({ later }) =>
          releaseShareClaim(later, { cycleId: w.cycleId, competitorId: id, holder: w.holder }),
        );
        return;
      }
      const kept = "skipped" in result ? { skipped: result.skipped } : result;
      if (await finishShare(s, w.cycleId, id, w.holder, w.clock(), kept)) checked++;
      else throw new Error("the claim was lost before the check ended");
    } catch (e) {
      // Left claimed: it expires and is checked again, here or by another instance.
      console.error(
        JSON.stringify({
          level: "warn",
          cycle: w.cycleId,
          competitor_id: id,
          share: String((e as Error)?.message ?? e),
        }),
      );
    }
  };
  try {
    for (;;) {
      // As many as this instance's lanes can take now: what it claims and cannot start is left to the others.
      const free = w.lanes.size - w.lanes.busy;
      const got = free > 0 ? await claimShares(s, w.cycleId, w.holder, w.clock(), free) : [];
      for (const claim of got) {
        const p: Promise<void> = one(claim).finally(() => running.delete(p));
        running.add(p);
      }
      if (got.length > 0 && w.lanes.size - w.lanes.busy > 0) continue;
      // Lanes free and nothing to claim: the quiet checks waiting for their batch are written now.
      if (free > 0 && got.length === 0) flushQuietChecks(s);
      if (running.size > 0) {
        await Promise.race([
          ...running,
          new Promise<void>((resolve) => {
            laneFreed = resolve;
          }),
        ]);
        laneFreed = undefined;
        continue;
      }
      if (!w.wait || (await openShareCount(s.database, w.cycleId)) === 0) break;
      await Bun.sleep(w.pollMs ?? 1000);
    }
  } finally {
    await Promise.allSettled(running);
    beat.stop();
  }
  return checked;
}
