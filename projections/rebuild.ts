import type { EventStore } from "../events/store.ts";
import { rowToEvent } from "../events/store.ts";
import { projectAll, READ_TABLES } from "./index.ts";

/** Empties every read table and replays the whole log into them, in one writer transaction. */
export async function rebuildProjections(store: EventStore): Promise<{ events: number }> {
  const { result } = await store.execute(async ({ tx }) => {
    for (const t of READ_TABLES) await tx.execute(`DELETE FROM ${t}`);
    let after = 0;
    let count = 0;
    for (;;) {
      const r = await tx.execute({
        sql: "SELECT * FROM events WHERE position > ? ORDER BY position LIMIT 1000",
        args: [after],
      });
      if (r.rows.length === 0) break;
      for (const row of r.rows) {
        const e = rowToEvent(row as Record<string, unknown>);
        await projectAll(e, tx);
        after = e.position;
        count++;
      }
    }
    return { events: [], result: { events: count } };
  });
  return result;
}
