// A page reported removed takes what it gave the dossier with it, and gives it back when it answers again: the
// fixture web behind the cycle tests' override layer makes Globex's pricing and security pages answer 404 for
// three cycles (the third reports them removed), then serves them again.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { researchIdle, startResearch } from "../../../src/engine/research/runner.ts";
import { type CycleWeb, startCycleWeb } from "../../support/engine-cycle-web.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { rest } from "../../support/mcp-write-helpers.ts";

setDefaultTimeout(60_000);

let web: CycleWeb;
let t: TestServer;
let key: string;
let orgId: number;
let id: number;

const dossier = async () => (await rest(t, key, `/api/v1/competitors/${id}`)).json.data;
const cycle = async () => {
  t.clock.advance(3_600_000);
  return runCycle(t.services, orgId, { trigger: "operator" });
};

beforeAll(async () => {
  web = startCycleWeb();
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  orgId = (await t.org("acme")).id;
  key = await t.key("acme");
  const mcp = await mcpClient(t.base, key);
  id = body(
    await mcp.callTool({ name: "add_competitor", arguments: { website_url: "https://globex.example" } }),
  ).competitor.id;
  const { done } = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "one", competitor_id: id },
    "operator",
    { usesAllowance: false },
  );
  expect((await done)[0]?.status).toBe("finished");
  await cycle();
});

afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

test("the pricing and security pages' reads go when the pages are reported removed, and come back with them", async () => {
  const researched = await dossier();
  expect(researched.reads.pricing.plans.map((p: { name: string }) => p.name)).toEqual([
    "Free",
    "Team",
    "Enterprise",
  ]);
  expect(researched.reads.regulation.certifications.length).toBeGreaterThan(0);

  web.set("globex.example", "/pricing", { status: 404 });
  web.set("globex.example", "/security", { status: 404 });
  await cycle();
  await cycle();
  // Two failed checks: not yet removed, the reads stay.
  expect((await dossier()).reads.pricing).toEqual(researched.reads.pricing);
  await cycle();
  const removed = await dossier();
  expect(removed.reads.pricing).toBeUndefined();
  expect(removed.reads.regulation?.certifications).toBeUndefined();
  // security.txt stays: it is its own source.
  expect(removed.reads.regulation?.security_txt).toEqual(researched.reads.regulation.security_txt);
  expect(removed.freshness.state_updated_at).toBe(t.clock.now.toISOString());

  web.clear("globex.example", "/pricing");
  web.clear("globex.example", "/security");
  await cycle();
  const back = await dossier();
  expect(back.reads.pricing).toEqual(researched.reads.pricing);
  expect(back.reads.regulation).toEqual(researched.reads.regulation);
});
