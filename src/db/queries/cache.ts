// A read cache that is never stale: entries live only as long as the database has not changed.
//
// "Changed" is asked of SQLite itself on every look-up: the local reader's connection (localReader.ts), which
// never writes, reads `PRAGMA data_version`, whose value changes whenever any other connection commits — the
// writer of this process, or a CLI command (`rivals import`, `key revoke`, `projections rebuild` …) in another
// process. A look-up reads the version first and loads second, so a value is never filed under a version
// older than the data it was loaded from. Only local database files are cached; a remote libSQL server
// (http://, libsql://) and an in-memory database are queried every time.
import type { Client } from "@libsql/client";
import { localReader } from "./localReader.ts";

/** The database's current data version: changes whenever anything is committed by any connection but the
 * local reader's own. Undefined when it cannot be known. */
export async function dataVersion(client: Client): Promise<number | undefined> {
  return (await localReader(client))?.dataVersion();
}

/** Objects handed out from the cache are shared between callers, who must not change them. */

interface Generation {
  version: number;
  entries: Map<string, Promise<unknown>>;
}

const MAX_ENTRIES = 1000;

/** Read-through cache for one owner (a drizzle instance, a key resolver …) over one client. */
export class VersionedCache {
  private gen: Generation | undefined;
  constructor(private client: Client) {}

  /** The value of `load()` as of now: from the cache when nothing was committed since it was loaded.
   * Concurrent misses for one key share one load. The value is shared: callers must not change it. */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const version = await dataVersion(this.client);
    if (version === undefined) return load();
    let gen = this.gen;
    if (!gen || gen.version !== version) {
      gen = { version, entries: new Map() };
      this.gen = gen;
    }
    const hit = gen.entries.get(key);
    if (hit) return hit as Promise<T>;
    if (gen.entries.size >= MAX_ENTRIES) gen.entries.delete(gen.entries.keys().next().value as string);
    const entries = gen.entries;
    const loading = load();
    entries.set(key, loading);
    loading.catch(() => {
      if (entries.get(key) === loading) entries.delete(key);
    });
    return loading;
  }
}

const perDb = new WeakMap<object, VersionedCache | null>();
const uncached = { get: <T>(_key: string, load: () => Promise<T>) => load() };

/** The cache of one drizzle instance (a new instance, e.g. a test's logging one, starts empty). */
export function cacheOf(db: object): Pick<VersionedCache, "get"> {
  let c = perDb.get(db);
  if (c === undefined) {
    const client = (db as { $client?: Client }).$client;
    c = client ? new VersionedCache(client) : null;
    perDb.set(db, c);
  }
  return c ?? uncached;
}

const serialized = new WeakMap<object, string>();

/** JSON text of a value, memoized per object: for the shared values the cache hands out, the same object
 * means the same data, so a route can send a cached list without serializing it again. */
export function jsonOf(v: object): string {
  let text = serialized.get(v);
  if (text === undefined) {
    text = JSON.stringify(v);
    serialized.set(v, text);
  }
  return text;
}
