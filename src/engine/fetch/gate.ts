// One request at a time per host, with a pause between two of them (RIVALS_FETCH_DELAY_MS, or the
// origin's Crawl-delay when longer); for a host many competitors share, on a database several instances share,
// also a turn at the host taken in the database, so that together they keep that pause too. Time comes from the
// injected clock and pauses from the injected sleeper, so tests can run the schedule without waiting.

export type Sleeper = (ms: number) => Promise<void>;
export const realSleep: Sleeper = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const MAX_HOSTS = 10_000;
/** The longest wait for a turn taken in the database. Each instance has at most one request waiting per host,
 * so a longer one means a clock ahead of this one, not a queue. */
const MAX_TURN_WAIT_MS = 60_000;

/** Turns at a host shared with other instances: when a request may start (clock ms), `pauseMs` after the
 * one before it, whichever instance sent it. */
export interface HostTurns {
  take(host: string, now: number, pauseMs: number): Promise<number>;
}

export class HostGate {
  /** The promise the next request for a host waits for (the end of the one before it). */
  private tails = new Map<string, Promise<void>>();
  /** When (clock ms) the last request to a host ended. */
  private lastEnd = new Map<string, number>();

  constructor(
    private now: () => number,
    private sleep: Sleeper,
    /** The turns shared with other instances, when there are any (read per request: set after creation). */
    private turns: () => HostTurns | undefined = () => undefined,
  ) {}

  /** Runs `fn` when every earlier request for `host` has finished and the pause since the last one has
   * passed; `pauseMs` is read when this request's turn comes (it may depend on what the request before
   * learnt, e.g. a Crawl-delay). `shared`: also wait for the host's turn among instances. */
  async run<T>(host: string, pauseMs: () => number, shared: boolean, fn: () => Promise<T>): Promise<T> {
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
      if (shared) await this.sharedTurn(host, pauseMs);
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

  /** Waits for the host's turn among instances; without one (none kept) the request goes on under this
   * instance's own pause, and one pause more when the database did not answer. */
  private async sharedTurn(host: string, pauseMs: () => number): Promise<void> {
    const turns = this.turns();
    if (!turns) return;
    const pause = pauseMs();
    if (pause <= 0) return;
    const now = this.now();
    // Without the database's answer the other instances' turns are unknown: one more pause, to be on the safe side.
    const at = await turns.take(host, now, pause).catch(() => now + pause);
    const wait = Math.min(at - now, MAX_TURN_WAIT_MS);
    if (wait > 0) await this.sleep(wait);
  }
}
