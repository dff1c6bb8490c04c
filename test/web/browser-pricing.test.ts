// A competitor's pricing in real Chromium (test/support/browser.ts), at desktop and phone width: a table of plans with
// price, unit and billing (free, custom and "from" markers, a yearly figure and a yearly-billed alternative),
// features on demand (opened from the keyboard), and what the page has no view for collapsed under "More" —
// readable when opened, never stacked label lines. Screenshots go to test/artifacts/.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { addMember } from "../../src/domain/members.ts";
import { launchChromium } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

const ARTIFACTS = join(import.meta.dir, "..", "artifacts");
const EMAIL = "pat@northwind.example";
const PASSWORD = "a long enough password";
const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

let t: TestServer;
let id: number;
const contexts: BrowserContext[] = [];
const profiles: string[] = [];

beforeAll(async () => {
  t = await startTestServer();
  const report = await t.load([
    { kind: "org", slug: "acme", name: "Acme", plan: "growth" },
    {
      kind: "competitor",
      org: "acme",
      key: "lumora",
      name: "Lumora",
      website_url: "https://lumora.example",
      watch: "core",
      tracking: "active",
      reads: {
        pricing: {
          plans: [
            { name: "Hobby", price: 0, currency: "USD", features: ["1 project"] },
            {
              name: "Pro",
              price: 49,
              currency: "USD",
              period: "month",
              unit: "seat",
              features: ["Unlimited projects", "Single sign-on"],
              annual: { price: 39, amount: 468 },
            },
            { name: "Scale", price: 2000, currency: "USD", period: "year", amount: 24000, starting: true },
            { name: "Enterprise", price: null, custom: true, features: ["Audit logs"], trial_days: 14 },
          ],
          free_tier: true,
          has_enterprise: true,
          page: "https://lumora.example/pricing",
          vat_note: "Prices exclude VAT",
        },
        ai: { summary: "An assistant that answers usage questions" },
      },
    },
  ]);
  expect(report.errors).toEqual([]);
  await addMember(t.services.store, { org: "acme", email: EMAIL, role: "member", password: PASSWORD });
  id = Number(
    (await t.services.database.client.execute("SELECT id FROM competitors WHERE key = 'lumora'")).rows[0].id,
  );
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await t?.close();
  for (const p of profiles) rmSync(p, { recursive: true, force: true });
});

async function open(width: keyof typeof WIDTHS): Promise<Page> {
  const profile = mkdtempSync(join(tmpdir(), "rivals-chromium-"));
  profiles.push(profile);
  const context = await launchChromium(profile, WIDTHS[width]);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${t.base}/app/competitors/${id}`);
  await page.fill('input[name="email"]', EMAIL);
  await page.fill('input[name="password"]', PASSWORD);
  await Promise.all([page.waitForURL(/\/app\/competitors\//), page.click('form[action="/signin"] button')]);
  return page;
}

/** The table row of one plan, by its name cell. */
const row = (page: Page, plan: string) =>
  page
    .locator("#read-pricing tbody tr")
    .filter({ has: page.locator("th > span", { hasText: new RegExp(`^${plan}$`) }) });
const rowText = async (page: Page, plan: string) =>
  ((await row(page, plan).textContent()) ?? "").replace(/\s+/g, " ");

describe("the competitor page's pricing", () => {
  for (const width of ["desktop", "phone"] as const)
    test(`a table of plans at ${width} width`, async () => {
      const page = await open(width);
      expect(await page.locator("#read-pricing tbody tr").count()).toBe(4);
      expect(await rowText(page, "Hobby")).toContain("Free");
      const pro = await rowText(page, "Pro");
      for (const part of ["$49 a month", "seat", "monthly", "or $39 a month billed yearly ($468 a year)"])
        expect(pro).toContain(part);
      const scale = await rowText(page, "Scale");
      for (const part of ["From", "$2,000 a month", "$24,000 a year", "yearly"])
        expect(scale).toContain(part);
      expect(await rowText(page, "Enterprise")).toContain("Custom");
      expect(await page.locator("#read-pricing").textContent()).toContain("Free tier: yes");
      expect(await page.locator('#read-pricing a[href="https://lumora.example/pricing"]').count()).toBe(1);

      // Features on demand, opened from the keyboard.
      const feature = page.getByText("Single sign-on");
      expect(await feature.isVisible()).toBe(false);
      await row(page, "Pro").locator("summary").focus();
      await page.keyboard.press("Enter");
      expect(await feature.isVisible()).toBe(true);

      // What the page has no view for: collapsed, then readable (a label and its value), never raw keys.
      const more = page.locator("#read-pricing details.more", { hasText: "Prices exclude VAT" });
      expect(await more.locator("summary").textContent()).toBe("More (1)");
      expect(await page.getByText("Prices exclude VAT").isVisible()).toBe(false);
      await more.locator("summary").click();
      expect(await page.getByText("Prices exclude VAT").isVisible()).toBe(true);
      expect(await more.textContent()).not.toContain("vat_note");
      const planMore = page
        .locator("#read-pricing tbody tr", { hasText: "Enterprise" })
        .locator("details.more");
      expect(await planMore.locator("summary").textContent()).toBe("More (1)");
      expect(
        await page.locator("details.more", { hasText: "An assistant" }).locator("summary").textContent(),
      ).toBe("More research (1)");
      // No stacked label dump of the plans: no "Currency" or "Price" label lines anywhere on the page.
      expect(await page.locator("dt", { hasText: /^(Currency|Price|Name)$/ }).count()).toBe(0);

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, `competitor-pricing-${width}.png`), fullPage: true });
      await page.close();
    }, 60_000);
});
