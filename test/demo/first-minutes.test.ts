// The demo's first minutes, as a newcomer clicks: "Advance the demo sites" pressed while the demo still researches
// its competitors at start is queued (the sites stay at v1, the page says so and shows the research), then applied
// right after research and the baseline cycle, whose following cycle finds the planted changes. The page shows
// what the engine is doing throughout: researching, a cycle running, ready with what the last cycle found.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { demoIdle, startDemoEngine } from "../../src/demo/engine.ts";
import { type DemoWeb, demoSitesVersion, startDemoWeb } from "../../src/demo/web.ts";
import { loadDemo } from "../../src/demo/workspace.ts";
import { researchIdle } from "../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { type Browser, formValues, member, parseForms, signedIn } from "../support/oauth-helpers.ts";

setDefaultTimeout(90_000);

let t: TestServer;
let web: DemoWeb;
let orgId: number;
let admin: Browser;

const engineSignals = async () =>
  Number(
    (
      await t.services.database.client.execute({
        sql: "SELECT COUNT(*) AS n FROM engine_signals WHERE org_id = ?",
        args: [orgId],
      })
    ).rows[0].n,
  );
const feed = async () => (await admin.request("/app?org=demo")).text();

beforeAll(async () => {
  let services: TestServer["services"] | undefined;
  web = startDemoWeb(() => (services ? demoSitesVersion(services) : Promise.resolve(1)));
  t = await startTestServer({ RIVALS_FETCH_DELAY_MS: "0" });
  t.services.config.demoSites = web.sites;
  services = t.services;
  await loadDemo(t.services);
  orgId = Number(
    (await t.services.database.client.execute("SELECT id FROM orgs WHERE slug = 'demo'")).rows[0].id,
  );
  admin = await signedIn(t, await member(t, "demo", "admin"));
});
afterAll(async () => {
  await demoIdle(t.services);
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

test("pressed during the start-up research, the advance is queued, then applied: its cycle finds the changes", async () => {
  const form = parseForms(await feed()).find((f) => f.action === "/app/demo/advance");
  expect(form).toBeDefined();
  // The newcomer's click lands while the demo engine researches its competitors.
  const engine = startDemoEngine(t.services, "demo");
  for (let i = 0; i < 100; i++) {
    const n = await t.services.database.client.execute({
      sql: "SELECT COUNT(*) AS n FROM research_runs WHERE org_id = ? AND state = 'running'",
      args: [orgId],
    });
    if (Number(n.rows[0].n) > 0) break;
    await Bun.sleep(10);
  }
  const during = await feed();
  expect(during).toContain('data-demo-engine="researching"');
  const res = await admin.post("/app/demo/advance", formValues(form!));
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/app?org=demo&done=demo-queued");
  // Not advanced yet: research must read v1, and the first cycle take v1 as its baseline.
  expect(await demoSitesVersion(t.services)).toBe(1);
  const queued = await feed();
  expect(queued).toContain("data-demo-queued");
  expect(queued).toContain("Advance queued");
  expect(parseForms(queued).find((f) => f.action === "/app/demo/advance")).toBeUndefined();
  // A second press while queued adds nothing.
  expect((await admin.post("/app/demo/advance", formValues(form!))).headers.get("location")).toBe(
    "/app?org=demo&done=demo-queued",
  );

  await engine;
  await demoIdle(t.services);
  expect(await demoSitesVersion(t.services)).toBe(2);
  expect(await engineSignals()).toBeGreaterThanOrEqual(10);
  const after = await feed();
  expect(after).toContain("demo websites are at version 2 of 3");
  expect(after).toContain('data-demo-engine="ready"');
  expect(after).not.toContain("data-demo-queued");
  expect(after).toMatch(/[1-9]\d* new signals<\/span> \(in the feed below\)/);
  // The advance finds more than a feed page holds: the price rise is among the pricing signals.
  const pricing = await (await admin.request("/app?org=demo&category=pricing")).text();
  expect(pricing).toContain("raises Team plan price from $59 to $69");
  // Two cycles: the baseline (nothing found) and the queued advance's (what was planted).
  const cycles = await t.services.database.client.execute({
    sql: "SELECT summary FROM cycles WHERE org_id = ? AND finished_at IS NOT NULL ORDER BY id",
    args: [orgId],
  });
  expect(cycles.rows.map((r) => JSON.parse(String(r.summary)).signals_created > 0)).toEqual([false, true]);
});

test("pressed when ready, the advance applies at once and the page shows the cycle, then what it found", async () => {
  const before = await engineSignals();
  t.clock.advance(86_400_000);
  const form = parseForms(await feed()).find((f) => f.action === "/app/demo/advance");
  const res = await admin.post("/app/demo/advance", formValues(form!));
  expect(res.headers.get("location")).toBe("/app?org=demo&done=demo-advanced");
  expect(await demoSitesVersion(t.services)).toBe(3);
  await demoIdle(t.services);
  const after = await feed();
  expect(after).toContain('data-demo-engine="ready"');
  // v3 is noise only: the cycle finds nothing new, and the page says so.
  expect(after).toContain("the monitoring cycle found no new signal</span>.");
  expect(await engineSignals()).toBe(before);
});
