// The base URL of links a person or a system follows out of a message (emails, chat messages, webhooks, free
// briefs), whichever process writes them: RIVALS_BASE_URL when the operator set it; else the address the
// serving instance (`rivals serve`) recorded when it started (instance_settings), so a cycle run from a shell
// without the variable links where the service answers; else the default http://localhost:PORT.
import type { Services } from "../services.ts";

/** Records the address this serving instance answers at (at `rivals serve` start). */
export async function recordServingBase(s: Services, base: string): Promise<void> {
  await s.database.client.execute({
    sql: `INSERT INTO instance_settings (name, value, updated_at) VALUES ('base_url', ?, ?)
          ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    args: [base.replace(/\/+$/, ""), s.clock().toISOString()],
  });
}

/** The base URL links start with. */
export async function linkBase(s: Services): Promise<string> {
  if (s.config.baseUrlSet) return s.config.baseUrl;
  const r = await s.database.client.execute("SELECT value FROM instance_settings WHERE name = 'base_url'");
  const stored = r.rows[0]?.value;
  return typeof stored === "string" && stored ? stored : s.config.baseUrl;
}
