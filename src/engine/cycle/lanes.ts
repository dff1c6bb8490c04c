// How many competitors one process checks at once, over all its cycles. A competitor's pages are on its own
// host, where the fetcher waits a second (or the site's Crawl-delay) between two requests: one competitor of ten
// pages takes about ten seconds whoever asks, so throughput comes from many hosts at once. The bound keeps what
// waits in memory (bodies queued for the extraction pool, outcomes before they are recorded) the same whatever
// the number of competitors and cycles.

/** Competitors checked at once by one process, over all its cycles (`rivals serve`'s scheduler); the default of
 * RIVALS_SCHEDULER_LANES. */
export const PROCESS_LANES = 48;

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
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
