import { AsyncLocalStorage } from "node:async_hooks";
import type { Client, InValue, Transaction } from "@libsql/client";
import type { Clock } from "../src/clock.ts";
import { noteCommit } from "../src/db/queries/cache.ts";
import type { EventMetadata, NewEvent, StoredEvent } from "./catalog.ts";
import { CommitFailed, Group, ReadChanged, TransactionTimeout, whileBusy } from "./group.ts";

export type Tx = Transaction;
export type Projector = (event: StoredEvent, tx: Tx) => Promise<void>;

/** What a command handler gets inside the writer's transaction. */
export interface WriteContext {
  tx: Tx;
  /** The same transaction for writes whose result is not read: they may wait for the group's one request
   * (events/group.ts), so a failure of theirs (a key taken) may show only when the command runs again. */
  later: Tx;
  now: Date;
  nextId(): Promise<number>;
}

export interface CommandOutcome<T> {
  events: NewEvent[];
  result: T;
  /** Optimistic concurrency: stream key `type:id` → the version the command's state was read at. */
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

export { TransactionTimeout };

const MAX_BATCH = 256;
/** Ids are taken from the shared counter in blocks, one for each group that needs ids, by a statement of its
 * own before the group holds the lock (so taking an id does not make it take the lock early). A block serves
 * one group only: ids follow the order groups started in, across instances, and a counter raised meanwhile
 * (an import) is never undercut. Unused ids of a block are skipped. */
const ID_BLOCK = 16;
/** A group whose reads keep being changed by other instances runs as a write transaction after this many
 * tries (it then waits for the lock instead of racing for it). */
const OPTIMISTIC_TRIES = 4;

/** Where a live event's position is written by a projection: the event was appended just before it in the
 * same transaction, so it is the log's last position (replayed events carry theirs). */
export const EVENT_POSITION_SQL = "COALESCE(NULLIF(?, 0), (SELECT MAX(position) FROM events))";

type Mode = "optimistic" | "locked" | "strict";

/** The event store and its single writer. Every append goes through one queue; the queue drains in groups
 * (group commit, events/group.ts): one request per group when the commands only read and append, one
 * savepoint per command so a failing command takes back only its own events, and nobody ever sees
 * SQLITE_BUSY from a sibling writer. */
export class EventStore {
  private queue: Job[] = [];
  private draining = false;
  /** The block of ids of the running group. */
  private ids: { group: Group | undefined; next: number; end: number } = {
    group: undefined,
    next: 0,
    end: 0,
  };

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
            // A group that runs again runs its commands again: only the last run counts.
            carried = false;
            const out = await handler(w);
            if (out.events.length > 0 && !hook.committed) {
              await hook.write(w.later, w.now);
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

  /** Runs a group until it commits or fails for good. A group whose reads another instance changed runs
   * again (after a few tries, holding the lock from its start); one whose single request failed on a
   * statement runs again as a write transaction sending each command's writes at its end, so only the command
   * that failed fails. */
  private async runBatch(batch: Job[]): Promise<void> {
    let mode: Mode = "optimistic";
    for (let tries = 1; ; tries++) {
      const outcome = await this.tryBatch(batch, mode);
      if (outcome === "read-changed") {
        if (tries >= OPTIMISTIC_TRIES) mode = "locked";
        await Bun.sleep(Math.random() * 5 * tries);
        continue;
      }
      if (outcome === "commit-failed") {
        mode = "strict";
        continue;
      }
      return;
    }
  }

  private async nextId(group: Group): Promise<number> {
    if (this.ids.group !== group || this.ids.next >= this.ids.end) {
      const take = {
        sql: "UPDATE id_counter SET value = value + ? WHERE name = 'id' RETURNING value",
        args: [ID_BLOCK],
      };
      // Once the group holds the lock, a statement of its own would wait for it: the block is taken inside.
      const r = group.locked ? await group.execute(take) : await whileBusy(() => this.client.execute(take));
      const top = Number(r.rows[0].value);
      this.ids = { group, next: top - ID_BLOCK + 1, end: top + 1 };
    }
    return this.ids.next++;
  }

  private async tryBatch(batch: Job[], mode: Mode): Promise<"done" | "read-changed" | "commit-failed"> {
    const group = new Group(this.client);
    let counter: number | undefined;
    const outcomes: (
      | { ok: true; value: { result: unknown; events: StoredEvent[] } }
      | { ok: false; error: unknown }
    )[] = [];
    try {
      if (mode !== "optimistic") await group.lock();
      for (const [i, job] of batch.entries()) {
        const sp = `cmd_${i}`;
        const mark = group.startCommand(sp);
        try {
          const value = await this.runJob(group, job);
          if (group.lost) throw group.lost;
          await group.endCommand(sp);
          outcomes.push({ ok: true, value });
        } catch (error) {
          // The group cannot commit (a read changed, the server ended the transaction): all of it is lost.
          if (group.lost) throw group.lost;
          await group.undo(mark, sp);
          outcomes.push({ ok: false, error });
        }
      }
      // Every commit moves the change counter that processes reading a remote server probe (cache.ts).
      const [r] = await group.commit(["UPDATE data_changes SET n = n + 1 WHERE id = 1 RETURNING n"]);
      counter = r.rows.length ? Number(r.rows[0].n) : undefined;
      group.close();
    } catch (e) {
      await group.abandon();
      if (e instanceof ReadChanged) return "read-changed";
      if (e instanceof CommitFailed && mode === "optimistic") return "commit-failed";
      noteCommit(this.client); // whether it committed is unknown: the next read asks the database again
      const error = e instanceof CommitFailed ? e.cause : e;
      for (const job of batch) job.reject(error);
      return "done";
    }
    // Before any caller hears of the commit: this process's next read sees it (cache.ts).
    noteCommit(this.client, counter);
    batch.forEach((job, i) => {
      const o = outcomes[i];
      if (o.ok) job.resolve(o.value);
      else job.reject(o.error);
    });
    return "done";
  }

  private async runJob(group: Group, job: Job): Promise<{ result: unknown; events: StoredEvent[] }> {
    const now = this.clock();
    const ctx: WriteContext = { tx: group.tx, later: group.laterTx, now, nextId: () => this.nextId(group) };
    const outcome = await job.handler(ctx);
    const stored = await this.appendIn(
      group,
      outcome.events,
      job.metadata,
      now.toISOString(),
      outcome.expectedVersions,
    );
    return { result: outcome.result, events: stored };
  }

  /** Appends inside the group and runs the projectors on each event. The events wait for the group's request
   * with their projections; their positions and versions are filled in when it has run. */
  private async appendIn(
    group: Group,
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
      // A command that read its stream's version (events/command.ts) appends right after it: had another
      // instance appended since, the group's check of that read fails and the command runs again, and the log's
      // unique (stream, version) key refuses a second append after one version. That read does not wait for
      // this group's own appends (events/group.ts), so it may miss them: the events go after them.
      if (version === undefined && sk in expectedVersions) {
        const mine = group.appended.get(sk);
        if (!group.appended.has(sk)) version = expectedVersions[sk];
        else if (mine !== undefined) version = Math.max(expectedVersions[sk], mine);
      }
      if (version !== undefined) {
        version += 1;
        versions.set(sk, version);
      }
      group.appended.set(sk, version);
      const { origin, ...event } = e;
      const meta = origin?.metadata ?? commandMeta;
      const at = origin?.recordedAt ?? recordedAt;
      const ev = { ...event, position: 0, streamVersion: 0, metadata: meta, recordedAt: at } as StoredEvent;
      // Without an expected version, the stream's next is counted in the statement itself.
      group.defer(
        {
          sql: `INSERT INTO events (org_id, stream_type, stream_id, stream_version, type, data, metadata, recorded_at)
                VALUES (?, ?, ?, COALESCE(?, (SELECT COALESCE(MAX(stream_version), 0) + 1 FROM events
                  WHERE stream_type = ? AND stream_id = ?)), ?, ?, ?, ?)
                RETURNING position, stream_version`,
          args: [
            event.orgId,
            event.streamType,
            event.streamId,
            version ?? null,
            event.streamType,
            event.streamId,
            event.type,
            JSON.stringify(event.data),
            JSON.stringify(meta),
            at,
          ],
        },
        (rs) => {
          ev.position = Number(rs.rows[0].position);
          ev.streamVersion = Number(rs.rows[0].stream_version);
        },
      );
      await this.project(ev, group.projectionTx);
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
