// A read-only side connection to a local database file: the read cache's data-version probe, and prepared
// statements for the hot read queries.
//
// @libsql/client prepares every statement it runs and builds a row object per row, which was half of what a
// cache miss of the read API's signal page cost; a statement prepared once on this connection, returning plain
// arrays, is a fraction of that (docs/read-path.md, "Statements prepared once"). The queries are
// still built by drizzle (scoped by org like every other); only their execution moves here. Under WAL each
// statement reads the newest committed state, so this connection never sees less than the client does.
//
// Only local files get one; a remote libSQL server (http://, libsql://) and an in-memory database answer
// through the client as before.
import type { Client, InValue } from "@libsql/client";
import { type Logger, Placeholder } from "drizzle-orm";
import Database from "libsql";

export interface LocalReader {
  /** `PRAGMA data_version`: changes whenever any other connection commits. Undefined when unknown. */
  dataVersion(): number | undefined;
  /** The rows of a read-only statement as arrays of column values, in select order. */
  rows(sql: string, params: unknown[]): unknown[][];
}

const MAX_STATEMENTS = 200;
const readers = new WeakMap<Client, LocalReader | null | Promise<LocalReader | null>>();

async function open(client: Client): Promise<LocalReader | null> {
  if (client.protocol !== "file") return null;
  const r = await client.execute("PRAGMA database_list");
  const file = r.rows.find((row) => row.name === "main")?.file;
  if (typeof file !== "string" || file === "") return null; // in-memory
  const own = new Database(file, { timeout: 5_000 });
  const version = own.prepare("PRAGMA data_version").raw(true);
  // Statements by SQL text; the texts are drizzle's, with values always bound, so the set stays small.
  const statements = new Map<string, Database.Statement>();
  const alive = () => {
    if (!client.closed) return true;
    if (own.open) own.close();
    return false;
  };
  return {
    dataVersion() {
      if (!alive()) return undefined;
      try {
        return Number((version.get() as unknown[])[0]);
      } catch {
        return undefined; // e.g. busy during a WAL recovery: this one look-up goes to the database
      }
    },
    rows(sql, params) {
      if (!alive()) throw new Error("database closed");
      let st = statements.get(sql);
      if (st === undefined) {
        if (statements.size >= MAX_STATEMENTS) statements.clear();
        st = own.prepare(sql).raw(true);
        statements.set(sql, st);
      }
      return st.all(params as InValue[]) as unknown[][];
    },
  };
}

/** The client's local reader, or null when its database is not a local file. */
export function localReader(client: Client): LocalReader | null | Promise<LocalReader | null> {
  let r = readers.get(client);
  if (r === undefined) {
    const opening = open(client).catch(() => null);
    readers.set(client, opening);
    void opening.then((v) => readers.set(client, v));
    r = opening;
  }
  return r;
}

interface Query {
  toSQL(): { sql: string; params: unknown[] };
}

/** Runs a read-only statement and gives its rows as arrays of column values: on the local reader when there
 * is one, through the client otherwise. Statements run here still reach the drizzle instance's logger, as the
 * ones it runs itself do. */
export async function selectSql<Row extends unknown[]>(
  db: object,
  sql: string,
  params: unknown[],
): Promise<Row[]> {
  const client = (db as { $client?: Client }).$client;
  if (!client) throw new Error("selectSql: not a libSQL drizzle instance");
  (db as { session?: { logger?: Logger } }).session?.logger?.logQuery(sql, params);
  const reader = await localReader(client);
  if (reader) return reader.rows(sql, params) as Row[];
  const r = await client.execute({ sql, args: params as InValue[] });
  return r.rows.map((row) => r.columns.map((_, i) => row[i]) as Row);
}

/** Runs a drizzle select of plain columns (no drizzle-side decoding) like selectSql. */
export function selectRows<Row extends unknown[]>(db: object, query: Query): Promise<Row[]> {
  const { sql, params } = query.toSQL();
  return selectSql<Row>(db, sql, params);
}

/** A select drizzle built once with `sql.placeholder` values, run with each call's values. */
export interface BuiltSelect {
  sql: string;
  /** Each parameter: the placeholder's name, or a value drizzle bound when it built the query. */
  params: ({ name: string } | { value: unknown })[];
}

/** A built select from drizzle's `toSQL()` of a query made with placeholders. Which parameters are
 * placeholders is found once here, not on every run (an `instanceof Placeholder` per parameter per call). */
export function builtSelect(q: { sql: string; params: unknown[] }): BuiltSelect {
  return {
    sql: q.sql,
    params: q.params.map((p) => (p instanceof Placeholder ? { name: p.name } : { value: p })),
  };
}

/** Runs a built select (see BuiltSelect) through selectSql, each placeholder given its value from `values`. */
export function selectBuilt<Row extends unknown[]>(
  db: object,
  built: BuiltSelect,
  values: Record<string, unknown>,
): Promise<Row[]> {
  return selectSql<Row>(
    db,
    built.sql,
    built.params.map((p) => ("name" in p ? values[p.name] : p.value)),
  );
}
