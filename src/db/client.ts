import { type Client, createClient } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { withKeptStreams } from "./keptStreams.ts";
import * as schema from "./schema.ts";

export type Db = LibSQLDatabase<typeof schema>;
export interface Database {
  client: Client;
  db: Db;
  url: string;
  close(): void;
}

/** Opens the store. A file URL gets WAL and a small pool: the single writer holds one connection
 * for its transaction while readers use the others (WAL readers never block on it). */
export async function openDatabase(url: string): Promise<Database> {
  const isFile = url.startsWith("file:");
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
  return { client, db, url, close: () => client.close() };
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
