// Research is the first snapshot: what research reads becomes each source's baseline with its validators,
// so the first cycle sends conditional requests instead of downloading every page again, and a change made
// between research and that cycle is reported like any other.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { type FixtureWeb, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { researchIdle, startResearch } from "../../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { rest } from "../../support/mcp-write-helpers.ts";

setDefaultTimeout(60_000);

let web: FixtureWeb;
let t: TestServer;

beforeAll(async () => {
  web = startFixtureWeb({ version: 1 });
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
});
afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

async function researched(slug: string): Promise<{ orgId: number; key: string; competitorId: number }> {
  const orgId = (await t.org(slug)).id;
  await t.load([
    { kind: "competitor", org: slug, key: "globex", name: "Globex", website_url: "https://globex.example/" },
  ]);
  const key = await t.key(slug);
  const competitorId = (await rest(t, key, "/api/v1/competitors")).json.data[0].id;
  const { done } = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "one", competitor_id: competitorId },
    "operator",
    { usesAllowance: false },
  );
  const [report] = await done;
  expect(report.status).toBe("finished");
  return { orgId, key, competitorId };
}

const pricingGets = () =>
  web.requests.filter((r) => r.host === "globex.example" && r.path === "/pricing" && r.method === "GET");

describe("research is the first snapshot", () => {
  test("research stores each source's baseline; the first cycle asks conditionally and downloads nothing again", async () => {
    web.setVersion(1);
    const before = pricingGets().length;
    const { orgId } = await researched("acme");
    const snapshots = await t.services.database.client.execute({
      sql: "SELECT COUNT(*) AS n FROM snapshot_sources WHERE org_id = ? AND latest_hash IS NOT NULL",
      args: [orgId],
    });
    expect(Number(snapshots.rows[0].n)).toBeGreaterThan(5);
    // Research read the pricing page once, and taking its baseline fetched nothing more.
    expect(
      pricingGets()
        .slice(before)
        .map((r) => r.status),
    ).toEqual([200]);
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.pages_baseline).toBe(0);
    expect(s.signals_created).toBe(0);
    expect(s.pages_not_modified).toBeGreaterThan(5);
    expect(pricingGets().at(-1)?.status).toBe(304);
  });

  test("a change between research and the first cycle is a signal", async () => {
    web.setVersion(1);
    const { orgId, key } = await researched("initech");
    web.setVersion(2);
    t.clock.advance(3_600_000);
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.signals_created).toBeGreaterThan(0);
    const signals = (await rest(t, key, "/api/v1/signals")).json.data as { title: string; type?: string }[];
    expect(signals.map((x) => x.title).join("\n")).toMatch(/\$69/);
  });
});
