// "What did my competitors change this week, and how do I answer the biggest move in a deal?" asked the way an
// agent asks it, with the official SDK client, of a workspace that tracks five competitors of the fixture web
// after a week of changes (v1 researched, v2 observed by a cycle): what_changed, then the biggest move whole
// (get_signal), then that competitor's battlecard. The tool results it reads, end to end, stay under 8,000
// tokens, counted as bytes of the text content / 4 (a common estimate for English and JSON).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type FixtureWeb, startFixtureWeb } from "../../fixtures/web/server.ts";
import { runCycle } from "../../src/engine/cycle/run.ts";
import { startResearch } from "../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";

setDefaultTimeout(120_000);

const SITES = [
  "globex.example",
  "brightloop.example",
  "quantive.example",
  "northwind.example",
  "kestrel.example",
];
const SEVERITY = { high: 3, medium: 2, low: 1 } as Record<string, number>;

let web: FixtureWeb;
let t: TestServer;
let client: Client;
let weekAgo: string;

beforeAll(async () => {
  web = startFixtureWeb({ version: 1 });
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  const orgId = (await t.org("acme", "growth")).id;
  client = await mcpClient(t.base, await t.key("acme", "read,write,spend"));
  for (const site of SITES)
    expect(
      body(await client.callTool({ name: "add_competitor", arguments: { website_url: `https://${site}` } })),
    ).toHaveProperty("competitor");
  const { done } = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "watchlist" },
    "operator",
    { usesAllowance: false, history: "none" },
  );
  expect((await done).every((r) => r.status === "finished")).toBe(true);
  await runCycle(t.services, orgId, { trigger: "operator" });
  weekAgo = t.clock.now.toISOString();
  t.clock.advance(2 * 86_400_000);
  web.setVersion(2);
  const cycle = await runCycle(t.services, orgId, { trigger: "operator" });
  expect(cycle.signals_created).toBeGreaterThan(5);
});
afterAll(async () => {
  await client.close();
  await t.close();
  await web.stop();
});

test("the week's changes and an answer to the biggest move cost under 8,000 tokens of tool results", async () => {
  const read: { tool: string; bytes: number }[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    const text = (res.content as { type: string; text: string }[]).map((c) => c.text).join("");
    read.push({ tool: name, bytes: new TextEncoder().encode(text).byteLength });
    expect({ name, error: res.isError ?? false }).toEqual({ name, error: false });
    return body(res);
  };

  const changed = await call("what_changed", { since: weekAgo });
  expect(changed.signals.length).toBeGreaterThan(5);
  // Compact items: no evidence lists or whole battlecards, each with a link and its id.
  for (const s of changed.signals) {
    expect(s.evidence).toBeUndefined();
    expect(typeof s.url).toBe("string");
    expect(s.evidence_count).toBeGreaterThan(0);
  }
  for (const c of changed.battlecards) expect(c.sections).toBeUndefined();

  const biggest = [...changed.signals].sort(
    (a, b) => (SEVERITY[b.severity] ?? 0) - (SEVERITY[a.severity] ?? 0),
  )[0];
  const whole = await call("get_signal", { signal_id: biggest.id });
  expect(whole.signal.id).toBe(biggest.id);
  expect(whole.signal.evidence.length).toBeGreaterThan(0);

  const card = await call("get_battlecard", { competitor_id: biggest.competitor_id });
  expect(card.battlecard.competitor_id).toBe(biggest.competitor_id);

  const bytes = read.reduce((n, r) => n + r.bytes, 0);
  const tokens = Math.ceil(bytes / 4);
  console.log(
    `trajectory: ${read.map((r) => `${r.tool} ${r.bytes} B`).join(", ")}; ${bytes} bytes ≈ ${tokens} tokens (bytes / 4)`,
  );
  expect(tokens).toBeLessThanOrEqual(8000);
});

test("a list says how far it goes and where the next page is", async () => {
  const first = await client.callTool({ name: "search_signals", arguments: { limit: 3 } });
  const page = body(first);
  expect(page.signals).toHaveLength(3);
  expect(page.next_cursor).toBe("3");
  const next = body(await client.callTool({ name: "search_signals", arguments: { limit: 3, cursor: "3" } }));
  expect(next.signals[0].id).not.toBe(page.signals[0].id);
  const ids = new Set([...page.signals, ...next.signals].map((s: { id: number }) => s.id));
  expect(ids.size).toBe(page.signals.length + next.signals.length);
  const few = body(await client.callTool({ name: "what_changed", arguments: { since: weekAgo, limit: 2 } }));
  expect(few.signals).toHaveLength(2);
  expect(few.more).toContain("signals");
});
