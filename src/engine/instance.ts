// Which running instance holds a lease (a scheduled cycle's slot, a cycle's heartbeat, a research run): one name
// per opened Services (host:pid:random), so two instances on one database (sqld) — or two Services in one process
// — never take each other's work for their own.
import { hostname } from "node:os";
import type { Services } from "../services.ts";

const names = new WeakMap<Services, string>();

export function instanceOf(s: Services): string {
  let name = names.get(s);
  if (!name) {
    name = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
    names.set(s, name);
  }
  return name;
}

/** Runs `renew` every `periodMs` until `stop()` (a lease's or a record's heartbeat), without keeping the process
 * alive. A failed renewal is logged, not thrown: the next beat tries again, and a holder that keeps failing
 * lets its lease expire, which is what the lease is for. */
export function heartbeat(periodMs: number, what: string, renew: () => Promise<unknown>): { stop(): void } {
  const beat = setInterval(() => {
    renew().catch((e) =>
      console.error(
        JSON.stringify({ level: "warn", heartbeat: what, error: String((e as Error)?.message ?? e) }),
      ),
    );
  }, periodMs);
  beat.unref?.();
  return { stop: () => clearInterval(beat) };
}
