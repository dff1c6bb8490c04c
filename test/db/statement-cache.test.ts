// A file database's connections keep their prepared statements (src/db/client.ts): the same text on one
// connection is one statement, which describes its columns once, and a kept statement still answers rightly
// after an error, inside a transaction with RETURNING, after the schema changed, and past the bound.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Sqlite from "libsql";
import { type Database, openDatabase } from "../../src/db/client.ts";

let dir: string;
let db: Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-stmts-"));
  db = await openDatabase(`file:${join(dir, "s.db")}`);
  await db.client.execute(
    "CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT NOT NULL UNIQUE, n INTEGER NOT NULL DEFAULT 0)",
  );
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test("one statement per text and connection", () => {
  const raw = new Sqlite(join(dir, "s.db"));
  const sql = "SELECT k FROM t WHERE id = ?";
  expect(raw.prepare(sql)).toBe(raw.prepare(sql));
  const other = new Sqlite(join(dir, "s.db"));
  expect(other.prepare(sql)).not.toBe(raw.prepare(sql));
  raw.close();
  other.close();
});

test("a kept statement describes its columns once, and refuses raw mode once when it returns no rows", () => {
  const raw = new Sqlite(join(dir, "s.db"));
  const read = raw.prepare("SELECT id, k FROM t WHERE id = ?");
  expect(read.columns()).toBe(read.columns());
  expect(read.columns().map((c: { name: string }) => c.name)).toEqual(["id", "k"]);
  const write = raw.prepare("UPDATE t SET n = n WHERE id = ?");
  let first: unknown;
  let second: unknown;
  try {
    write.raw(true);
  } catch (e) {
    first = e;
  }
  try {
    write.raw(true);
  } catch (e) {
    second = e;
  }
  expect(first).toBeInstanceOf(Error);
  expect(second).toBe(first);
  raw.close();
});

test("a kept statement answers rightly after a failure, with RETURNING in a transaction, and after a schema change", async () => {
  const insert = "INSERT INTO t (k) VALUES (?)";
  await db.client.execute({ sql: insert, args: ["a"] });
  await expect(db.client.execute({ sql: insert, args: ["a"] })).rejects.toThrow();
  await db.client.execute({ sql: insert, args: ["b"] });
  const tx = await db.client.transaction("write");
  for (let i = 0; i < 5; i++) {
    const r = await tx.execute({ sql: "UPDATE t SET n = n + 1 WHERE k = ? RETURNING n", args: ["b"] });
    expect(Number(r.rows[0].n)).toBe(i + 1);
  }
  await tx.commit();
  tx.close();
  const select = "SELECT * FROM t ORDER BY k";
  expect((await db.client.execute(select)).rows.map((r) => [r.k, Number(r.n)])).toEqual([
    ["a", 0],
    ["b", 5],
  ]);
  await db.client.execute("ALTER TABLE t ADD COLUMN note TEXT");
  await db.client.execute({ sql: "UPDATE t SET note = ? WHERE k = ?", args: ["new", "a"] });
  const after = await db.client.execute(select);
  expect(after.columns).toEqual(["id", "k", "n", "note"]);
  expect(after.rows[0].note).toBe("new");
});

test("more statement texts than are kept still run", async () => {
  for (let i = 0; i < 600; i++) {
    const r = await db.client.execute({ sql: `SELECT ? + ${i} AS v`, args: [1] });
    expect(Number(r.rows[0].v)).toBe(i + 1);
  }
  const again = await db.client.execute({ sql: "SELECT ? + 0 AS v", args: [2] });
  expect(Number(again.rows[0].v)).toBe(2);
});
