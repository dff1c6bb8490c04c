// The tools that report on monitoring cycles (what_changed, get_delivery_settings, get_plan_and_limits) say
// the same thing about them, read from engine/cycle/status.ts: the last finished cycle with its counts, the
// effective cadence, whether the scheduler runs, and when the next cycle is due.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { runCycle } from "../../src/engine/cycle/run.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";

let t: TestServer;
let client: Client;
let orgId: number;

beforeAll(async () => {
  t = await startTestServer({ RIVALS_SCHEDULER: "off" });
  orgId = (await t.org("acme", "starter")).id;
  client = await mcpClient(t.base, await t.key("acme"));
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const cyclesOf = async () =>
  Promise.all(
    (
      [
        ["what_changed", { since: "2026-11-01T00:00:00Z" }],
        ["get_delivery_settings", {}],
        ["get_plan_and_limits", {}],
      ] as const
    ).map(async ([name, args]) => body(await client.callTool({ name, arguments: args })).cycles),
  );

test("before any cycle: the cadence and the scheduler, no last cycle", async () => {
  for (const c of await cyclesOf()) expect(c).toEqual({ cadence: "weekly", scheduler: "off" });
});

test("after a cycle: all three tools name it with its counts", async () => {
  t.clock.advance(60_000);
  const s = await runCycle(t.services, orgId, { trigger: "operator" });
  const all = await cyclesOf();
  for (const c of all)
    expect(c).toEqual({
      cadence: "weekly",
      scheduler: "off",
      last_cycle: {
        id: s.cycle_id,
        trigger: "operator",
        started_at: s.started_at,
        finished_at: s.finished_at,
        pages_checked: 0,
        pages_changed: 0,
        pages_failed: 0,
        pages_due_later: 0,
        signals_created: 0,
        signals_updated: 0,
        signals_closed: 0,
      },
    });
});
