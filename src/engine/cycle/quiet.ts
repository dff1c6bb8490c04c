// Quiet checks written together. A competitor whose check found nothing changed writes only its sources' checks
// and its CompetitorChecked event; a commit of its own was the largest part of such a check's database work.
// Those of a process (any cycle, any workspace) wait here, at most MAX_WAIT_MS or until MAX_BATCH are waiting,
// and go as one command: one writer transaction, still one CompetitorChecked per competitor. Whoever waits for
// one holds no lane (the cycle moves on to its next competitor) and hears of it only once it is committed, so a
// competitor is reported done (its share of a shared cycle included) only with its writes in the database: a
// process that dies loses what was waiting, as it loses a check in flight, and those competitors are checked
// again.
import type { EventMetadata } from "../../../events/catalog.ts";
import { runCommand } from "../../../events/command.ts";
import { type CheckRecord, recordChecks } from "../../domain/cycles.ts";
import type { Services } from "../../services.ts";

/** Longest wait of a quiet check for its batch. */
const MAX_WAIT_MS = 500;
/** Quiet checks written in one command at most. */
const MAX_BATCH = 64;

const META: EventMetadata = { actor: "engine", source: "engine" };

interface Waiting {
  check: CheckRecord;
  resolve(): void;
  reject(e: unknown): void;
}

class QuietChecks {
  private waiting: Waiting[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private s: Services) {}

  /** Resolves once the write is committed. */
  add(check: CheckRecord): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ check, resolve, reject });
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
      await writeChecks(
        this.s,
        batch.map((w) => w.check),
      );
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
export function writeQuietCheck(s: Services, check: CheckRecord): Promise<void> {
  return quietChecks(s).add(check);
}

/** Writes competitors' checks in one command, now. */
export async function writeChecks(s: Services, checks: CheckRecord[]): Promise<void> {
  await runCommand(s.store, recordChecks, checks, { caller: { actor: META.actor }, metadata: META });
}

/** Writes the quiet checks waiting now (a cycle with nothing left to start does not wait for the timer). */
export function flushQuietChecks(s: Services): void {
  perServices.get(s)?.flush();
}
