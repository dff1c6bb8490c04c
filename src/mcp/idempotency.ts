// DESIGN (idempotency): same key + same tool + same org within 24 h returns the first result and does no
// new work; the same key with other arguments is an error; concurrent duplicates run once.
//
// Durable across a crash: the key is claimed in the transaction of the first command the call commits
// (events/store.ts withFirstCommand), so the claim exists exactly when the work does, and completed with the
// result just after. A claim found incomplete means the server stopped in between: the retry is told the work
// was done, rather than doing it again. A call that fails after its command committed withdraws its claim,
// as a failed call records nothing and may be retried.

import { type FirstCommandHook, type Tx, withFirstCommand } from "../../events/store.ts";
import { sha256 } from "../auth/tokens.ts";
import type { Services } from "../services.ts";
import { ToolError } from "./tool.ts";

const WINDOW_MS = 24 * 60 * 60 * 1000;
const inFlight = new Map<string, { hash: string; promise: Promise<unknown> }>();

function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/** Runs `write` as a command of its own that appends no events. */
async function writeAlone(s: Services, write: (tx: Tx) => Promise<void>): Promise<void> {
  await s.store.execute(async ({ tx }) => {
    await write(tx);
    return { events: [], result: null };
  });
}

async function withdraw(tx: Tx, orgId: number, tool: string, key: string): Promise<void> {
  await tx.execute({
    sql: "DELETE FROM idempotency_keys WHERE org_id = ? AND tool = ? AND key = ? AND completed = 0",
    args: [orgId, tool, key],
  });
}

export async function once<T>(
  s: Services,
  orgId: number,
  tool: string,
  key: string,
  args: Record<string, unknown>,
  work: () => Promise<T>,
  /** The form of the result that is stored and returned to later retries. */
  stored: (result: T) => unknown = (r) => r,
): Promise<T> {
  const { idempotency_key: _, ...rest } = args;
  const hash = sha256(stableStringify(rest));
  const flightKey = `${orgId}\u0000${tool}\u0000${key}`;
  const conflict = () =>
    new ToolError(
      "idempotency_conflict",
      `idempotency_key ${JSON.stringify(key)} was already used with other arguments for ${tool}; use a new key.`,
    );
  const running = inFlight.get(flightKey);
  if (running) {
    if (running.hash !== hash) throw conflict();
    return running.promise as Promise<T>;
  }
  // Registered in flight before the first await, so a concurrent duplicate always finds it and waits.
  const promise = (async () => {
    const now = s.clock();
    const r = await s.database.client.execute({
      sql: `SELECT args_hash, result, created_at, completed FROM idempotency_keys
            WHERE org_id = ? AND tool = ? AND key = ?`,
      args: [orgId, tool, key],
    });
    const row = r.rows[0];
    if (row && Date.parse(String(row.created_at)) > now.getTime() - WINDOW_MS) {
      if (row.args_hash !== hash) throw conflict();
      if (Number(row.completed) === 1) return JSON.parse(String(row.result)) as T;
      throw new ToolError(
        "idempotency_incomplete",
        `The first ${tool} call with idempotency_key ${JSON.stringify(key)} did its work, but the server stopped before recording its result. It is not done again: read the current state with the read tools.`,
      );
    }
    const record = (completed: 0 | 1, result: string) => async (tx: Tx) => {
      await tx.execute({
        sql: `INSERT INTO idempotency_keys (org_id, tool, key, args_hash, result, created_at, completed)
              VALUES (?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (org_id, tool, key) DO UPDATE SET args_hash = excluded.args_hash, result = excluded.result,
                created_at = excluded.created_at, completed = excluded.completed`,
        args: [orgId, tool, key, hash, result, now.toISOString(), completed],
      });
    };
    const claim: FirstCommandHook = { write: record(0, "null"), committed: false };
    let result: T;
    try {
      result = await withFirstCommand(claim, work);
    } catch (e) {
      if (claim.committed) await writeAlone(s, (tx) => withdraw(tx, orgId, tool, key));
      throw e;
    }
    await writeAlone(s, record(1, JSON.stringify(stored(result))));
    return result;
  })();
  inFlight.set(flightKey, { hash, promise });
  try {
    return await promise;
  } finally {
    inFlight.delete(flightKey);
  }
}
