// DESIGN (idempotency): same key + same tool + same org within 24 h returns the first result and does no
// new work; the same key with other arguments is an error; concurrent duplicates run once.
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
      sql: "SELECT args_hash, result, created_at FROM idempotency_keys WHERE org_id = ? AND tool = ? AND key = ?",
      args: [orgId, tool, key],
    });
    const row = r.rows[0];
    if (row && Date.parse(String(row.created_at)) > now.getTime() - WINDOW_MS) {
      if (row.args_hash !== hash) throw conflict();
      return JSON.parse(String(row.result)) as T;
    }
    const result = await work();
    await s.store.execute(async ({ tx }) => {
      await tx.execute({
        sql: `INSERT INTO idempotency_keys (org_id, tool, key, args_hash, result, created_at) VALUES (?, ?, ?, ?, ?, ?)
              ON CONFLICT (org_id, tool, key) DO UPDATE SET args_hash = excluded.args_hash, result = excluded.result,
                created_at = excluded.created_at`,
        args: [orgId, tool, key, hash, JSON.stringify(stored(result)), now.toISOString()],
      });
      return { events: [], result: null };
    });
    return result;
  })();
  inFlight.set(flightKey, { hash, promise });
  try {
    return await promise;
  } finally {
    inFlight.delete(flightKey);
  }
}
