// Forgiving arguments: a competitor named by its name or domain wherever competitor_id is taken, resolved in
// the caller's workspace only; several matches answer "ambiguous" with the candidates; every argument error
// says what to send instead and which tool lists valid values.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";

let t: TestServer;
let acme: Client;
let ids: { globex: number; labs: number; initech: number };
const call = async (name: string, args: Record<string, unknown>) =>
  body(await acme.callTool({ name, arguments: args }));

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  await t.org("umbrella", "growth");
  const competitor = (org: string, key: string, name: string, site: string) => ({
    kind: "competitor",
    org,
    key,
    name,
    website_url: site,
  });
  const r = await t.load([
    competitor("acme", "g", "Globex", "https://www.globex.example"),
    competitor("acme", "gl", "Globex Labs", "https://globexlabs.example"),
    competitor("acme", "i", "Initech", "https://initech.example"),
    competitor("umbrella", "h", "Hooli", "https://hooli.example"),
    {
      kind: "signal",
      org: "acme",
      key: "s1",
      competitor: "i",
      title: "Initech adds SSO",
      severity: "medium",
      first_seen_at: "2026-11-18T00:00:00Z",
      evidence: [{ text: "SSO", source_url: "https://initech.example/changelog" }],
    },
  ]);
  expect(r.errors).toEqual([]);
  acme = await mcpClient(t.base, await t.key("acme", "read,write,spend"));
  const list = (await call("list_competitors", {})).competitors as { id: number; name: string }[];
  const idOf = (n: string) => list.find((c) => c.name === n)!.id;
  ids = { globex: idOf("Globex"), labs: idOf("Globex Labs"), initech: idOf("Initech") };
});
afterAll(async () => {
  await acme.close();
  await t.close();
});

test("a name or a domain where competitor_id is asked for resolves to the competitor", async () => {
  expect((await call("get_competitor", { competitor_id: "Globex" })).competitor.id).toBe(ids.globex);
  expect((await call("get_competitor", { competitor: "globex" })).competitor.id).toBe(ids.globex);
  expect((await call("get_competitor", { competitor: "globex.example" })).competitor.id).toBe(ids.globex);
  expect(
    (await call("get_competitor", { competitor: "https://www.globexlabs.example/pricing" })).competitor.id,
  ).toBe(ids.labs);
  expect((await call("get_competitor", { competitor_id: String(ids.initech) })).competitor.id).toBe(
    ids.initech,
  );
  const sigs = await call("search_signals", { competitor: "initech" });
  expect(sigs.signals.map((s: { title: string }) => s.title)).toEqual(["Initech adds SSO"]);
  // A write tool too: a note on the competitor's battlecard.
  const note = await call("add_battlecard_note", { competitor: "Initech", body: "They discount to win." });
  expect(note.competitor_id).toBe(ids.initech);
});

test("several matches are ambiguous, with the candidates; none names what is tracked", async () => {
  const amb = await call("get_competitor", { competitor: "glob" });
  expect(amb.error.code).toBe("ambiguous");
  expect(amb.error.message).toContain("did you mean ");
  expect(amb.error.message).toContain(`Globex (competitor_id ${ids.globex}, globex.example)`);
  expect(amb.error.message).toContain("Globex Labs");
  expect(amb.error.candidates.map((c: { name: string }) => c.name).sort()).toEqual(["Globex", "Globex Labs"]);
  // Another workspace's competitor is not found here.
  const other = await call("get_competitor", { competitor: "Hooli" });
  expect(other.error.code).toBe("not_found");
  expect(other.error.message).toContain("list_competitors");
  expect(other.error.message).toContain("Initech");
  expect(other.error.message).not.toContain("Hooli (");
  const both = await call("get_competitor", { competitor_id: ids.globex, competitor: "Globex" });
  expect(both.error.code).toBe("invalid_argument");
});

test("argument errors say what to send instead and which tool lists valid values", async () => {
  const none = await call("get_competitor", {});
  expect(none.error.code).toBe("invalid_argument");
  expect(none.error.message).toContain("list_competitors");
  const bad = await call("get_evidence", { signal_id: "the pricing one" });
  expect(bad.error.code).toBe("invalid_argument");
  expect(bad.error.message).toContain("what_changed or search_signals");
  const unknown = await call("get_competitor", { name: "Globex" });
  expect(unknown.error.message).toContain(
    "not an argument of get_competitor; it takes competitor_id, competitor",
  );
});

test("tools/list offers competitor wherever competitor_id is taken", async () => {
  const { tools } = await acme.listTools();
  const taking = tools.filter((x) => x.inputSchema.properties && "competitor_id" in x.inputSchema.properties);
  expect(taking.length).toBeGreaterThanOrEqual(9);
  for (const tool of taking)
    expect({ name: tool.name, has: "competitor" in tool.inputSchema.properties! }).toEqual({
      name: tool.name,
      has: true,
    });
});
