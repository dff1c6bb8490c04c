// Compaction as a step of `rivals serve` (docs/operations.md): every RIVALS_COMPACT_HOURS, one instance of those
// on the database compacts what is older than COMPACT_DAYS. The instance that claims the task first runs it; its
// claim lasts until the next run is due and is not given back, so the others (and itself) find it held until then.
// An instance that dies while compacting leaves the task to the next period: what it deleted stays deleted, and
// what it did not is compacted then. Runs beside the API, never in a request; its writes go through the writer a
// competitor at a time (compact.ts).
import type { Clock } from "../../clock.ts";
import { claim } from "../../db/claims.ts";
import type { Services } from "../../services.ts";
import { instanceOf } from "../instance.ts";
import { COMPACT_DAYS, type CompactReport, compact } from "./compact.ts";

const TASK = "compaction";
/** How often `rivals serve` looks whether compaction is due. */
const CHECK_MS = 60_000;

/** Compacts when no instance has within the last `everyHours` (the claim says when one did): the report, or
 * null when it was not due. */
export async function compactIfDue(
  s: Services,
  o: { everyHours: number; clock?: Clock; holder?: string },
): Promise<CompactReport | null> {
  const now = (o.clock ?? s.clock)();
  const until = new Date(now.getTime() + o.everyHours * 3_600_000).toISOString();
  const holder = o.holder ?? instanceOf(s);
  const mine = await s.store.writeTables(({ tx }) =>
    claim(tx, "maintenance_claims", TASK, holder, until, now.toISOString()),
  );
  if (!mine) return null;
  return compact(s, COMPACT_DAYS);
}

/** Looks at start, then every minute, and compacts when due; off when config.compactHours is 0. Instances
 * started together all look at once: the claim lets one of them run it. */
export function startCompactionLoop(
  s: Services,
  o: { clock?: Clock; checkMs?: number } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const every = s.config.compactHours;
  const look = async () => {
    try {
      const report = await compactIfDue(s, { everyHours: every, clock: o.clock });
      if (report) console.log(JSON.stringify({ compaction: report }));
    } catch (e) {
      console.error(JSON.stringify({ level: "error", compaction: String((e as Error)?.stack ?? e) }));
    }
  };
  const tick = () => {
    // A compaction still running when the next look comes is left to finish: no second one queues behind it.
    if (stopped || running) return;
    running = look().finally(() => {
      running = undefined;
    });
  };
  const timer = every > 0 ? setInterval(tick, o.checkMs ?? CHECK_MS) : undefined;
  timer?.unref?.();
  if (every > 0) tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
