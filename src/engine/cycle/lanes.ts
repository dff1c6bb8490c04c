// How many competitors one process checks at once, over all its cycles. A competitor's pages are on its own
// host, where the fetcher waits a second (or the site's Crawl-delay) between two requests: one competitor of ten
// pages takes about ten seconds whoever asks, so throughput comes from many hosts at once. The bound keeps what
// waits in memory (bodies queued for the extraction pool, outcomes before they are recorded) the same whatever
// the number of competitors and cycles.

/** Competitors checked at once by one process, over all its cycles (`rivals serve`'s scheduler); the default of
 * RIVALS_SCHEDULER_LANES. */
export const PROCESS_LANES = 48;

/** Competitors whose own site is checked, waiting on hosts other competitors share, per process: a quarter of its
 * lanes. What they hold until recorded is their sources' outcomes (a cycle of first snapshots: ten pages' each),
 * and with sources on a shared host checked in rotation few wait at once; at twice the lanes, a first cycle of
 * 200 competitors × 10 pages, whose boards were all due, peaked 26 MB higher (docs/scale.md). */
const WAITING_PER_LANE = 0.25;

const waitingFor = new WeakMap<object, Lanes>();

/** The process's bound on competitors out of their lane and still waiting on a shared host. */
export function sharedHostWaits(owner: object, lanes: number): Lanes {
  let w = waitingFor.get(owner);
  if (!w) {
    w = new Lanes(Math.max(1, Math.round(lanes * WAITING_PER_LANE)));
    waitingFor.set(owner, w);
  }
  return w;
}

/** A counting semaphore: `run` waits for a free slot, holds it while `fn` runs. */
export class Lanes {
  private free: number;
  private waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Slots in use now. */
  get busy(): number {
    return this.size - this.free;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.hold();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Waits for a free slot and holds it until the returned function is called (once). */
  async hold(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
