// robots.txt answers in the database (src/db/robotsCache.ts): every `rivals cycle` process and every instance of
// `serve` on one database reads an origin's robots.txt once per its lifetime, not once per process. Writes go
// through the event store's single writer (no events); an expired row is replaced by the next answer.
import { cachedRobots, putRobots } from "../../db/robotsCache.ts";
import type { Services } from "../../services.ts";
import type { RobotsRecord, RobotsStore } from "./robots.ts";

export function robotsStoreOf(s: Pick<Services, "database" | "store" | "clock">): RobotsStore {
  return {
    async get(origin, now) {
      const row = await cachedRobots(s.database, origin, now);
      return row && { ...row, outcome: row.outcome as RobotsRecord["outcome"] };
    },
    async put(origin, record) {
      await s.store.writeTables(async ({ later }) => {
        await putRobots(later, origin, record, s.clock().toISOString());
      });
    },
  };
}
