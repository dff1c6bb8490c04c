// Idempotency keys are claimed in the transaction of the first command a call commits (src/mcp/idempotency.ts),
// so a key and the work it guards commit together. Against a real libSQL file: a server that stops between the
// work and its recorded result does not do the work again on retry (and says so only once the claim's lease
// ran out); a call that fails records nothing. Races across instances: test/db/cluster-idempotency.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createApiKey } from "../../src/domain/apiKeys.ts";
import { CLAIM_LEASE_MS, DUPLICATE_WAIT_MS, once } from "../../src/mcp/idempotency.ts";
import { ToolError } from "../../src/mcp/tool.ts";
import { openServices, type Services } from "../../src/services.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let orgId: number;
beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.org("acme")).id;
});
afterAll(() => t.close());

const keysMade = async (s: Services) =>
  Number((await s.database.client.execute("SELECT COUNT(*) AS n FROM api_keys")).rows[0].n);
const claimOf = async (s: Services, key: string) =>
  (
    await s.database.client.execute({
      sql: "SELECT completed, result FROM idempotency_keys WHERE org_id = ? AND key = ?",
      args: [orgId, key],
    })
  ).rows[0];
/** The guarded work: one real command that appends an event (a new API key). */
const makeKey = (s: Services) => async () => ({
  id: (await createApiKey(s.store, "acme", "ci", ["read"])).id,
});

test("a completed call returns its first result to a retry and does no new work", async () => {
  const s = t.services;
  const before = await keysMade(s);
  const first = await once(s, orgId, "make_key", "k-done", { a: 1 }, makeKey(s));
  expect(await keysMade(s)).toBe(before + 1);
  expect(await claimOf(s, "k-done")).toMatchObject({ completed: 1, result: JSON.stringify(first) });
  expect(await once(s, orgId, "make_key", "k-done", { a: 1 }, makeKey(s))).toEqual(first);
  expect(await keysMade(s)).toBe(before + 1);
});

test("a server that stops after the work but before the result: the retry is refused, the work not redone", async () => {
  // Its own services on its own file, so closing them is the stop.
  const config = loadConfig({ RIVALS_DB: `file:${join(t.dir, "stop.db")}`, PORT: "0" });
  const a = await openServices(config, () => t.clock.now);
  const { createOrg } = await import("../../src/domain/orgs.ts");
  const acme = await createOrg(a.store, { slug: "acme", name: "Acme", plan: "growth" });
  const stopAfterWork = async () => {
    const r = await createApiKey(a.store, "acme", "ci", ["read"]);
    a.close(); // the process stops here: the command has committed, nothing after it runs
    return { id: r.id };
  };
  await expect(once(a, acme.id, "make_key", "k-stop", {}, stopAfterWork)).rejects.toThrow();

  const b = await openServices(config, () => t.clock.now);
  try {
    const made = Number((await b.database.client.execute("SELECT COUNT(*) AS n FROM api_keys")).rows[0].n);
    expect(made).toBe(1);
    const claim = await b.database.client.execute(
      "SELECT completed FROM idempotency_keys WHERE key = 'k-stop'",
    );
    expect(claim.rows[0]).toMatchObject({ completed: 0 });
    const again = () =>
      once(b, acme.id, "make_key", "k-stop", {}, async () => ({
        id: (await createApiKey(b.store, "acme", "ci", ["read"])).id,
      }));
    // While the claim's lease holds, its owner may still be running: the duplicate waits, then is told to
    // retry — not that the server stopped.
    const waited = performance.now();
    await expect(again()).rejects.toMatchObject({ code: "idempotency_in_progress" });
    expect(performance.now() - waited).toBeGreaterThanOrEqual(DUPLICATE_WAIT_MS - 50);
    // Nobody renewed the lease: its owner is gone, and now the retry hears so.
    t.clock.advance(CLAIM_LEASE_MS + 1);
    const retry = again();
    await expect(retry).rejects.toBeInstanceOf(ToolError);
    await expect(retry).rejects.toMatchObject({ code: "idempotency_incomplete" });
    expect(Number((await b.database.client.execute("SELECT COUNT(*) AS n FROM api_keys")).rows[0].n)).toBe(1);
    // Other arguments under that key are still a conflict, not "incomplete".
    await expect(
      once(b, acme.id, "make_key", "k-stop", { other: true }, async () => ({})),
    ).rejects.toMatchObject({
      code: "idempotency_conflict",
    });
  } finally {
    b.close();
  }
});

test("a call that fails after its command committed withdraws its claim: a retry runs again", async () => {
  const s = t.services;
  const before = await keysMade(s);
  const failAfterWork = async () => {
    await createApiKey(s.store, "acme", "ci", ["read"]);
    throw new ToolError("delivery_failed", "the mail server refused");
  };
  await expect(once(s, orgId, "make_key", "k-fail", {}, failAfterWork)).rejects.toMatchObject({
    code: "delivery_failed",
  });
  expect(await keysMade(s)).toBe(before + 1);
  expect(await claimOf(s, "k-fail")).toBeUndefined();
  const retry = await once(s, orgId, "make_key", "k-fail", {}, makeKey(s));
  expect(await keysMade(s)).toBe(before + 2);
  expect(await claimOf(s, "k-fail")).toMatchObject({ completed: 1, result: JSON.stringify(retry) });
});

test("a call whose command is refused leaves no claim", async () => {
  const s = t.services;
  const refused = async () => {
    await createApiKey(s.store, "no-such-org", "ci", ["read"]);
    return {};
  };
  await expect(once(s, orgId, "make_key", "k-refused", {}, refused)).rejects.toThrow();
  expect(await claimOf(s, "k-refused")).toBeUndefined();
});
