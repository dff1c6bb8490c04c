// The demo's dossiers move when its competitors do, as `npm start` runs it: after "Advance the demo sites" the
// competitor page, the compare CSV, the REST dossier and get_competitor hold what the demo's v2 pricing pages
// offer (Globex Team at $69 with Warehouse sync moved up to Enterprise, Brightloop's Free plan gone and Growth at
// $99, Quantive's new Growth plan billed yearly), in the pages' order, with no "Research now".
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { OFFERED_PRICING } from "../../fixtures/web/offered.ts";
import { advanceDemo, demoIdle, runDemoEngine } from "../../src/demo/engine.ts";
import { type DemoWeb, demoSitesVersion, startDemoWeb } from "../../src/demo/web.ts";
import { loadDemo } from "../../src/demo/workspace.ts";
import { researchIdle } from "../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";
import { rest } from "../support/mcp-write-helpers.ts";
import { type Browser, member, signedIn } from "../support/oauth-helpers.ts";

setDefaultTimeout(120_000);

type Obj = Record<string, any>;
const DEMO_SITES = ["globex.example", "brightloop.example", "quantive.example"];

let t: TestServer;
let web: DemoWeb;
let key: string;
let mcp: Client;
let admin: Browser;
let advancedAt: string;
const idOf = new Map<string, number>();

beforeAll(async () => {
  let services: TestServer["services"] | undefined;
  web = startDemoWeb(() => (services ? demoSitesVersion(services) : Promise.resolve(1)));
  t = await startTestServer({ RIVALS_FETCH_DELAY_MS: "0" });
  t.services.config.demoSites = web.sites;
  services = t.services;
  await loadDemo(t.services);
  const r = await t.services.database.client.execute(
    "SELECT c.id, c.website_url, o.id AS org FROM competitors c JOIN orgs o ON o.id = c.org_id WHERE o.slug = 'demo'",
  );
  for (const row of r.rows) idOf.set(new URL(String(row.website_url)).hostname, Number(row.id));
  const orgId = Number(r.rows[0]!.org);
  key = await t.key("demo");
  mcp = await mcpClient(t.base, key);
  admin = await signedIn(t, await member(t, "demo", "admin"));
  await runDemoEngine(t.services, "demo");
  t.clock.advance(86_400_000);
  await advanceDemo(t.services, orgId);
  await demoIdle(t.services);
  await researchIdle(t.services);
  advancedAt = t.clock.now.toISOString();
});

afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

test("after one advance every surface holds the demo's v2 pricing pages, in their order", async () => {
  const csv = await (await admin.request("/app/compare.csv?org=demo")).text();
  for (const site of DEMO_SITES) {
    const offered = OFFERED_PRICING.find((o) => o.site === site)!.versions[2];
    const id = idOf.get(site)!;
    const d = (await rest(t, key, `/api/v1/competitors/${id}`)).json.data;
    const plans: Obj[] = d.reads.pricing.plans;
    expect({ site, plans: plans.map((p) => p.name) }).toEqual({ site, plans: offered.map((p) => p.name) });
    for (const [i, p] of offered.entries()) {
      // The amount as billed, a yearly one's month beside it.
      if (p.price === null) expect(plans[i]!.custom).toBe(true);
      else if (p.period === "year")
        expect(plans[i]).toMatchObject({ amount: p.amount, period: "year", monthly_equivalent: p.price });
      else expect(plans[i]).toMatchObject({ amount: p.price, price: p.price });
    }
    expect(d.freshness.last_signal_at).toBe(advancedAt);
    expect(d.freshness.state_updated_at).toBe(advancedAt);
    const tool = body(await mcp.callTool({ name: "get_competitor", arguments: { competitor_id: id } }));
    expect(tool.competitor.reads.pricing).toEqual(d.reads.pricing);
    const line = csv.split("\r\n").find((l) => l.startsWith(`"${d.name}"`))!;
    expect(line).toContain(`"${offered.length}: ${offered.map((p) => p.name).join(", ")}"`);
  }
  const globex = (await rest(t, key, `/api/v1/competitors/${idOf.get("globex.example")}`)).json.data;
  const team = globex.reads.pricing.plans.find((p: Obj) => p.name === "Team");
  const enterprise = globex.reads.pricing.plans.find((p: Obj) => p.name === "Enterprise");
  expect(team.amount).toBe(69);
  expect(team.features).not.toContain("Warehouse sync (Snowflake, BigQuery)");
  expect(enterprise.features).toContain("Warehouse sync (Snowflake, BigQuery)");

  // The competitor page: Team at $69 in its table; no Free plan left on Brightloop's.
  const page = await (await admin.request(`/app/competitors/${idOf.get("globex.example")}`)).text();
  const table = page.slice(
    page.indexOf('class="stack pricing-table"'),
    page.indexOf("</table>", page.indexOf('class="stack pricing-table"')),
  );
  expect(table).toContain("<strong>$69</strong>");
  expect(table).not.toContain("<strong>$59</strong>");
  const brightloop = await (await admin.request(`/app/competitors/${idOf.get("brightloop.example")}`)).text();
  const rows = brightloop.slice(brightloop.indexOf('class="stack pricing-table"'));
  expect(rows.slice(0, rows.indexOf("</table>"))).not.toMatch(/data-label="Plan">\s*<span>Free<\/span>/);
});
