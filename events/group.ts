// One group commit of the single writer (events/store.ts). The commands of a group run one after another; what
// they read goes to the database at once, what they append and project waits, and the group is sent at its end
// as one request (BEGIN IMMEDIATE … COMMIT) that first reads again every row the group read and fails unless
// it is unchanged. So the database's write lock is never held across a round trip: on a libSQL server, an
// instance paused or killed mid-command holds nothing and stalls no other instance, and a group costs one
// round trip per read instead of one per statement.
//
// A command that needs a write's result (an id counter, a claim that may conflict, a lease), or that reads a
// table the group is about to write, turns the group into an ordinary write transaction from that point: the
// checks and the writes so far go first, in one request, and each command's writes are then sent at its end.
import type { Client, InStatement, InValue, ResultSet, Transaction } from "@libsql/client";

/** A row the group read changed before the group committed (another instance wrote it): nothing of the group
 * committed, and it runs again. */
export class ReadChanged extends Error {}

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

/** The statement that fails a check names this path (SQL has no "raise" outside triggers; a malformed JSON
 * path is an error every SQLite reports with the path in its message). */
const CHECK_PATH = "rivals: a row read by this write changed";
/** A read whose rows are more than this many cells is not checked again but read under the lock. */
const MAX_CHECK_CELLS = 2000;
/** How long a write waits for another connection's write lock (sqld's transaction timeout is 5 s). */
const BUSY_WAIT_MS = 6000;

export function isBusy(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown };
  return err?.code === "SQLITE_BUSY" || /database is locked/i.test(String(err?.message ?? ""));
}

/** Runs `attempt` again, with a growing pause, while another connection holds the write lock (the attempt
 * ran nothing), up to a little over sqld's transaction timeout. */
export async function whileBusy<T>(attempt: () => Promise<T>): Promise<T> {
  const started = performance.now();
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await attempt();
    } catch (e) {
      if (!isBusy(e) || performance.now() - started > BUSY_WAIT_MS) throw e;
      await Bun.sleep(pause);
    }
  }
}

function isTransactionTimeout(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown };
  return err?.code === "TRANSACTION_TIMEOUT" || /Transaction timed out/i.test(String(err?.message ?? ""));
}

function isCheckFailure(e: unknown): boolean {
  return String((e as { message?: unknown })?.message ?? "").includes(CHECK_PATH);
}

const sqlOf = (s: InStatement): string => (typeof s === "string" ? s : s.sql);
const READ = /^\s*SELECT\b/i;
const WRITTEN_TABLE =
  /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["`]?(\w+)/i;

/** The table a write statement changes (undefined for anything else). */
export function writtenTable(sql: string): string | undefined {
  return WRITTEN_TABLE.exec(sql)?.[1]?.toLowerCase();
}

/** A write whose result nobody needs: it can wait for the group's request. */
export function isDeferrableWrite(sql: string): boolean {
  return writtenTable(sql) !== undefined && !/\bRETURNING\b/i.test(sql);
}

const NO_ROWS: ResultSet = {
  columns: [],
  columnTypes: [],
  rows: [],
  rowsAffected: 0,
  lastInsertRowid: undefined,
  toJSON: () => ({ columns: [], columnTypes: [], rows: [], rowsAffected: 0, lastInsertRowid: null }),
};

/** The read again, as one statement that fails unless it returns the same rows (the same set, as many);
 * undefined when it cannot be written so (named arguments, too many cells). */
export function checkOf(stmt: InStatement, rs: ResultSet): InStatement | undefined {
  const args = typeof stmt === "string" ? [] : (stmt.args ?? []);
  if (!Array.isArray(args)) return undefined;
  if (rs.rows.length * rs.columns.length > MAX_CHECK_CELLS) return undefined;
  const sql = sqlOf(stmt).trim().replace(/;\s*$/, "");
  // Numbered parameters (?1) name the same arguments in both copies of the read; plain ones take them again.
  const numbered = /\?\d/.test(sql);
  const again = numbered ? [] : (args as InValue[]);
  const fail = `json_extract('{}', '${CHECK_PATH}')`;
  if (rs.rows.length === 0)
    return { sql: `SELECT CASE WHEN NOT EXISTS (${sql}) THEN 1 ELSE ${fail} END`, args: args as InValue[] };
  const row = `(${rs.columns.map(() => "?").join(", ")})`;
  const values = rs.rows.map(() => row).join(", ");
  const cells = rs.rows.flatMap((r) => rs.columns.map((_, i) => r[i] as InValue));
  // As many rows, none the read did not return, and every row it returned.
  return {
    sql: `SELECT CASE WHEN (SELECT count(*) FROM (${sql})) = ?
            AND NOT EXISTS (SELECT * FROM (${sql}) EXCEPT VALUES ${values})
            AND NOT EXISTS (VALUES ${values} EXCEPT SELECT * FROM (${sql})) THEN 1 ELSE ${fail} END`,
    args: [...(args as InValue[]), rs.rows.length, ...again, ...cells, ...cells, ...again],
  };
}

/** The transaction as the handlers see it once the group holds the lock. After sqld ends a transaction, it
 * answers the next statement with TRANSACTION_TIMEOUT and runs the ones after it outside any transaction,
 * each committing alone: so the first such answer is final, and every later statement fails with it instead
 * of running (a handler that catches an error and goes on must not commit half a command). */
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

interface Waiting {
  stmt: InStatement;
  onResult?: (rs: ResultSet) => void;
}

/** Where a command's work starts in the group, to take it back when the command fails. */
export interface Mark {
  savepoint: Waiting;
  checks: number;
  epoch: number;
  appended: Map<string, number | undefined>;
}

/** The alias a command's read of its stream's version gives the log (events/command.ts). Such a read does not
 * wait for the group's own appends: the command's events go after them (events/store.ts), so a group of notes
 * on one signal stays one request. */
export const STREAM_HEAD = "stream_head";
const STREAM_HEAD_READ = new RegExp(`\\bFROM\\s+events\\s+${STREAM_HEAD}\\b`, "gi");

export class Group {
  private waiting: Waiting[] = [];
  private checks: InStatement[] = [];
  private written = new Set<string>();
  /** Counts the requests that sent waiting statements: a mark from before one can no longer be taken back
   * from the queue. */
  private epoch = 0;
  private raw: Transaction | undefined;
  private guard: GuardedTx | undefined;
  /** Set when the group cannot commit any more (a check failed, the server ended the transaction). */
  lost: unknown;
  /** The streams the group appended to, each with its last version (undefined: counted by the database). */
  readonly appended = new Map<string, number | undefined>();

  /** What handlers get as their transaction: reads at once, writes at once (their results are theirs). */
  readonly tx: Transaction;
  /** What projectors get: their writes wait for the group's request (they never read a write's result). */
  readonly projectionTx: Transaction;
  /** For writes whose result the caller does not read and whose failure may surface at the commit: they wait
   * for the group's request while the group holds no lock (a failure there runs the group again, holding the
   * lock, where they go at once and fail in their command). */
  readonly laterTx: Transaction;

  constructor(private client: Client) {
    const view = (execute: (s: InStatement) => Promise<ResultSet>) =>
      ({ execute, batch: (ss: InStatement[]) => this.sequence(ss, execute) }) as unknown as Transaction;
    this.tx = view((s) => this.execute(s));
    this.projectionTx = view((s) => {
      if (!isDeferrableWrite(sqlOf(s))) return this.execute(s);
      this.defer(s);
      return Promise.resolve(NO_ROWS);
    });
    this.laterTx = view((s) => {
      if (this.raw || !isDeferrableWrite(sqlOf(s))) return this.execute(s);
      this.defer(s);
      return Promise.resolve(NO_ROWS);
    });
  }

  get locked(): boolean {
    return this.raw !== undefined;
  }

  private async sequence(ss: InStatement[], execute: (s: InStatement) => Promise<ResultSet>) {
    const out: ResultSet[] = [];
    for (const s of ss) out.push(await execute(s));
    return out;
  }

  /** A statement that waits for the group's next request; `onResult` gets its rows then. */
  defer(stmt: InStatement, onResult?: (rs: ResultSet) => void): void {
    this.waiting.push({ stmt, onResult });
    const t = writtenTable(sqlOf(stmt));
    if (t) this.written.add(t);
  }

  /** Does this read name a table the group is about to write? */
  private readsWaiting(sql: string): boolean {
    const rest = sql.replace(STREAM_HEAD_READ, "");
    for (const t of this.written) if (new RegExp(`\\b${t}\\b`, "i").test(rest)) return true;
    return false;
  }

  async execute(stmt: InStatement): Promise<ResultSet> {
    if (this.lost) throw this.lost;
    const sql = sqlOf(stmt);
    if (!READ.test(sql) || this.readsWaiting(sql)) return (await this.send([stmt])).at(-1) as ResultSet;
    if (this.guard) return this.guard.tx.execute(stmt);
    const rs = await this.client.execute(stmt);
    const check = checkOf(stmt, rs);
    if (check) {
      this.checks.push(check);
      return rs;
    }
    return (await this.send([stmt])).at(-1) as ResultSet;
  }

  /** Takes the write lock now (a group that must hold it from its start). */
  async lock(): Promise<void> {
    await this.send([]);
  }

  /** Sends the checks, the waiting statements and `extra` in one request inside the write transaction
   * (opened here when the group has none yet). Results of `extra` are returned. */
  private async send(extra: InStatement[]): Promise<ResultSet[]> {
    if (this.lost) throw this.lost;
    const items: Waiting[] = [...this.checks.map((stmt) => ({ stmt })), ...this.waiting];
    items.push(...extra.map((stmt) => ({ stmt })));
    this.checks = [];
    this.waiting = [];
    this.written.clear();
    this.epoch++;
    if (!this.guard) return this.begin(items, extra.length);
    if (items.length === 0) return [];
    return this.run(this.guard.tx, items, extra.length);
  }

  private async run(tx: Transaction, items: Waiting[], extras: number): Promise<ResultSet[]> {
    let rs: ResultSet[];
    try {
      rs = await tx.batch(items.map((i) => i.stmt));
    } catch (e) {
      if (isCheckFailure(e)) this.lost = new ReadChanged("a row read by this write changed", { cause: e });
      if (this.guard?.lost) this.lost = this.guard.lost;
      throw this.lost ?? e;
    }
    for (const [i, item] of items.entries()) item.onResult?.(rs[i]);
    return rs.slice(rs.length - extras);
  }

  /** Opens the write transaction with its first request (tried again while another connection holds the lock:
   * nothing ran when the start met it). */
  private begin(items: Waiting[], extras: number): Promise<ResultSet[]> {
    return whileBusy(async () => {
      const raw = await this.client.transaction("write");
      this.raw = raw;
      this.guard = new GuardedTx(raw);
      try {
        // A server begins the transaction with its first statement: an empty group still takes the lock.
        return await this.run(
          this.guard.tx,
          items.length ? items : [{ stmt: "SELECT 1" }],
          items.length ? extras : 0,
        );
      } catch (e) {
        if (isBusy(e)) {
          this.raw = undefined;
          this.guard = undefined;
          raw.close();
        }
        throw e;
      }
    });
  }

  /** Where a command starts: its savepoint waits in the queue like its writes. */
  startCommand(name: string): Mark {
    const savepoint: Waiting = { stmt: `SAVEPOINT ${name}` };
    this.waiting.push(savepoint);
    return { savepoint, checks: this.checks.length, epoch: this.epoch, appended: new Map(this.appended) };
  }

  /** A command done: once the group holds the lock its writes go now, so a failing statement fails it alone. */
  async endCommand(name: string): Promise<void> {
    this.defer(`RELEASE ${name}`);
    if (this.raw) await this.send([]);
  }

  /** Takes back what a failed command did: from the queue if nothing of it was sent, else to its savepoint. */
  async undo(mark: Mark, name: string): Promise<void> {
    this.appended.clear();
    for (const [k, v] of mark.appended) this.appended.set(k, v);
    if (this.epoch === mark.epoch) {
      this.waiting.splice(this.waiting.indexOf(mark.savepoint));
      this.checks.splice(mark.checks);
      this.written = new Set(
        this.waiting.map((w) => writtenTable(sqlOf(w.stmt))).filter((t): t is string => t !== undefined),
      );
      return;
    }
    this.defer(`ROLLBACK TO ${name}`);
    this.defer(`RELEASE ${name}`);
    await this.send([]);
  }

  /** Commits the group with `final` as its last statements, in one request when it does not hold the lock yet
   * (BEGIN IMMEDIATE … COMMIT). Returns the results of `final`. */
  async commit(final: InStatement[]): Promise<ResultSet[]> {
    if (this.lost) throw this.lost;
    if (this.guard) {
      const rs = await this.send([...final, "COMMIT"]);
      return rs.slice(0, final.length);
    }
    const items: Waiting[] = [...this.checks.map((stmt) => ({ stmt })), ...this.waiting];
    items.push(...final.map((stmt) => ({ stmt })));
    try {
      // Another connection holding the lock means the request ran nothing; the checks make sending it again safe.
      const rs = await whileBusy(() =>
        this.client.batch(
          items.map((i) => i.stmt),
          "write",
        ),
      );
      for (const [i, item] of items.entries()) item.onResult?.(rs[i]);
      return rs.slice(rs.length - final.length);
    } catch (e) {
      if (isCheckFailure(e)) throw new ReadChanged("a row read by this write changed", { cause: e });
      if (isBusy(e)) throw e;
      throw new CommitFailed(e);
    }
  }

  /** Ends the group without committing (after a failure). */
  async abandon(): Promise<void> {
    const raw = this.raw;
    this.raw = undefined;
    this.guard = undefined;
    if (!raw) return;
    try {
      await raw.rollback();
    } catch {}
    raw.close();
  }

  /** Lets go of the connection after a commit. */
  close(): void {
    this.raw?.close();
    this.raw = undefined;
    this.guard = undefined;
  }
}

/** The group's one request failed on a statement: which command's is not known, so the group runs again as a
 * write transaction that sends each command's writes at its end. */
export class CommitFailed extends Error {
  constructor(cause: unknown) {
    super(String((cause as { message?: unknown })?.message ?? cause), { cause });
  }
}
