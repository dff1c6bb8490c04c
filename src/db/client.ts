import { type Client, createClient, type InStatement, type ResultSet } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import Sqlite from "libsql";
import { withKeptStreams } from "./keptStreams.ts";
import * as schema from "./schema.ts";

export type Db = LibSQLDatabase<typeof schema>;
/** What a named query needs: a statement run on the database, a writer's transaction or a client. */
export interface Exec {
  execute(stmt: InStatement): Promise<ResultSet>;
}
/** Whether a statement finds a row: the one shape of every "is there …" query. */
export async function found(c: Exec, stmt: InStatement): Promise<boolean> {
  return (await c.execute(stmt)).rows.length > 0;
}

/** Whether other instances may share the database at `url`: a libSQL server's, not a local file's. What
 * every instance must count together (rate limits, throttles, renders, turns at a host) is kept in the
 * database only then; on a local file each is this process's own (no write to contend with the writer). */
export function sharedByInstances(url: string): boolean {
  return !(url.startsWith("file:") || url === ":memory:");
}

/** The database a surface hands to the named queries of src/db/queries (it runs no SQL of its own). */
export interface Database {
  client: Client;
  execute: Client["execute"];
  batch: Client["batch"];
  db: Db;
  url: string;
  close(): void;
}

/** Statements kept per connection of a file database (the engine and the API use a few dozen shapes). */
const STATEMENTS_KEPT = 512;

interface Kept {
  statements: Map<string, unknown>;
  /** The schema cookie the statements were prepared under, and the statement that reads it. */
  schema: number;
  cookie: { raw(on: boolean): { all(): unknown[][] } };
}
const keptStatements = new WeakMap<object, Kept>();
let statementsKept = false;

/** The client prepares every statement it runs on a local file again, most of a simple statement's time
 * (docs/read-path.md, "Statements prepared once"): each connection keeps its statements by text instead. Safe as the client uses them: every use runs one to its end (`all`, `run`)
 * synchronously and sets its modes first. A kept statement would keep the columns of the schema it was
 * prepared under (a `SELECT *` after a migration), so the connection's statements are dropped whenever the
 * schema cookie (`PRAGMA schema_version`, any process's change) moved. The oldest is dropped past the bound. */
function keepStatements(): void {
  if (statementsKept) return;
  statementsKept = true;
  const proto = Sqlite.prototype as unknown as { prepare(this: object, sql: string): unknown };
  const prepare = proto.prepare;
  proto.prepare = function (this: object, sql: string) {
    let kept = keptStatements.get(this);
    if (!kept) {
      const cookie = prepare.call(this, "PRAGMA schema_version") as Kept["cookie"];
      kept = { statements: new Map(), schema: -1, cookie };
      keptStatements.set(this, kept);
    }
    const schema = Number(kept.cookie.raw(true).all()[0]?.[0]);
    if (schema !== kept.schema) {
      kept.statements.clear();
      kept.schema = schema;
    }
    let stmt = kept.statements.get(sql);
    if (stmt === undefined) {
      stmt = prepare.call(this, sql);
      describeOnce(stmt as Described);
      if (kept.statements.size >= STATEMENTS_KEPT)
        kept.statements.delete(kept.statements.keys().next().value as string);
      kept.statements.set(sql, stmt);
    }
    return stmt;
  };
}

/** What the client asks a statement before each run besides running it. */
interface Described {
  columns(): unknown[];
  raw(on?: boolean): unknown;
  readonly reader: boolean;
}

/** The client asks a statement for its columns twice on every run, and switches a statement that returns no rows
 * to raw mode to learn that it returns none: the library builds the column list anew each time, and the refusal
 * as a new error with its stack. A kept statement's columns are the schema's it was prepared under (it is
 * dropped when the schema moves): it reads them once, and refuses raw mode with the error it gave the first
 * time (docs/read-path.md, "Statements prepared once"). */
function describeOnce(stmt: Described): void {
  const columns = stmt.columns.bind(stmt);
  let described: unknown[] | undefined;
  stmt.columns = () => {
    described ??= columns();
    return described;
  };
  if (stmt.reader) return;
  const raw = stmt.raw.bind(stmt);
  let refusal: { error: unknown } | undefined;
  stmt.raw = (on?: boolean) => {
    if (on === false) return raw(false);
    if (!refusal)
      try {
        return raw(on);
      } catch (error) {
        refusal = { error };
      }
    throw refusal.error;
  };
}

/** Opens the store. A file URL gets WAL and a small pool: the single writer holds one connection
 * for its transaction while readers use the others (WAL readers never block on it). */
export async function openDatabase(url: string): Promise<Database> {
  const isFile = url.startsWith("file:");
  if (isFile) keepStatements();
  if (isFile) {
    const path = url.slice("file:".length);
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir && dir !== ":memory:") {
      const { mkdirSync } = await import("node:fs");
      mkdirSync(dir, { recursive: true });
    }
  }
  const base = createClient({ url, concurrency: isFile ? 4 : 20, timeout: 10_000 } as Parameters<
    typeof createClient
  >[0]);
  const ws = webSocketOf(url);
  const client = ws ? withKeptStreams(base, ws.url, ws.authToken) : base;
  if (isFile) {
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("PRAGMA synchronous = NORMAL");
  }
  const db = drizzle(client, { schema });
  return {
    client,
    db,
    url,
    execute: client.execute.bind(client),
    batch: client.batch.bind(client),
    close: () => client.close(),
  };
}

/** Fails unless the database answers a statement. */
export async function ping(database: Database): Promise<void> {
  await database.client.execute("SELECT 1");
}

/** The WebSocket address and token of a libSQL server URL over a WebSocket (ws://, wss://; libsql:// is HTTP
 * to the client library, and stays so). */
function webSocketOf(url: string): { url: string; authToken: string | undefined } | undefined {
  if (!/^wss?:/i.test(url)) return undefined;
  const u = new URL(url);
  const authToken = u.searchParams.get("authToken") ?? undefined;
  u.searchParams.delete("authToken");
  return { url: u.toString().replace(/\?$/, ""), authToken };
}
