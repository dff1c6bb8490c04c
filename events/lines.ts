// What importing an exported line asks of the log: the event a stream already holds at a version, and the id
// counter raised past the ids the line names.
import type { Tx } from "./store.ts";

type Exec = Pick<Tx, "execute">;

/** The type and data of a stream's event at a version, if the log holds one. */
export async function eventAtVersion(
  tx: Exec,
  streamType: string,
  streamId: string,
  version: number,
): Promise<{ type: string; data: unknown } | undefined> {
  const r = await tx.execute({
    sql: "SELECT type, data FROM events WHERE stream_type = ? AND stream_id = ? AND stream_version = ?",
    args: [streamType, streamId, version],
  });
  const row = r.rows[0];
  return row ? { type: String(row.type), data: JSON.parse(String(row.data)) } : undefined;
}

/** Raises the id counter to at least `id`, so no later id repeats one the log already names. */
export async function raiseIdCounter(tx: Exec, id: number): Promise<void> {
  await tx.execute({ sql: "UPDATE id_counter SET value = max(value, ?) WHERE name = 'id'", args: [id] });
}
