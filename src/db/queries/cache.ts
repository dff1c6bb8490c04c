// The read cache: entries are kept per data version, and the version is cheap to know.
//
// Freshness (the contract; test/api/read-cache.test.ts holds it):
// - This process's own writes are visible to the very next read. The event store's single writer, through
//   which every change to a cached table goes, calls `noteCommit` right after each commit and before any
//   caller hears of it; the version moves and every entry filed under the old one is dropped.
// - Another process's writes (a CLI import, `key revoke`, `projections rebuild`, another instance on the same
//   libSQL server) are visible within FRESHNESS_MS (50 ms) of their commit. The database is asked whether it
//   changed at most once per FRESHNESS_MS, by the first read after the interval: for a local file,
//   `PRAGMA data_version` on the local reader's connection (localReader.ts), which changes on every commit by
//   any other connection; for a remote libSQL server (sqld), the `data_changes` counter that every writer
//   transaction increments (migration 0021). A probe's answer is dated from when it was asked, so a read
//   that starts FRESHNESS_MS or more after a commit is served from a probe asked after that commit.
// A look-up takes the version first and loads second, so a value is never filed under a version older than
// the data it was loaded from. An in-memory database is not cached.
import type { Client } from "@libsql/client";
import type { Database } from "../client.ts";
import { localReader } from "./localReader.ts";

/** How long a commit by another process may go unseen by this process's cached reads. */
export const FRESHNESS_MS = 50;

/** The data version of one client's database, as this process knows it. */
export class Freshness {
  /** Moves whenever a change is seen: a commit noted by this process's writer, or a probe's new answer. */
  private version = 0;
  private probed: number | undefined;
  private probedAt = Number.NEGATIVE_INFINITY;
  private inflight: { at: number; answer: Promise<number | undefined> } | undefined;

  constructor(
    /** The database's own change marker: `PRAGMA data_version` of a local file, asked synchronously, or the
     * remote `data_changes` counter, asked over the network. */
    private probe: () => number | undefined | Promise<number | undefined>,
    private marker: "data_version" | "counter",
    private intervalMs = FRESHNESS_MS,
  ) {}

  /** The current version: a number when known now, a promise when the database must be asked first,
   * undefined when it cannot be known (then nothing is cached). */
  current(): number | undefined | Promise<number | undefined> {
    const now = performance.now();
    if (now - this.probedAt < this.intervalMs) return this.version;
    const f = this.inflight;
    // A probe asked within the interval answers for this read too; an older one does not.
    if (f && now - f.at < this.intervalMs) return f.answer;
    const answer = this.probe();
    if (!(answer instanceof Promise)) return this.settle(now, answer);
    const mine = {
      at: now,
      answer: answer.then(
        (v) => this.settle(now, v),
        () => undefined,
      ),
    };
    this.inflight = mine;
    void mine.answer.finally(() => {
      if (this.inflight === mine) this.inflight = undefined;
    });
    return mine.answer;
  }

  private settle(askedAt: number, answer: number | undefined): number | undefined {
    if (answer === undefined) return undefined;
    if (askedAt >= this.probedAt) {
      if (answer !== this.probed) {
        this.probed = answer;
        this.version++;
      }
      this.probedAt = askedAt;
    }
    return this.version;
  }

  /** Called by this process's writer after each commit: the next read sees it. The marker is brought up to
   * date too, so the next probe does not count this commit a second time: a local file's data version is
   * read again now; for the remote counter, `counter` is its value as of that commit. */
  noteCommit(counter?: number): void {
    this.version++;
    if (this.marker === "data_version") {
      const now = performance.now();
      const v = this.probe() as number | undefined;
      if (v !== undefined) {
        this.probed = v;
        this.probedAt = now;
      }
    } else if (counter !== undefined && (this.probed === undefined || counter > this.probed)) {
      this.probed = counter;
    }
  }
}

const freshness = new WeakMap<Client, Freshness | null | Promise<Freshness | null>>();

async function openFreshness(client: Client): Promise<Freshness | null> {
  if (client.protocol === "file") {
    const reader = await localReader(client);
    return reader ? new Freshness(() => reader.dataVersion(), "data_version") : null; // null: in-memory
  }
  return new Freshness(async () => {
    if (client.closed) return undefined;
    const r = await client.execute("SELECT n FROM data_changes WHERE id = 1");
    return r.rows.length ? Number(r.rows[0].n) : undefined;
  }, "counter");
}

/** The client's freshness, or null when its database is not cached (in-memory). */
export function freshnessOf(client: Client): Freshness | null | Promise<Freshness | null> {
  let f = freshness.get(client);
  if (f === undefined) {
    const opening = openFreshness(client).catch(() => null);
    freshness.set(client, opening);
    void opening.then((v) => freshness.set(client, v));
    f = opening;
  }
  return f;
}

/** What the writer calls after each commit (see the top of this file). */
export function noteCommit(client: Client, counter?: number): void {
  const f = freshness.get(client);
  if (f instanceof Freshness) f.noteCommit(counter);
  else if (f instanceof Promise) void f.then((v) => v?.noteCommit(counter));
}

/** The database's current data version as this process knows it (see above). Undefined when not cached. */
export async function dataVersion(client: Client): Promise<number | undefined> {
  const f = await freshnessOf(client);
  return f ? f.current() : undefined;
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
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    let f = freshness.get(this.client);
    if (f === undefined) f = freshnessOf(this.client);
    if (f === null) return load();
    if (f instanceof Promise) return f.then((v) => (v ? this.at(v.current(), key, load) : load()));
    return this.at(f.current(), key, load);
  }

  private at<T>(
    version: number | undefined | Promise<number | undefined>,
    key: string,
    load: () => Promise<T>,
  ): Promise<T> {
    if (version instanceof Promise) return version.then((v) => this.at(v, key, load));
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

/** A cache of its own for one owner (a key resolver …) over the database. */
export function versionedCache(database: Pick<Database, "client">): VersionedCache {
  return new VersionedCache(database.client);
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

/** A list whose JSON text is put together from the stored JSON documents of its rows, so a read that only
 * sends it never parses or serializes them; the objects are parsed from it once, when first asked for. */
export class JsonList {
  private parsed: Record<string, unknown>[] | undefined;
  constructor(readonly text: string) {}
  /** The list's objects (shared, like every cached value: do not change them). */
  get items(): Record<string, unknown>[] {
    if (this.parsed === undefined) this.parsed = JSON.parse(this.text) as Record<string, unknown>[];
    return this.parsed;
  }
}

const serialized = new WeakMap<object, string>();

/** JSON text of a value, memoized per object: for the shared values the cache hands out, the same object
 * means the same data, so a route can send a cached list without serializing it again. A JsonList is its
 * text. */
export function jsonOf(v: object): string {
  if (v instanceof JsonList) return v.text;
  let text = serialized.get(v);
  if (text === undefined) {
    text = JSON.stringify(v);
    serialized.set(v, text);
  }
  return text;
}
