// The single writer's group commit (events/group.ts) on a real libSQL server and on a local file: a group is
// sent as one request whose checks fail when a row it read changed meanwhile (then it runs again), a command
// that reads what its group is about to write sees it, a failing statement fails only its own command, and a
// command that waits mid-way holds no lock that would stall another instance's writes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, createClient } from "@libsql/client";
import type { NewEvent } from "../../events/catalog.ts";
import { checkOf } from "../../events/group.ts";
import { EventStore } from "../../events/store.ts";
import { loadConfig } from "../../src/config.ts";
import { openServices, type Services } from "../../src/services.ts";
import { type Sqld, startSqld } from "../support/sqld.ts";

let dir: string;
let sqld: Sqld;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-group-"));
  sqld = await startSqld(dir);
});
afterAll(async () => {
  await sqld.stop();
  rmSync(dir, { recursive: true, force: true });
});

const event = (type: string, data: Record<string, unknown>): NewEvent =>
  ({ type, orgId: null, streamType: "probe", streamId: "p", data }) as unknown as NewEvent;

/** A store whose projector writes the probe tables: `Wrote` inserts its value into `probe_rows` (unique). */
function probeStore(client: Client): EventStore {
  return new EventStore(
    client,
    async (e, tx) => {
      if (e.type === ("Wrote" as string))
        await tx.execute({
          sql: "INSERT INTO probe_rows (v) VALUES (?)",
          args: [(e.data as { v: string }).v],
        });
    },
    () => new Date("2026-11-25T12:00:00Z"),
  );
}

for (const where of ["sqld", "file"] as const) {
  describe(`on ${where === "sqld" ? "a libSQL server" : "a local file"}`, () => {
    let s: Services;
    let url: string;
    let other: Client;
    let store: EventStore;
    beforeAll(async () => {
      url = where === "sqld" ? sqld.url.replace(/^http/, "ws") : `file:${join(dir, "group.db")}`;
      s = await openServices(loadConfig({ RIVALS_DB: url }));
      await s.database.client.execute("CREATE TABLE probe_rows (v TEXT PRIMARY KEY)");
      await s.database.client.execute("CREATE TABLE probe_value (id INTEGER PRIMARY KEY, v TEXT)");
      await s.database.client.execute("INSERT INTO probe_value VALUES (1, 'before')");
      other = createClient({ url });
      store = probeStore(s.database.client);
    });
    afterAll(() => {
      other.close();
      s.close();
    });

    test("a row the group read and another connection changed before the commit: it runs again, on the new value", async () => {
      let runs = 0;
      const { result, events } = await store.execute(async ({ tx }) => {
        runs++;
        const v = String((await tx.execute("SELECT v FROM probe_value WHERE id = 1")).rows[0].v);
        // Another instance writes between this read and the commit (only the first time).
        if (runs === 1) await other.execute("UPDATE probe_value SET v = 'changed' WHERE id = 1");
        return { events: [event("Wrote", { v: `saw ${v}` })], result: v };
      });
      expect(runs).toBe(2);
      expect(result).toBe("changed");
      expect(events[0].position).toBeGreaterThan(0);
      expect(events[0].streamVersion).toBeGreaterThan(0);
      const rows = await other.execute("SELECT v FROM probe_rows WHERE v LIKE 'saw %'");
      expect(rows.rows.map((r) => r.v)).toEqual(["saw changed"]);
    });

    test("commands that read and append go as one request: no interactive transaction, one batch", async () => {
      const calls = { transaction: 0, batch: 0 };
      const counted = new Proxy(s.database.client, {
        get(target, prop) {
          if (prop === "transaction" || prop === "batch") calls[prop]++;
          const v = (target as unknown as Record<string | symbol, unknown>)[prop];
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
      const st = probeStore(counted);
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          st.execute(async ({ tx, nextId }) => {
            await tx.execute("SELECT v FROM probe_value WHERE id = 1");
            const id = await nextId();
            return { events: [event("Wrote", { v: `one-request-${i}-${id}` })], result: id };
          }),
        ),
      );
      expect(new Set(results.map((r) => r.result)).size).toBe(5);
      expect(calls.transaction).toBe(0);
      // The first command runs alone (the queue was empty), the other four wait and go together.
      expect(calls.batch).toBeLessThanOrEqual(2);
    });

    test("a command reads what an earlier command of its group is about to write", async () => {
      const first = store.execute(async () => ({ events: [event("Wrote", { v: "group-a" })], result: 1 }));
      const second = store.execute(async ({ tx }) => {
        const r = await tx.execute("SELECT count(*) AS n FROM probe_rows WHERE v = 'group-a'");
        return { events: [], result: Number(r.rows[0].n) };
      });
      expect((await first).result).toBe(1);
      expect((await second).result).toBe(1);
    });

    test("a statement that fails in the group's request fails its own command only", async () => {
      await store.execute(async () => ({ events: [event("Wrote", { v: "taken" })], result: 0 }));
      const ok1 = store.execute(async () => ({ events: [event("Wrote", { v: "fresh-1" })], result: "a" }));
      const bad = store.execute(async () => ({ events: [event("Wrote", { v: "taken" })], result: "b" }));
      const ok2 = store.execute(async () => ({ events: [event("Wrote", { v: "fresh-2" })], result: "c" }));
      expect((await ok1).result).toBe("a");
      await expect(bad).rejects.toThrow(/UNIQUE constraint failed/);
      expect((await ok2).result).toBe("c");
      const rows = await other.execute(
        "SELECT v FROM probe_rows WHERE v IN ('taken', 'fresh-1', 'fresh-2') ORDER BY v",
      );
      expect(rows.rows.map((r) => r.v)).toEqual(["fresh-1", "fresh-2", "taken"]);
      // The failed command appended nothing: its event is not in the log.
      const log = await other.execute("SELECT count(*) AS n FROM events WHERE data LIKE '%\"taken\"%'");
      expect(Number(log.rows[0].n)).toBe(1);
    });

    test("ids come from the shared counter in blocks: two writers on one database never share one", async () => {
      const a = probeStore(s.database.client);
      const b = probeStore(createClient({ url }));
      const take = (st: EventStore) =>
        st.execute(async ({ nextId }) => ({ events: [], result: await nextId() })).then((r) => r.result);
      const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => take(i % 2 ? a : b)));
      expect(new Set(ids).size).toBe(40);
      const own = await Promise.all(Array.from({ length: 5 }, () => take(a)));
      for (let i = 1; i < own.length; i++) expect(own[i]).toBeGreaterThan(own[i - 1]);
    });
  });
}

test("a command waiting mid-way (a paused instance) holds no lock: another connection writes at once", async () => {
  const url = sqld.url.replace(/^http/, "ws");
  const s = await openServices(loadConfig({ RIVALS_DB: url }));
  const other = createClient({ url });
  try {
    await s.database.client.execute("CREATE TABLE IF NOT EXISTS probe_rows (v TEXT PRIMARY KEY)");
    const store = probeStore(s.database.client);
    let release!: () => void;
    const paused = new Promise<void>((r) => {
      release = r;
    });
    let reading!: () => void;
    const hasRead = new Promise<void>((r) => {
      reading = r;
    });
    const slow = store.execute(async ({ tx, nextId }) => {
      await tx.execute("SELECT count(*) FROM probe_rows");
      const id = await nextId();
      reading();
      await paused;
      return { events: [event("Wrote", { v: `slow-${id}` })], result: id };
    });
    await hasRead;
    const t0 = performance.now();
    await other.execute("INSERT INTO probe_rows (v) VALUES ('meanwhile')");
    const took = performance.now() - t0;
    release();
    await slow;
    expect(took).toBeLessThan(500);
    const rows = await other.execute("SELECT v FROM probe_rows WHERE v = 'meanwhile' OR v LIKE 'slow-%'");
    expect(rows.rows.length).toBe(2);
  } finally {
    other.close();
    s.close();
  }
});

test("a read's check fails when its rows changed in any way, and holds while they did not", async () => {
  const c = createClient({ url: `file:${join(dir, "checks.db")}` });
  try {
    await c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, n REAL)");
    await c.execute("INSERT INTO t (v, n) VALUES ('a', 1.5), ('b', NULL)");
    const reads = [
      { sql: "SELECT v, n FROM t WHERE id >= ? ORDER BY id", args: [1] },
      { sql: "SELECT v FROM t WHERE id >= ?1 AND id <= ?1 + 10", args: [1] },
      { sql: "SELECT v FROM t WHERE v = ?", args: ["zzz"] },
    ];
    const checks = await Promise.all(reads.map(async (r) => checkOf(r, await c.execute(r))!));
    const holds = async () =>
      Promise.all(
        checks.map((k) =>
          c.execute(k).then(
            () => true,
            () => false,
          ),
        ),
      );
    expect(await holds()).toEqual([true, true, true]);
    // The same count and the same set of values, but one row became a copy of another.
    await c.execute("UPDATE t SET v = 'a', n = 1.5 WHERE v = 'b'");
    expect(await holds()).toEqual([false, false, true]);
    await c.execute("UPDATE t SET v = 'b', n = NULL WHERE id = 2");
    expect(await holds()).toEqual([true, true, true]);
    // A row where the read found none.
    await c.execute("INSERT INTO t (v) VALUES ('zzz')");
    expect(await holds()).toEqual([false, false, false]);
  } finally {
    c.close();
  }
});
