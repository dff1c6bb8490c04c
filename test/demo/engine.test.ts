// The demo shows the engine working: the demo's fictional websites are embedded (src/demo/sites.ts, text imports
// of the fixture web's .example sites) and served by the process on a loopback listener; research and a cycle run
// on them (nothing found at v1); an admin's "Advance the demo sites" button (and `rivals demo advance`) moves them
// to v2, whose cycle finds the planted changes, then v3 (noise only: nothing new). The imported history stays.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { resolveFixture } from "../../fixtures/web/server.ts";
import { demoSiteFiles } from "../../scripts/demo-sites.ts";
import { demoIdle, runDemoEngine } from "../../src/demo/engine.ts";
import { SITE_FILES } from "../../src/demo/sites.ts";
import {
  advanceDemoSites,
  DEMO_VERSIONS,
  type DemoWeb,
  demoSitesVersion,
  resolveSite,
  startDemoWeb,
} from "../../src/demo/web.ts";
import { loadDemo } from "../../src/demo/workspace.ts";
import { researchIdle } from "../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { formValues, member, parseForms, signedIn } from "../support/oauth-helpers.ts";

setDefaultTimeout(90_000);

let t: TestServer;
let web: DemoWeb;
let orgId: number;

const count = async (sql: string) =>
  Number((await t.services.database.client.execute({ sql, args: [orgId] })).rows[0].n);
const engineSignals = () => count("SELECT COUNT(*) AS n FROM engine_signals WHERE org_id = ?");
const allSignals = () => count("SELECT COUNT(*) AS n FROM signals WHERE org_id = ?");

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
});
afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

test("the embedded sites are every file of the fixture web's .example sites, served the same way", () => {
  expect(Object.keys(SITE_FILES).sort()).toEqual(demoSiteFiles().sort());
  expect(DEMO_VERSIONS).toBe(3);
  for (const [host, path] of [
    ["globex.example", "/pricing"],
    ["brightloop.example", "/blog/feed/"],
    ["northwind.example", "/customers"],
    ["quantive.example", "/"],
    ["globex.example", "/nope"],
  ])
    for (const v of [1, 2, 3]) {
      const a = resolveSite(host, path, v);
      const b = resolveFixture(host, path, v);
      expect([host, path, v, a.status, a.body]).toEqual([
        host,
        path,
        v,
        b.status,
        b.body ? new TextDecoder().decode(b.body) : null,
      ]);
    }
});

test("research and a cycle at start; the button moves the sites to v2 and its cycle finds the planted changes", async () => {
  const imported = await allSignals();
  expect(imported).toBeGreaterThan(0);
  const first = await runDemoEngine(t.services, "demo");
  expect(first.researched.length).toBeGreaterThanOrEqual(3);
  expect(first.cycle?.signals_created).toBe(0);
  expect(await engineSignals()).toBe(0);

  const admin = await signedIn(t, await member(t, "demo", "admin"));
  const reader = await signedIn(t, await member(t, "demo", "member"));
  const feed = await (await admin.request("/app?org=demo")).text();
  expect(feed).toContain("demo websites are at version 1 of 3");
  const form = parseForms(feed).find((f) => f.action === "/app/demo/advance");
  expect(form).toBeDefined();
  // Members see no button and are refused if they post.
  const readerFeed = await (await reader.request("/app?org=demo")).text();
  expect(parseForms(readerFeed).find((f) => f.action === "/app/demo/advance")).toBeUndefined();
  const readerForm = formValues(form!);
  readerForm.set("csrf", formValues(parseForms(readerFeed)[0] ?? form!).get("csrf") ?? "");
  expect((await reader.post("/app/demo/advance", readerForm)).status).toBe(403);
  expect(await demoSitesVersion(t.services)).toBe(1);

  t.clock.advance(86_400_000);
  const res = await admin.post("/app/demo/advance", formValues(form!));
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/app?org=demo&done=demo-advanced");
  expect(await demoSitesVersion(t.services)).toBe(2);
  // The cycle runs in the background; wait for it to end (a count that holds still for a moment is not an end on
  // a busy machine).
  await demoIdle(t.services);
  expect(await engineSignals()).toBeGreaterThanOrEqual(10);
  const after = await (await admin.request("/app?org=demo")).text();
  expect(after).toContain("demo websites are at version 2 of 3");
  // More than a page of new signals: the price rise is among the pricing ones.
  const pricing = await (await admin.request("/app?org=demo&category=pricing")).text();
  expect(pricing).toContain("raises Team plan price from $59 to $69");
  // The imported history stays.
  expect(await allSignals()).toBe(imported + (await engineSignals()));
});

test("`rivals demo advance` moves on to v3 (noise only: its cycle finds nothing new) and stays at the last", async () => {
  const before = await engineSignals();
  const a = await advanceDemoSites(t.services);
  expect(a).toMatchObject({ from: 2, version: 3, last: 3 });
  t.clock.advance(86_400_000);
  const out = await runDemoEngine(t.services, "demo");
  expect(out.cycle?.signals_created).toBe(0);
  expect(await engineSignals()).toBe(before);
  expect(await advanceDemoSites(t.services)).toMatchObject({ from: 3, version: 3 });
});
