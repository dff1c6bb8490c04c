// Drizzle's schema describes every table of the migrated database, once, with its columns as the migrations
// made them (name, type, NOT NULL, primary key): a migration that adds a table or a column fails here until
// src/db/schema.ts (or operationalSchema.ts) says it too.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { migrate } from "../../src/db/migrate.ts";
import * as schema from "../../src/db/schema.ts";

const dir = mkdtempSync(join(tmpdir(), "rivals-schema-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const described = (Object.values(schema) as unknown[])
  .filter((v): v is SQLiteTable => v instanceof SQLiteTable)
  .map((t) => getTableConfig(t));

async function database() {
  const client = createClient({ url: `file:${join(dir, "schema.db")}` });
  await migrate(client);
  const master = (await client.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")).rows;
  // Full-text indexes are virtual tables with shadow tables of their own: drizzle does not describe them.
  const virtual = master
    .filter((r) => /^CREATE VIRTUAL TABLE/i.test(String(r.sql)))
    .map((r) => String(r.name));
  const names = master
    .map((r) => String(r.name))
    .filter((n) => !n.startsWith("sqlite_") && !virtual.some((v) => n === v || n.startsWith(`${v}_`)))
    .sort();
  const columns = new Map<string, string[]>();
  for (const name of names) {
    const cols = (await client.execute(`PRAGMA table_info("${name}")`)).rows;
    const pk = cols.filter((c) => Number(c.pk) > 0).length;
    columns.set(
      name,
      cols
        .map((c) => {
          const key = Number(c.pk) > 0 ? (pk === 1 ? " primary key" : " key part") : "";
          const notNull = Number(c.notnull) === 1 || (pk === 1 && Number(c.pk) === 1) ? " not null" : "";
          return `${c.name} ${String(c.type).toLowerCase()}${notNull}${key}`;
        })
        .sort(),
    );
  }
  client.close();
  return { names, virtual, columns };
}

test("every table of the migrated database is described once in drizzle's schema", async () => {
  const { names, virtual } = await database();
  expect(virtual.sort()).toEqual(["guides_fts", "signals_fts"]);
  const tables = described.map((t) => t.name);
  expect(tables.filter((n, i) => tables.indexOf(n) !== i)).toEqual([]);
  expect([...tables].sort()).toEqual(names);
});

test("each table's columns in drizzle are the migrations' columns: name, type, NOT NULL, primary key", async () => {
  const { columns } = await database();
  for (const t of described) {
    const composite = new Set(t.primaryKeys.flatMap((k) => k.columns.map((c) => c.name)));
    const mine = t.columns
      .map((c) => {
        const key = c.primary ? " primary key" : composite.has(c.name) ? " key part" : "";
        return `${c.name} ${c.getSQLType()}${c.notNull || c.primary ? " not null" : ""}${key}`;
      })
      .sort();
    expect({ table: t.name, columns: mine }).toEqual({ table: t.name, columns: columns.get(t.name) ?? [] });
  }
});
