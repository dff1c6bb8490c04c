// A new workspace's first run in real Chromium: from the feed's "Get started" to the walk-through — positioning
// drafted from the company's own website (the fixture web), the profile and the ideal customer profile saved, a
// competitor added and researched with the page following the run, and what happens next — through the same
// commands as the tools; at phone width the page reads without sideways scrolling; no serious or critical
// axe-core violation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type FixtureWeb, startFixtureWeb } from "../../fixtures/web/server.ts";
import { addMember } from "../../src/domain/members.ts";
import { loadSettings } from "../../src/domain/workspace.ts";
import { researchIdle } from "../../src/engine/research/runner.ts";
import { ARTIFACTS, axeViolations, browsers, pageOverflow } from "../support/browser-pages.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

const EMAIL = "ada@acme.example";
const PASSWORD = "a long enough password";
let web: FixtureWeb;
let t: TestServer;
const b = browsers();
let orgId: number;

beforeAll(async () => {
  web = startFixtureWeb();
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  const report = await t.load([
    { kind: "org", slug: "acme", name: "Acme", plan: "growth", website_url: "https://brightloop.example" },
  ]);
  expect(report.errors).toEqual([]);
  await addMember(t.services.store, { org: "acme", email: EMAIL, role: "admin", password: PASSWORD });
  orgId = Number(
    (await t.services.database.client.execute("SELECT id FROM orgs WHERE slug = 'acme'")).rows[0].id,
  );
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await b.close();
  await researchIdle(t.services);
  await t?.close();
  await web?.stop();
});

describe("the first run", () => {
  test("walked through from the feed at desktop width", async () => {
    const page = await b.signedIn(t.base, "/app", "desktop", EMAIL, PASSWORD);
    await Promise.all([
      page.waitForURL(/\/app\/start/),
      page.getByRole("link", { name: "Get started" }).click(),
    ]);
    expect(await page.locator("h1").textContent()).toBe("Get started");

    // Step 1: positioning drafted from the company's own site, then the profile saved.
    await Promise.all([
      page.waitForURL(/done=/),
      page.getByRole("button", { name: "Draft positioning from our website" }).click(),
    ]);
    const drafted = await loadSettings(t.services.database.client, orgId);
    expect(await page.locator("#p-vp").inputValue()).toBe(
      (drafted.profile.value_propositions ?? []).join("\n"),
    );
    expect(
      (drafted.profile.value_propositions ?? []).length + (drafted.profile.differentiators ?? []).length,
    ).toBeGreaterThan(0);
    expect(await page.locator("p.notice").first().textContent()).toContain(
      "Positioning drafted from your website",
    );

    await page.fill("#p-description", "Analytics for product teams");
    await page.fill("#p-category", "Product analytics");
    await Promise.all([
      page.waitForURL(/done=profile/),
      page.getByRole("button", { name: "Save the profile" }).click(),
    ]);
    const saved = await loadSettings(t.services.database.client, orgId);
    expect(saved.profile).toMatchObject({
      description: "Analytics for product teams",
      category: "Product analytics",
    });
    expect(saved.profile.value_propositions).toEqual(drafted.profile.value_propositions);
    expect(await page.locator("#step-1 .badge").textContent()).toBe("Done");

    // Step 2: the ideal customer profile.
    await page.fill("#icp-industries", "Software\nFintech");
    await page.fill("#icp-roles", "Head of Product");
    await Promise.all([
      page.waitForURL(/done=icp/),
      page.getByRole("button", { name: "Save the ideal customer profile" }).click(),
    ]);
    expect((await loadSettings(t.services.database.client, orgId)).icp).toEqual({
      industries: ["Software", "Fintech"],
      buyer_roles: ["Head of Product"],
    });

    // Step 3: a competitor, added from here and back here.
    await page.fill("#c-website", "globex.example");
    await Promise.all([
      page.waitForURL(/done=added/),
      page.getByRole("button", { name: "Add competitor" }).click(),
    ]);
    expect(await page.locator("ul.progress li").textContent()).toContain("not researched yet");

    // Step 4: research, followed by the page until it has finished.
    await Promise.all([
      page.waitForURL(/done=(running|finished)/),
      page.getByRole("button", { name: /^Research/ }).click(),
    ]);
    await page.waitForSelector('ul.progress li[data-state="finished"]', { timeout: 50_000 });
    expect(await page.locator("ul.progress li").textContent()).toContain("researched");
    expect(await page.locator("#step-4 .badge").textContent()).toBe("Done");

    // Step 5: what happens next, from the workspace's own settings.
    const next = (await page.locator("#step-5").locator("..").textContent())!.replace(/\s+/g, " ");
    expect(next).toContain("weekly");
    expect(next).toContain("Monitoring settings");

    expect(await axeViolations(page)).toEqual([]);
    expect(await pageOverflow(page)).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, "start-desktop.png"), fullPage: true });
    await page.close();
  }, 90_000);

  test("reads at phone width", async () => {
    const page = await b.signedIn(t.base, "/app/start", "phone", EMAIL, PASSWORD);
    expect(await page.locator("section.step").count()).toBe(5);
    expect(await axeViolations(page)).toEqual([]);
    expect(await pageOverflow(page)).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, "start-phone.png"), fullPage: true });
    await page.close();
  }, 60_000);
});
