// The one way a surface (a tool, a page, the command line, the engine) runs a command of the write model: the
// command's loader reads its state in the single writer's transaction (events/store.ts), its pure decider
// (src/domain) turns state and input into events and a result, and the writer appends and projects those events
// in the same transaction. A decider that refuses (throws) appends nothing.
//
// Optimistic concurrency: a command whose state is one stream (a competitor, a signal, a digest) names that
// stream and the version its loader read, and its events are appended right after that version. Another
// instance that appended to the stream in between changes what the loader read, so the writer's group runs the
// command again from its load (events/group.ts; after a few tries it holds the lock from its start and cannot
// be overtaken), and the decider decides on the state the other writer left: a pin made meanwhile is not pinned
// twice, a competitor removed meanwhile is not renamed. The unique (stream, version) key of the log is the last
// guard: two appends after one version never both commit.
import type { Caller } from "../src/domain/watchlist.ts";
import type { EventMetadata, NewEvent } from "./catalog.ts";
import { STREAM_HEAD } from "./group.ts";
import type { CommandOutcome, EventStore, WriteContext } from "./store.ts";

export interface Decision<R> {
  events: NewEvent[];
  result: R;
}

/** A stream and the version its state was read at. */
export interface StreamAt {
  streamType: string;
  streamId: string;
  version: number;
}

/** What a loader may do in the writer's transaction: read, and take the ids its decider will use. */
export type Loading = Pick<WriteContext, "tx" | "nextId" | "now">;

/** What a command's operational writes may do in the writer's transaction: write tables that are not built
 * from the log (sessions, OAuth grants), after the decision. */
export type Writing = Pick<WriteContext, "tx" | "later" | "now">;

/** Whoever issues a command: a member acting in a workspace (`Caller`), or someone outside one (a visitor
 * signing up, the operator at the command line). An import names nobody: its lines keep their own origin. */
export interface Actor {
  actor?: string;
}

export interface Command<I, S, R, C extends Actor = Caller> {
  load(w: Loading, input: I, caller: C): Promise<S>;
  /** The one stream the state is, at the version the loader read (absent when the state is not one stream,
   * or the stream is not there). */
  stream?(state: S): StreamAt | undefined;
  decide(state: S, input: I, ctx: { caller: C; now: Date }): Decision<R>;
  /** Writes to operational tables that go with the decision (a removed member's OAuth grants revoked, a
   * password change's other sessions ended), in the same transaction: they commit exactly when its events
   * do, and never run on a refusal. Answers the result as it stands after them. */
  write?(w: Writing, state: S, input: I, result: R): Promise<R>;
}

/** SQL for the version of stream `type:<id>` (its last event's; 0 for none), to read in a loader's one
 * statement: `idSql` is the SQL expression of the stream's id (`s.id`). Served by the log's unique key. */
export function streamVersionSql(type: string, idSql: string): string {
  if (!/^[a-z_]+$/.test(type)) throw new Error(`not a stream type: ${type}`);
  return `(SELECT COALESCE(MAX(${STREAM_HEAD}.stream_version), 0) FROM events ${STREAM_HEAD}
            WHERE ${STREAM_HEAD}.stream_type = '${type}' AND ${STREAM_HEAD}.stream_id = CAST(${idSql} AS TEXT))`;
}

/** Runs a command inside a write already open (a handler passed to `store.execute`). */
export async function handle<I, S, R, C extends Actor>(
  command: Command<I, S, R, C>,
  w: WriteContext,
  caller: C,
  input: I,
): Promise<CommandOutcome<R>> {
  const state = await command.load(w, input, caller);
  const decided = command.decide(state, input, { caller, now: w.now });
  const decision = command.write
    ? { ...decided, result: await command.write(w, state, input, decided.result) }
    : decided;
  const at = command.stream?.(state);
  if (!at) return decision;
  return { ...decision, expectedVersions: { [`${at.streamType}:${at.streamId}`]: at.version } };
}

/** Who issues a command, and what the log records about the request (its id, an idempotency key, the surface). */
export interface Issuer<C extends Actor = Caller> {
  caller: C;
  metadata?: EventMetadata;
}

/** Runs one command through the single writer; resolves to the decider's result once its events committed. */
export async function runCommand<I, S, R, C extends Actor>(
  store: EventStore,
  command: Command<I, S, R, C>,
  input: I,
  by: Issuer<C>,
): Promise<R> {
  const { result } = await store.execute((w) => handle(command, w, by.caller, input), {
    ...(by.caller.actor === undefined ? {} : { actor: by.caller.actor }),
    ...by.metadata,
  });
  return result;
}
