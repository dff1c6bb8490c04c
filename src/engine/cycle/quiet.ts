// Quiet checks written together. A competitor whose check found nothing changed writes only its sources' checks
// and its CompetitorChecked event; a commit of its own was the largest part of such a check's database work.
// Those of a process (any cycle, any workspace) wait here, at most MAX_WAIT_MS or until MAX_BATCH are waiting,
// and go as one command: one writer transaction, still one CompetitorChecked per competitor. Whoever waits for
// one holds no lane (the cycle moves on to its next competitor) and hears of it only once it is committed, so a
// competitor is reported done (its share of a shared cycle included) only with its writes in the database: a
// process that dies loses what was waiting, as it loses a check in flight, and those competitors are checked
// again.
import type { EventMetadata, NewEvent } from "../../../events/catalog.ts";
import type { Tx } from "../../../events/store.ts";
import type { Services } from "../../services.ts";

/** Longest wait of a quiet check for its batch. */
const MAX_WAIT_MS = 500;
/** Quiet checks written in one command at most. */
const MAX_BATCH = 64;

const META: EventMetadata = { actor: "engine", source: "engine" };

/** One competitor's writes: statements in the writer's transaction, and the events they come with. */
export type CheckWrite = (later: Tx) => Promise<NewEvent[]>;

interface Waiting {
  write: CheckWrite;
  resolve(): void;
  reject(e: unknown): void;
}

class QuietChecks {
  private waiting: Waiting[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private s: Services) {}

  /** Resolves once the write is committed. */
  add(write: CheckWrite): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
      if (this.waiting.length >= MAX_BATCH) this.flush();
      else if (!this.timer) {
        this.timer = setTimeout(() => this.flush(), MAX_WAIT_MS);
        this.timer.unref?.();
      }
    });
  }

  /** Writes what waits now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length > 0) void this.write(batch);
  }

  private async write(batch: Waiting[]): Promise<void> {
    try {
      await this.s.store.execute(async ({ later }) => {
        const events: NewEvent[] = [];
        for (const w of batch) events.push(...(await w.write(later)));
        return { events, result: null };
      }, META);
      for (const w of batch) w.resolve();
    } catch (e) {
      if (batch.length === 1) {
        batch[0].reject(e);
        return;
      }
      // One competitor's write fails the command: each is written alone, so only that one fails.
      await Promise.all(batch.map((w) => this.write([w])));
    }
  }
}

const perServices = new WeakMap<Services, QuietChecks>();

function quietChecks(s: Services): QuietChecks {
  let q = perServices.get(s);
  if (!q) {
    q = new QuietChecks(s);
    perServices.set(s, q);
  }
  return q;
}

/** Writes a quiet check with the others of the process; resolves once it is committed. */
export function writeQuietCheck(s: Services, write: CheckWrite): Promise<void> {
  return quietChecks(s).add(write);
}

/** Writes the quiet checks waiting now (a cycle with nothing left to start does not wait for the timer). */
export function flushQuietChecks(s: Services): void {
  perServices.get(s)?.flush();
}
