import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient, rawPost, toolsCall } from "../support/mcp-helpers.ts";

let t: TestServer;
let client: Client;
let other: Client;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme");
  await t.org("umbrella");
  await t.load([
    {
      kind: "competitor",
      org: "acme",
      key: "c1",
      name: "Globex",
      website_url: "https://globex.example",
      priority: 1,
    },
    { kind: "competitor", org: "acme", key: "c2", name: "Initech", tracking: "paused" },
    {
      kind: "signal",
      org: "acme",
      key: "s1",
      competitor: "c1",
      title: "Globex raises prices",
      severity: "high",
      first_seen_at: "2026-11-18T00:00:00Z",
      evidence: [
        {
          text: "Team $59",
          source_url: "https://globex.example/pricing",
          observed_at: "2026-11-18T00:00:00Z",
        },
      ],
    },
    {
      kind: "signal",
      org: "acme",
      key: "s2",
      competitor: "c1",
      title: "Globex hires CFO",
      status: "closed",
      first_seen_at: "2026-11-10T00:00:00Z",
    },
    {
      kind: "signal",
      org: "acme",
      key: "s3",
      competitor: "c2",
      title: "Initech launches",
      first_seen_at: "2026-11-19T00:00:00Z",
    },
    {
      kind: "digest",
      org: "acme",
      key: "d1",
      slug: "week-46",
      type: "weekly_tldr",
      coverage_period_end: "2026-11-15T00:00:00Z",
      generated_at: "2026-11-16T00:00:00Z",
      signals: ["s1"],
      markdown: "# Week 46",
    },
    {
      kind: "digest",
      org: "acme",
      key: "d2",
      type: "daily_digest",
      coverage_period_end: "2026-11-19T00:00:00Z",
      generated_at: "2026-11-19T06:00:00Z",
    },
    {
      kind: "battlecard",
      org: "acme",
      key: "b1",
      competitor: "c1",
      generated_at: "2026-11-17T00:00:00Z",
      sections: { overview: "Globex sells analytics." },
    },
    { kind: "competitor", org: "umbrella", key: "u1", name: "Hidden Corp" },
  ]);
  client = await mcpClient(t.base, await t.key("acme"));
  other = await mcpClient(t.base, await t.key("umbrella"));
  const list = body(await client.callTool({ name: "list_competitors", arguments: {} }));
  ids.globex = list.competitors[0].id;
  const sigs = body(await client.callTool({ name: "search_signals", arguments: {} }));
  ids.s1 = sigs.signals[0].id;
});
afterAll(() => t.close());

test("tools/list describes every tool with schemas and annotations", async () => {
  const { tools } = await client.listTools();
  const names = tools.map((x) => x.name);
  expect(names).toContain("search_signals");
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe("object");
    expect(tool.outputSchema?.type).toBe("object");
    expect(typeof tool.annotations?.readOnlyHint).toBe("boolean");
  }
});

test("read tools return the REST objects and obey visibility", async () => {
  const list = body(await client.callTool({ name: "list_competitors", arguments: {} }));
  expect(list.competitors.map((c: { name: string }) => c.name)).toEqual(["Globex"]);
  const sigs = body(await client.callTool({ name: "search_signals", arguments: { query: "PRICES" } }));
  expect(sigs.signals.map((s: { title: string }) => s.title)).toEqual(["Globex raises prices"]);
  const rest = await (await t.get(`/api/v1/signals/${ids.s1}`, { "x-api-key": await t.key("acme") })).json();
  // The list's item is compact; get_signal returns the REST object whole.
  expect(sigs.signals[0]).toMatchObject({
    id: rest.data.id,
    title: rest.data.title,
    severity: rest.data.severity,
    evidence_count: rest.data.evidence.length,
    source_url: "https://globex.example/pricing",
    url: rest.data.url,
  });
  expect(sigs.signals[0].evidence).toBeUndefined();
  const whole = body(await client.callTool({ name: "get_signal", arguments: { signal_id: ids.s1 } }));
  expect(whole.signal).toEqual(rest.data);
  const ev = body(await client.callTool({ name: "get_evidence", arguments: { signal_id: ids.s1 } }));
  expect(ev.evidence[0].source_url).toBe("https://globex.example/pricing");
  const newest = body(await client.callTool({ name: "get_digest", arguments: {} }));
  expect(newest.digest.type).toBe("daily_digest");
  const bySlug = body(await client.callTool({ name: "get_digest", arguments: { id: "week-46" } }));
  expect(bySlug.digest.markdown).toBe("# Week 46");
  const card = body(
    await client.callTool({ name: "get_battlecard", arguments: { competitor_id: ids.globex } }),
  );
  expect(card.battlecard.sections.overview).toBe("Globex sells analytics.");
  const changed = body(
    await client.callTool({ name: "what_changed", arguments: { since: "2026-11-17T00:00:00Z" } }),
  );
  expect(changed.signals).toHaveLength(1);
  expect(changed.digests).toHaveLength(1);
  expect(changed.battlecards).toHaveLength(1);
});

test("another org's ids behave as unknown ids", async () => {
  const r = body(await other.callTool({ name: "get_competitor", arguments: { competitor_id: ids.globex } }));
  expect(r.error.code).toBe("not_found");
  const e = body(await other.callTool({ name: "get_evidence", arguments: { signal_id: ids.s1 } }));
  expect(e.error.code).toBe("not_found");
});

test("bad arguments are tool errors with a code", async () => {
  const r = await client.callTool({ name: "search_signals", arguments: { severity: "extreme" } });
  expect(r.isError).toBe(true);
  expect(body(r).error.code).toBe("invalid_argument");
});

test("transport: 401 without credential, 405 on GET, 400 on bad protocol version, 403 on foreign origin", async () => {
  const call = toolsCall("list_competitors");
  const r401 = await rawPost(t.base, call);
  expect(r401.status).toBe(401);
  expect(r401.headers.get("www-authenticate")).toBe(
    `Bearer resource_metadata="${t.base}/.well-known/oauth-protected-resource"`,
  );
  expect((await fetch(`${t.base}/mcp`)).status).toBe(405);
  expect((await fetch(`${t.base}/mcp`, { method: "DELETE" })).status).toBe(405);
  const key = await t.key("acme", "read");
  expect(
    (await rawPost(t.base, call, { authorization: `Bearer ${key}`, "mcp-protocol-version": "1999-01-01" }))
      .status,
  ).toBe(400);
  expect(
    (await rawPost(t.base, call, { authorization: `Bearer ${key}`, origin: "https://evil.example" })).status,
  ).toBe(403);
  const parse = await rawPost(t.base, "{not json");
  expect(parse.status).toBe(400);
  expect((await parse.json()).error.code).toBe(-32700);
  const note = await rawPost(t.base, { jsonrpc: "2.0", method: "notifications/initialized" });
  expect(note.status).toBe(202);
});

test("missing scope is 403 insufficient_scope", async () => {
  const writeOnly = await t.key("acme", "write");
  const r = await rawPost(t.base, toolsCall("list_competitors"), { authorization: `Bearer ${writeOnly}` });
  expect(r.status).toBe(403);
  expect(r.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="read"');
});
