// Idempotency (docs/decisions.md): same key + same tool + same org within 24 h returns the first result and
// does no new work; the same key with other arguments is an error; concurrent duplicates run once — on every
// instance that shares the database, so the rule lives in the database, here and nowhere else.  The key is
// claimed by a plain INSERT (it fails on conflict) in the transaction of the first command the call commits
// (events/store.ts withFirstCommand), so the claim exists exactly when the work does, and is completed with
// the result just after. Two instances racing one key: the database serializes their write transactions, the
// second INSERT fails, its command rolls back with it (no events), and that call waits for the first one's
// result instead. While its work runs, the claim's owner renews a short lease on it; an incomplete claim
// whose lease ran out means its owner stopped between the work and the result: a retry is told the work was
// done rather than doing it again. An incomplete claim whose lease holds is still running: a duplicate waits
// a few seconds for its result, then is told to retry. A call that fails after its command committed
// withdraws its claim, as a failed call records nothing and may be retried.

import { type FirstCommandHook, type Tx, withFirstCommand } from "../../events/store.ts";
import { sha256 } from "../auth/tokens.ts";
import {
  completeClaim,
  dropExpiredClaim,
  insertClaim,
  insertResult,
  readClaim,
  renewClaim,
  withdrawClaim,
} from "../db/idempotencyKeys.ts";
import { heartbeat, instanceOf } from "../engine/instance.ts";
import type { Services } from "../services.ts";
import { ToolError } from "./tool.ts";

const WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long an incomplete claim stays its owner's without renewal: past it, the owner is taken to be gone. */
export const CLAIM_LEASE_MS = 15_000;
const RENEW_MS = 5_000;
/** How long a duplicate waits for the first call's result before it is told to retry. */
export const DUPLICATE_WAIT_MS = 3_000;
const POLL_MS = 20;

/** Calls in flight on one instance (one Services): a duplicate there shares the first call's promise, so
 * even work done before its first command (a fetch) is done once. Across instances the claim decides. */
const inFlightOf = new WeakMap<Services, Map<string, { hash: string; promise: Promise<unknown> }>>();

function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/** Runs `write` as a command of its own that appends no events. Its results are not read (a key conflict is
 * caught where it can happen: the writer then runs the command again writing at once), so it goes with the
 * writer's one request. */
async function writeAlone(s: Services, write: (tx: Tx) => Promise<unknown>): Promise<void> {
  await s.store.writeTables(({ later }) => write(later));
}

/** A primary-key violation, as a local file and sqld report it. */
function isKeyConflict(e: unknown): boolean {
  const err = e as { code?: unknown; extendedCode?: unknown; message?: unknown };
  return (
    [err.code, err.extendedCode].some((c) => String(c).startsWith("SQLITE_CONSTRAINT")) ||
    /UNIQUE constraint failed|PRIMARY KEY/i.test(String(err.message ?? ""))
  );
}

/** Thrown inside the claiming command when another call holds the key: the command rolls back. */
class ClaimTaken extends Error {}

interface Claim extends FirstCommandHook {
  /** The INSERT found the key claimed by another call. */
  taken: boolean;
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
  let inFlight = inFlightOf.get(s);
  if (!inFlight) {
    inFlight = new Map();
    inFlightOf.set(s, inFlight);
  }
  const flightKey = `${orgId}\u0000${tool}\u0000${key}`;
  const running = inFlight.get(flightKey);
  if (running) {
    if (running.hash !== hash) throw conflict(tool, key);
    return running.promise as Promise<T>;
  }
  // Registered in flight before the first await, so a concurrent duplicate here always finds it and waits.
  const promise = claimAndRun(s, orgId, tool, key, hash, work, stored);
  inFlight.set(flightKey, { hash, promise });
  try {
    return await promise;
  } finally {
    inFlight.delete(flightKey);
  }
}

const conflict = (tool: string, key: string) =>
  new ToolError(
    "idempotency_conflict",
    `idempotency_key ${JSON.stringify(key)} was already used with other arguments for ${tool}; use a new key.`,
  );

async function claimAndRun<T>(
  s: Services,
  orgId: number,
  tool: string,
  key: string,
  hash: string,
  work: () => Promise<T>,
  stored: (result: T) => unknown,
): Promise<T> {
  const k = { orgId, tool, key };
  const owner = instanceOf(s);
  // Real time, not the service clock: how long this request waits, whatever the clock says.
  const waitUntil = performance.now() + DUPLICATE_WAIT_MS;
  for (;;) {
    const row = await readClaim(s.database, k);
    const now = s.clock();
    if (row && Date.parse(row.createdAt) > now.getTime() - WINDOW_MS) {
      if (row.argsHash !== hash) throw conflict(tool, key);
      if (row.completed) return JSON.parse(row.result) as T;
      const leaseUntil = row.leaseUntil === null ? 0 : Date.parse(row.leaseUntil);
      if (leaseUntil <= now.getTime())
        throw new ToolError(
          "idempotency_incomplete",
          `The first ${tool} call with idempotency_key ${JSON.stringify(key)} did its work, but the server that ran it stopped before recording its result. It is not done again: read the current state with the read tools.`,
        );
      if (performance.now() >= waitUntil)
        throw new ToolError(
          "idempotency_in_progress",
          `The first ${tool} call with idempotency_key ${JSON.stringify(key)} is still running; retry with the same key in a few seconds to get its result.`,
          { retry_after_seconds: 2 },
        );
      await Bun.sleep(POLL_MS);
      continue;
    }

    const claim: Claim = {
      committed: false,
      taken: false,
      write: async (tx, at) => {
        // A claim older than the window no longer holds its key.
        await dropExpiredClaim(tx, k, new Date(at.getTime() - WINDOW_MS).toISOString());
        try {
          await insertClaim(tx, k, {
            argsHash: hash,
            at: at.toISOString(),
            owner,
            leaseUntil: new Date(at.getTime() + CLAIM_LEASE_MS).toISOString(),
          });
        } catch (e) {
          if (!isKeyConflict(e)) throw e;
          claim.taken = true;
          throw new ClaimTaken(`idempotency_key ${key} is claimed by another call`);
        }
      },
    };
    const renewal = heartbeat(RENEW_MS, "idempotency claim", async () => {
      if (!claim.committed) return;
      await writeAlone(s, (tx) =>
        renewClaim(tx, k, owner, new Date(s.clock().getTime() + CLAIM_LEASE_MS).toISOString()),
      );
    });
    let result: T;
    try {
      result = await withFirstCommand(claim, work);
    } catch (e) {
      if (claim.taken) continue; // another call claimed the key first: its result is this call's
      if (claim.committed) await writeAlone(s, (tx) => withdrawClaim(tx, k));
      throw e;
    } finally {
      renewal.stop();
    }
    // The work went on after its claiming command was refused (it swallowed the error): nothing it appended
    // committed, and the first call's result is the answer.
    if (claim.taken) continue;
    const value = JSON.stringify(stored(result));
    await writeAlone(s, async (tx) => {
      if (claim.committed) {
        await completeClaim(tx, k, owner, value);
        return;
      }
      // Work that appended nothing claimed nothing: its result is recorded now, unless a duplicate's was first.
      try {
        await insertResult(tx, k, { argsHash: hash, result: value, at: s.clock().toISOString() });
      } catch (e) {
        if (!isKeyConflict(e)) throw e;
      }
    });
    return result;
  }
}
