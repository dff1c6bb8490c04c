// Statements to a libSQL server over a WebSocket, on a few streams kept open. The client library opens a new
// stream for every statement, and the server a new connection for every stream, which reads the whole schema
// again before it runs anything: with Rivals' schema that capped one process at about 1,400 reads a second on
// the server's CPU, where kept streams (connections that keep their parsed schema) did 25,000
// (`npm run bench:cluster`, docs/deploy.md). Transactions keep their own stream, as before.
import {
  type Client,
  type InStatement,
  LibsqlBatchError,
  LibsqlError,
  type ResultSet,
  type TransactionMode,
} from "@libsql/client";
import * as hrana from "@libsql/hrana-client";

const STREAMS = 8;

function toHrana(stmt: InStatement): hrana.Stmt {
  const s = typeof stmt === "string" ? { sql: stmt, args: [] } : stmt;
  const h = new hrana.Stmt(s.sql);
  if (Array.isArray(s.args)) h.bindIndexes(s.args as hrana.InValue[]);
  else if (s.args) for (const [k, v] of Object.entries(s.args)) h.bindName(k, v as hrana.InValue);
  return h;
}

function toResultSet(r: hrana.RowsResult): ResultSet {
  const columns = r.columnNames.map((c) => c ?? "");
  const columnTypes = r.columnDecltypes.map((c) => c ?? "");
  const rows = r.rows as unknown as ResultSet["rows"];
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected: r.affectedRowCount,
    lastInsertRowid: r.lastInsertRowid,
    toJSON: () => ({
      columns,
      columnTypes,
      rows: rows.map((row) => [...(row as unknown as unknown[])]),
      rowsAffected: r.affectedRowCount,
      lastInsertRowid: r.lastInsertRowid?.toString() ?? null,
    }),
  };
}

function codeOf(e: unknown): string {
  if (e instanceof hrana.ResponseError && e.code !== undefined) return e.code;
  if (e instanceof hrana.ClosedError)
    return e.cause instanceof hrana.ClientError ? codeOf(e.cause) : "HRANA_CLOSED_ERROR";
  if (e instanceof hrana.WebSocketError) return "HRANA_WEBSOCKET_ERROR";
  return "UNKNOWN";
}

/** The library's own error types, with the server's code (SQLITE_BUSY, SQLITE_CONSTRAINT_…). */
function libsqlError(e: unknown, index?: number): unknown {
  if (!(e instanceof hrana.ClientError)) return e;
  return index === undefined
    ? new LibsqlError(e.message, codeOf(e), undefined, undefined, e)
    : new LibsqlBatchError(e.message, index, codeOf(e), undefined, undefined, e);
}

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
  deferred: "BEGIN DEFERRED",
};

/** `client` with `execute` and `batch` on kept streams of one WebSocket to `url` (ws:// or wss://). */
export function withKeptStreams(client: Client, url: string, authToken: string | undefined): Client {
  let conn: hrana.WsClient | undefined;
  let streams: hrana.WsStream[] = [];
  let turn = 0;

  const socket = (): hrana.WsClient => {
    if (!conn || conn.closed) {
      conn = hrana.openWs(url, authToken);
      streams = [];
    }
    return conn;
  };

  const stream = (): hrana.WsStream => {
    const c = socket();
    const i = turn++ % STREAMS;
    let s = streams[i];
    if (!s || s.closed) {
      s = c.openStream();
      s.intMode = "number";
      streams[i] = s;
    }
    return s;
  };

  // A read on a stream the server closed (it restarted, the socket broke) is sent again once on a new one; a
  // write is not, as it may have run before the stream broke.
  const execute = async (stmt: InStatement | string, args?: unknown): Promise<ResultSet> => {
    const s: InStatement =
      typeof stmt === "string" && args !== undefined ? { sql: stmt, args: args as [] } : stmt;
    try {
      try {
        return toResultSet(await stream().query(toHrana(s)));
      } catch (e) {
        const broken = e instanceof hrana.ClosedError || e instanceof hrana.WebSocketError;
        if (!broken || !/^\s*SELECT\b/i.test(typeof s === "string" ? s : s.sql)) throw e;
        return toResultSet(await stream().query(toHrana(s)));
      }
    } catch (e) {
      throw libsqlError(e);
    }
  };

  // As the library does it: BEGIN, each statement only while the previous one succeeded and the transaction
  // is open, COMMIT, and ROLLBACK unless the commit succeeded — one request.
  const batch = async (stmts: InStatement[], mode: TransactionMode = "deferred"): Promise<ResultSet[]> => {
    // Conditions on the transaction's state need protocol 3, known once the socket's handshake is done.
    const v3 = (await socket().getVersion()) >= 3;
    const s = stream();
    const open = (step: hrana.BatchStep) =>
      v3 ? step.condition(hrana.BatchCond.not(hrana.BatchCond.isAutocommit(b))) : step;
    const b = s.batch(v3);
    const begin = b.step();
    const began = begin.run(BEGIN[mode]);
    let last = begin;
    const results = stmts.map((stmt) => {
      const step = open(b.step().condition(hrana.BatchCond.ok(last)));
      last = step;
      return step.query(toHrana(stmt));
    });
    const commitStep = open(b.step().condition(hrana.BatchCond.ok(last)));
    const committed = commitStep.run("COMMIT");
    b.step()
      .condition(hrana.BatchCond.not(hrana.BatchCond.ok(commitStep)))
      .run("ROLLBACK")
      .catch(() => undefined);
    try {
      await b.execute();
      await began;
    } catch (e) {
      throw libsqlError(e, 0);
    }
    const out: ResultSet[] = [];
    for (const [i, p] of results.entries()) {
      let rows: hrana.RowsResult | undefined;
      try {
        rows = await p;
      } catch (e) {
        throw libsqlError(e, i);
      }
      if (rows === undefined)
        throw new LibsqlBatchError(
          "Statement in a batch was not executed, probably because the transaction has been rolled back",
          i,
          "TRANSACTION_CLOSED",
        );
      out.push(toResultSet(rows));
    }
    try {
      await committed;
    } catch (e) {
      throw libsqlError(e, stmts.length);
    }
    return out;
  };

  const close = () => {
    conn?.close();
    conn = undefined;
    client.close();
  };

  // The library's client keeps private fields: everything else is called on it, not on a copy.
  return {
    execute,
    batch,
    close,
    transaction: (mode?: TransactionMode) => client.transaction(mode),
    executeMultiple: (sql: string) => client.executeMultiple(sql),
    migrate: (ss: InStatement[]) => client.migrate(ss),
    sync: () => client.sync(),
    reconnect: () => client.reconnect(),
    get closed() {
      return client.closed;
    },
    get protocol() {
      return client.protocol;
    },
  } as Client;
}
