import { AsyncLocalStorage } from "node:async_hooks";
import type { Client, InValue, Transaction } from "@libsql/client";
import type { Clock } from "../src/clock.ts";
import { noteCommit } from "../src/db/queries/cache.ts";
import type { EventMetadata, NewEvent, StoredEvent } from "./catalog.ts";

export type Tx = Transaction;
export type Projector = (event: StoredEvent, tx: Tx) => Promise<void>;

/** What a command handler gets inside the writer's transaction. */
export interface WriteContext {
  tx: Tx;
  now: Date;
  nextId(): Promise<number>;
}

export interface CommandOutcome<T> {
  events: NewEvent[];
  result: T;
  /** Optimistic concurrency: stream key `type:id` → version the decider saw. */
  expectedVersions?: Record<string, number>;
}
export type CommandHandler<T> = (w: WriteContext) => Promise<CommandOutcome<T>>;

/** Work that joins the transaction of the first command, run inside `withFirstCommand`, that appends events
 * (an idempotency claim: it commits exactly when the work it guards does). */
export interface FirstCommandHook {
  write(tx: Tx, now: Date): Promise<void>;
  /** Set once a command carrying the write has committed. */
  committed: boolean;
}
const firstCommand = new AsyncLocalStorage<FirstCommandHook>();

/** Runs `fn`; the first command it executes that appends events also runs `hook.write` in its transaction. */
export function withFirstCommand<T>(hook: FirstCommandHook, fn: () => Promise<T>): Promise<T> {
  return firstCommand.run(hook, fn);
}

interface Job {
  handler: CommandHandler<unknown>;
  metadata: EventMetadata;
  resolve(v: { result: unknown; events: StoredEvent[] }): void;
  reject(e: unknown): void;
}

export class ConcurrencyError extends Error {}

/** The database server ended the write transaction: sqld rolls back one held past its timeout (5 s by
 * default) once another connection wants to write. Nothing of the transaction committed; the work may be
 * retried. */
export class TransactionTimeout extends Error {
  constructor(cause: unknown) {
    super(
      "The database server ended this write transaction after its timeout (the instance held it too long, e.g. while paused); nothing of it was committed.",
      { cause },
    );
  }
}

/** How long a batch waits for another connection's write lock (sqld's transaction timeout is 5 s). */
const BUSY_WAIT_MS = 6000;

function isBusy(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown };
  return err?.code === "SQLITE_BUSY" || /database is locked/i.test(String(err?.message ?? ""));
}

function isTransactionTimeout(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown };
  return err?.code === "TRANSACTION_TIMEOUT" || /Transaction timed out/i.test(String(err?.message ?? ""));
}

/** The transaction as the writer's handlers see it. After sqld ends a transaction, it answers the next
 * statement with TRANSACTION_TIMEOUT and runs the ones after it outside any transaction, each committing
 * alone: so the first such answer is final here, and every later statement fails with it instead of running
 * (a handler that catches an error and goes on must not commit half a command). */
class GuardedTx {
  lost: TransactionTimeout | undefined;
  readonly tx: Transaction;

  constructor(raw: Transaction) {
    const run =
      <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        if (this.lost) throw this.lost;
        try {
          return await f(...args);
        } catch (e) {
          if (isTransactionTimeout(e)) this.lost ??= new TransactionTimeout(e);
          throw this.lost ?? e;
        }
      };
    this.tx = Object.assign(Object.create(raw) as Transaction, {
      execute: run(raw.execute.bind(raw)),
      batch: run(raw.batch.bind(raw)),
      executeMultiple: run(raw.executeMultiple.bind(raw)),
      commit: run(raw.commit.bind(raw)),
    });
  }
}

const MAX_BATCH = 256;

/** The event store and its single writer. Every append goes through one queue; the queue drains in
 * batches, one transaction per batch (group commit) with a savepoint per command, so a failing
 * command rolls back only its own events and nobody ever sees SQLITE_BUSY from a sibling writer. */
export class EventStore {
  private queue: Job[] = [];
  private draining = false;

  constructor(
    private client: Client,
    private project: Projector,
    private clock: Clock,
  ) {}

  /** A write through the single writer that appends no event: the running instance's own bookkeeping (leases,
   * heartbeats, cycle records, snapshot rows). */
  writeTables<T>(fn: (w: WriteContext) => Promise<T>): Promise<T> {
    return this.execute(async (w) => ({ events: [], result: await fn(w) })).then((r) => r.result);
  }

  execute<T>(
    handler: CommandHandler<T>,
    metadata: EventMetadata = {},
  ): Promise<{ result: T; events: StoredEvent[] }> {
    // Taken when the command is submitted: the writer runs it later, in whichever call drains the queue.
    const hook = firstCommand.getStore();
    let carried = false;
    const run: CommandHandler<T> =
      hook && !hook.committed
        ? async (w) => {
            const out = await handler(w);
            if (out.events.length > 0 && !hook.committed) {
              await hook.write(w.tx, w.now);
              carried = true;
            }
            return out;
          }
        : handler;
    return new Promise<{ result: T; events: StoredEvent[] }>((resolve, reject) => {
      this.queue.push({
        handler: run as CommandHandler<unknown>,
        metadata,
        resolve: resolve as Job["resolve"],
        reject,
      });
      if (!this.draining) void this.drain();
    }).then((r) => {
      if (carried && hook) hook.committed = true;
      return r;
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.runBatch(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  /** Runs a batch; while another connection holds the write lock at its start (SQLITE_BUSY: a killed
   * instance's transaction the server has not let go of yet), tries again, up to a little over sqld's
   * transaction timeout, after which the server ends any transaction held that long. */
  private async runBatch(batch: Job[]): Promise<void> {
    const started = performance.now();
    for (let pause = 10; ; pause = Math.min(pause * 2, 250)) {
      const busy = await this.tryBatch(batch);
      if (busy === undefined) return;
      if (performance.now() - started > BUSY_WAIT_MS) {
        for (const job of batch) job.reject(busy.error);
        return;
      }
      await Bun.sleep(pause);
    }
  }

  /** Runs the batch in one transaction, or returns the busy error its start met (nothing of it ran). */
  private async tryBatch(batch: Job[]): Promise<{ error: unknown } | undefined> {
    let raw: Transaction;
    try {
      raw = await this.client.transaction("write");
    } catch (e) {
      if (isBusy(e)) return { error: e };
      for (const job of batch) job.reject(e);
      return;
    }
    const guard = new GuardedTx(raw);
    const tx = guard.tx;
    let counter: number | undefined;
    let busyAtStart: { error: unknown } | undefined;
    const outcomes: (
      | { ok: true; value: { result: unknown; events: StoredEvent[] } }
      | { ok: false; error: unknown }
    )[] = [];
    try {
      for (const [i, job] of batch.entries()) {
        const sp = `cmd_${i}`;
        try {
          // The first statement also begins the transaction on a server (sent with its BEGIN).
          await tx.execute(`SAVEPOINT ${sp}`);
        } catch (e) {
          if (i === 0 && isBusy(e)) busyAtStart = { error: e };
          throw e;
        }
        try {
          const value = await this.runJob(tx, job);
          await tx.execute(`RELEASE ${sp}`);
          outcomes.push({ ok: true, value });
        } catch (error) {
          // The server ended the transaction: there is no savepoint to return to, and the batch is lost.
          if (guard.lost) throw guard.lost;
          await tx.execute(`ROLLBACK TO ${sp}`);
          await tx.execute(`RELEASE ${sp}`);
          outcomes.push({ ok: false, error });
        }
      }
      // Every commit moves the change counter that processes reading a remote server probe (cache.ts).
      const r = await tx.execute("UPDATE data_changes SET n = n + 1 WHERE id = 1 RETURNING n");
      counter = r.rows.length ? Number(r.rows[0].n) : undefined;
      await tx.commit();
    } catch (e) {
      try {
        await raw.rollback();
      } catch {}
      if (busyAtStart) return busyAtStart;
      noteCommit(this.client); // whether it committed is unknown: the next read asks the database again
      for (const job of batch) job.reject(e);
      return;
    } finally {
      raw.close();
    }
    // Before any caller hears of the commit: this process's next read sees it (cache.ts).
    noteCommit(this.client, counter);
    batch.forEach((job, i) => {
      const o = outcomes[i];
      if (o.ok) job.resolve(o.value);
      else job.reject(o.error);
    });
    return undefined;
  }

  private async runJob(tx: Tx, job: Job): Promise<{ result: unknown; events: StoredEvent[] }> {
    const now = this.clock();
    const ctx: WriteContext = {
      tx,
      now,
      nextId: async () => {
        const r = await tx.execute(
          "UPDATE id_counter SET value = value + 1 WHERE name = 'id' RETURNING value",
        );
        return Number(r.rows[0].value);
      },
    };
    const outcome = await job.handler(ctx);
    const stored = await this.appendIn(
      tx,
      outcome.events,
      job.metadata,
      now.toISOString(),
      outcome.expectedVersions,
    );
    return { result: outcome.result, events: stored };
  }

  /** Appends inside an open transaction and runs the projectors on each event. */
  async appendIn(
    tx: Tx,
    events: NewEvent[],
    metadata: EventMetadata,
    recordedAt: string,
    expectedVersions: Record<string, number> = {},
  ): Promise<StoredEvent[]> {
    const stored: StoredEvent[] = [];
    const versions = new Map<string, number>();
    const commandMeta = stripUndefined(metadata);
    for (const e of events) {
      const sk = `${e.streamType}:${e.streamId}`;
      let version = versions.get(sk);
      if (version === undefined) {
        const r = await tx.execute({
          sql: "SELECT COALESCE(MAX(stream_version), 0) AS v FROM events WHERE stream_type = ? AND stream_id = ?",
          args: [e.streamType, e.streamId],
        });
        version = Number(r.rows[0].v);
        const expected = expectedVersions[sk];
        if (expected !== undefined && expected !== version) {
          throw new ConcurrencyError(`stream ${sk} is at version ${version}, expected ${expected}`);
        }
      }
      version += 1;
      versions.set(sk, version);
      const { origin, ...event } = e;
      const meta = origin?.metadata ?? commandMeta;
      const at = origin?.recordedAt ?? recordedAt;
      const r = await tx.execute({
        sql: `INSERT INTO events (org_id, stream_type, stream_id, stream_version, type, data, metadata, recorded_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING position`,
        args: [
          event.orgId,
          event.streamType,
          event.streamId,
          version,
          event.type,
          JSON.stringify(event.data),
          JSON.stringify(meta),
          at,
        ],
      });
      const ev = {
        ...event,
        position: Number(r.rows[0].position),
        streamVersion: version,
        metadata: meta,
        recordedAt: at,
      } as StoredEvent;
      await this.project(ev, tx);
      stored.push(ev);
    }
    return stored;
  }

  /** Reads the log in order, optionally for one org, in pages. */
  async read(opts: { after?: number; orgId?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    const args: InValue[] = [opts.after ?? 0];
    let sql = "SELECT * FROM events WHERE position > ?";
    if (opts.orgId !== undefined) {
      sql += " AND org_id = ?";
      args.push(opts.orgId);
    }
    sql += " ORDER BY position LIMIT ?";
    args.push(opts.limit ?? 1000);
    const r = await this.client.execute({ sql, args });
    return r.rows.map(rowToEvent);
  }
}

export function rowToEvent(row: Record<string, unknown>): StoredEvent {
  return {
    position: Number(row.position),
    orgId: row.org_id === null ? null : Number(row.org_id),
    streamType: String(row.stream_type),
    streamId: String(row.stream_id),
    streamVersion: Number(row.stream_version),
    type: String(row.type),
    data: JSON.parse(String(row.data)),
    metadata: JSON.parse(String(row.metadata)),
    recordedAt: String(row.recorded_at),
  } as StoredEvent;
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
