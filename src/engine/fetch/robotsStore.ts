// robots.txt answers in the database (migration 0092): every `rivals cycle` process and every instance of
// `serve` on one database reads an origin's robots.txt once per its lifetime, not once per process. Writes go
// through the event store's single writer (no events); an expired row is replaced by the next answer.
import type { Services } from "../../services.ts";
import type { RobotsRecord, RobotsStore } from "./robots.ts";

export function robotsStoreOf(s: Pick<Services, "database" | "store" | "clock">): RobotsStore {
  return {
    async get(origin, now) {
      const r = await s.database.client.execute({
        sql: "SELECT outcome, text, expires_at FROM robots_cache WHERE origin = ? AND expires_at > ?",
        args: [origin, now],
      });
      const row = r.rows[0];
      if (!row) return undefined;
      return {
        outcome: String(row.outcome) as RobotsRecord["outcome"],
        text: String(row.text),
        expiresAt: Number(row.expires_at),
      };
    },
    async put(origin, record) {
      await s.store.writeTables(async ({ later }) => {
        await later.execute({
          sql: `INSERT INTO robots_cache (origin, outcome, text, fetched_at, expires_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (origin) DO UPDATE SET outcome = excluded.outcome, text = excluded.text,
                  fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`,
          args: [origin, record.outcome, record.text, s.clock().toISOString(), record.expiresAt],
        });
      });
    },
  };
}
