// Turns at a host across instances (host_turns, an operational table): a request takes the host's next start
// time in one statement. The rule that waits for it is src/engine/fetch/hostTurns.ts.
import type { Exec } from "./client.ts";

// A remote server gets JavaScript numbers as reals: cast so the times stay whole milliseconds.
const TAKE_SQL = `INSERT INTO host_turns (host, next_at) VALUES (?1, CAST(?2 AS INTEGER) + CAST(?3 AS INTEGER))
  ON CONFLICT (host) DO UPDATE SET next_at = max(host_turns.next_at, CAST(?2 AS INTEGER)) + CAST(?3 AS INTEGER)
  RETURNING next_at - CAST(?3 AS INTEGER) AS at`;

/** Takes the host's next turn: when this request may start (milliseconds since the epoch), `now` at the
 * earliest and `pauseMs` after the turn taken before it, by whichever instance. */
export async function takeHostTurn(db: Exec, host: string, now: number, pauseMs: number): Promise<number> {
  const r = await db.execute({ sql: TAKE_SQL, args: [host, now, pauseMs] });
  const at = r.rows[0]?.at;
  return at === undefined || at === null ? now : Number(at);
}

/** Drops the turns of hosts last asked before `before`: their next request starts at once anyway. */
export async function sweepHostTurns(db: Exec, before: number): Promise<void> {
  await db.execute({ sql: "DELETE FROM host_turns WHERE next_at < ?", args: [before] });
}
