// One request at a time per host, with a pause between two of them (RIVALS_FETCH_DELAY_MS, or the
// origin's Crawl-delay when longer). Time comes from the injected clock and pauses from the injected
// sleeper, so tests can run the schedule without waiting.

export type Sleeper = (ms: number) => Promise<void>;
export const realSleep: Sleeper = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const MAX_HOSTS = 10_000;

export class HostGate {
  /** The promise the next request for a host waits for (the end of the one before it). */
  private tails = new Map<string, Promise<void>>();
  /** When (clock ms) the last request to a host ended. */
  private lastEnd = new Map<string, number>();

  constructor(
    private now: () => number,
    private sleep: Sleeper,
  ) {}

  /** Runs `fn` when every earlier request for `host` has finished and the pause since the last one has
   * passed; `pauseMs` is read when this request's turn comes (it may depend on what the request before
   * learnt, e.g. a Crawl-delay). */
  async run<T>(host: string, pauseMs: () => number, fn: () => Promise<T>): Promise<T> {
    const before = this.tails.get(host) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before.then(() => mine);
    this.tails.set(host, tail);
    await before;
    try {
      const last = this.lastEnd.get(host);
      const pause = last === undefined ? 0 : pauseMs();
      // Never longer than the pause itself, even if the clock went back.
      const wait = pause > 0 ? Math.min(pause, last! + pause - this.now()) : 0;
      if (wait > 0) await this.sleep(wait);
      return await fn();
    } finally {
      const now = this.now();
      this.lastEnd.delete(host);
      this.lastEnd.set(host, now);
      // Pauses are at most a few seconds (Crawl-delay is capped at 10 s): older ends no longer matter.
      if (this.lastEnd.size > MAX_HOSTS)
        for (const [h, t] of this.lastEnd) if (t < now - 60_000) this.lastEnd.delete(h);
      if (this.tails.get(host) === tail) this.tails.delete(host);
      release();
    }
  }
}
