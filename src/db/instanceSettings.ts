// Settings of this installation (instance_settings, an operational table): the address the serving instance
// recorded when it started.
import type { Exec } from "./client.ts";

/** Records the base URL the serving instance answers at. */
export async function storeServingBase(db: Exec, base: string, at: string): Promise<void> {
  await db.execute({
    sql: `INSERT INTO instance_settings (name, value, updated_at) VALUES ('base_url', ?, ?)
          ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    args: [base, at],
  });
}

/** The base URL the serving instance recorded, if any. */
export async function servingBase(db: Exec): Promise<string | undefined> {
  const r = await db.execute({
    sql: "SELECT value FROM instance_settings WHERE name = 'base_url'",
    args: [],
  });
  const stored = r.rows[0]?.value;
  return typeof stored === "string" && stored ? stored : undefined;
}
