import { type EventStore, rowToEvent, TransactionTimeout } from "../events/store.ts";
import { projectAll, READ_TABLES } from "./index.ts";

/** A rebuild ended by the database server: nothing of it committed, the read tables are as they were. */
export class RebuildInterrupted extends Error {}

/** Empties every read table and replays the whole log into them, in one writer transaction: readers see the
 * old tables or the rebuilt ones, never a half-built one. On a libSQL server that transaction outlives the
 * server's timeout (5 s) on a large log, and the server ends it as soon as another instance writes: the rebuild
 * is then refused with what to do, having changed nothing. */
export async function rebuildProjections(store: EventStore): Promise<{ events: number }> {
  try {
    return await replayAll(store);
  } catch (e) {
    if (!(e instanceof TransactionTimeout)) throw e;
    throw new RebuildInterrupted(
      "projections rebuild: the database server ended the rebuild's transaction after its timeout because another instance wrote while it ran; nothing changed. Stop every `rivals serve` on this database, run the rebuild, then start them again (docs/deploy.md).",
    );
  }
}

async function replayAll(store: EventStore): Promise<{ events: number }> {
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
