// A write transaction that sqld ends after its timeout (an instance paused while it held one) is reported as
// what it is, and nothing of it commits — also when a handler swallows the first error and goes on, since sqld
// would run the statements after it outside any transaction (events/store.ts, GuardedTx).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { TransactionTimeout } from "../../events/store.ts";
import { loadConfig } from "../../src/config.ts";
import { openServices, type Services } from "../../src/services.ts";
import { type Sqld, startSqld } from "../support/sqld.ts";

let dir: string;
let sqld: Sqld;
let s: Services;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-txtimeout-"));
  sqld = await startSqld(dir);
  s = await openServices(loadConfig({ RIVALS_DB: sqld.url }));
  await s.database.client.execute("CREATE TABLE probe (x INTEGER)");
});
afterAll(async () => {
  s.close();
  await sqld.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a transaction held past sqld's timeout: TransactionTimeout, no statement of it committed", async () => {
  const other = createClient({ url: sqld.url });
  const write = s.store.writeTables(async ({ tx }) => {
    await tx.execute("INSERT INTO probe VALUES (1)");
    // Paused past the server's 5 s while another instance wants to write: the server ends this transaction.
    const elsewhere = other.execute("INSERT INTO probe VALUES (2)");
    await Bun.sleep(5600);
    await elsewhere;
    try {
      await tx.execute("INSERT INTO probe VALUES (3)");
    } catch {
      // A handler that swallows an error and goes on.
    }
    await tx.execute("INSERT INTO probe VALUES (4)");
  });
  await expect(write).rejects.toBeInstanceOf(TransactionTimeout);
  await expect(write).rejects.toThrow("ended this write transaction after its timeout");
  const rows = await other.execute("SELECT x FROM probe ORDER BY x");
  expect(rows.rows.map((r) => Number(r.x))).toEqual([2]);
  // The writer goes on: the next command runs in a transaction of its own.
  await s.store.writeTables(({ tx }) => tx.execute("INSERT INTO probe VALUES (5)"));
  expect((await other.execute("SELECT x FROM probe ORDER BY x")).rows.map((r) => Number(r.x))).toEqual([
    2, 5,
  ]);
  other.close();
}, 20_000);
