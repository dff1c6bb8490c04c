// Pages rendered per workspace and day: a free workspace renders its plan's 30 pages of a UTC day in the
// real browser, the 31st is refused with the plan's words (visibleHtml: a failed read `render_limit`, never an
// empty page); another workspace renders on, and the next day the first renders again. On a libSQL server the
// count is the service's: two instances share it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createOrg } from "../../../src/domain/orgs.ts";
import { PLANS } from "../../../src/domain/plans.ts";
import { RENDER_LIMIT, rendererFor, tenantRenderer, visibleHtml } from "../../../src/engine/render/index.ts";
import { chromiumPath } from "../../support/browser.ts";
import { startCluster } from "../../support/cluster.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

setDefaultTimeout(120_000);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ RIVALS_BROWSER: await chromiumPath(), RIVALS_FETCH_DELAY_MS: "0" });
});
afterAll(async () => {
  await rendererFor(t.services.config)?.close();
  await t?.close();
});

// A shell whose script writes the page: rendered, it says something; served, it is empty.
const page = {
  finalUrl: "https://quota.example/pricing",
  text: '<div id="root"></div><script>document.getElementById("root").innerHTML = "<h1>Plans</h1>"</script>',
  contentType: "text/html",
};

test("a free workspace renders 30 pages a day; the 31st is refused; others and the next day render", async () => {
  const free = await t.org("free-co", "free");
  const other = await t.org("other-co", "free");
  const cap = PLANS.free.dailyCaps.renders;
  expect(cap).toBe(30);
  const renderer = tenantRenderer(t.services, free.id)!;
  const results = await Promise.all(Array.from({ length: cap }, () => visibleHtml(renderer, page)));
  expect(results.filter((r) => r.ok && r.html.includes("<h1>Plans</h1>")).length).toBe(cap);

  const refused = await visibleHtml(renderer, page);
  expect(refused).toMatchObject({ ok: false, error: RENDER_LIMIT });
  if (refused.ok) return;
  expect(refused.message).toContain(
    `The Free plan allows ${cap} pages rendered in a browser per day (UTC) and ${cap} ran today`,
  );
  expect(refused.message).toContain(`Starter allows ${PLANS.starter.dailyCaps.renders}`);

  expect(await visibleHtml(tenantRenderer(t.services, other.id), page)).toMatchObject({ ok: true });
  t.clock.advance(24 * 3_600_000);
  expect(await visibleHtml(renderer, page)).toMatchObject({ ok: true, rendered: true });
});

test("on a libSQL server two instances share a workspace's renders of the day", async () => {
  let now = new Date("2026-11-20T12:00:00Z");
  const cluster = await startCluster(2, { RIVALS_BROWSER: await chromiumPath() }, () => now);
  try {
    const [a, b] = cluster.instances.map((i) => i.services);
    const org = await createOrg(a.store, { slug: "shared-co", name: "Shared", plan: "free" });
    const cap = PLANS.free.dailyCaps.renders;
    const results = await Promise.all(
      Array.from({ length: cap }, (_, i) => visibleHtml(tenantRenderer(i % 2 ? b : a, org.id), page)),
    );
    expect(results.filter((r) => r.ok).length).toBe(cap);
    for (const s of [a, b])
      expect(await visibleHtml(tenantRenderer(s, org.id), page)).toMatchObject({
        ok: false,
        error: RENDER_LIMIT,
      });
    now = new Date(now.getTime() + 24 * 3_600_000);
    expect(await visibleHtml(tenantRenderer(b, org.id), page)).toMatchObject({ ok: true, rendered: true });
  } finally {
    for (const i of cluster.instances) await rendererFor(i.services.config)?.close();
    await cluster.close();
  }
});
