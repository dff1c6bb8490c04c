// Migrations are numbered once, and a database that applied a migration under the id it had before it was
// renumbered does not run it again (it would fail: the column it adds is there).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { migrate } from "../../src/db/migrate.ts";

const dir = mkdtempSync(join(tmpdir(), "rivals-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("every migration file has a number of its own", () => {
  const numbers = readdirSync(join(import.meta.dir, "../../src/db/migrations"))
    .filter((f) => f.endsWith(".sql"))
    .map((f) => f.slice(0, 4));
  expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
});

test("a database that applied 0016_cycles_body_hash under its old id is not migrated again", async () => {
  const url = `file:${join(dir, "old.db")}`;
  // The database as the earlier numbering left it: every migration applied, the body hash one recorded as 0016.
  const first = createClient({ url });
  const applied = await migrate(first);
  expect(applied).toContain("0017_cycles_body_hash");
  expect(applied).not.toContain("0016_cycles_body_hash");
  await first.execute(
    "UPDATE schema_migrations SET id = '0016_cycles_body_hash' WHERE id = '0017_cycles_body_hash'",
  );
  first.close();

  // A new process on the same file: nothing to apply, and the column is there once.
  const again = createClient({ url });
  expect(await migrate(again)).toEqual([]);
  const columns = (await again.execute("PRAGMA table_info(snapshot_sources)")).rows.map((r) =>
    String(r.name),
  );
  expect(columns.filter((c) => c === "body_hash")).toEqual(["body_hash"]);
  const ids = (await again.execute("SELECT id FROM schema_migrations WHERE id LIKE '%cycles_body_hash'"))
    .rows;
  expect(ids.map((r) => String(r.id))).toEqual(["0016_cycles_body_hash"]);
  again.close();
});

test("without the compatibility of the old id the same database would fail to migrate", async () => {
  // The check above holds because the old id is honoured: running the renamed migration again fails.
  const url = `file:${join(dir, "rerun.db")}`;
  const c = createClient({ url });
  await migrate(c);
  await c.execute("DELETE FROM schema_migrations WHERE id = '0017_cycles_body_hash'");
  await expect(migrate(c)).rejects.toThrow(/duplicate column/i);
  c.close();
});
