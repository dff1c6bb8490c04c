// Real Chromium (the build shipped in the npm package @sparticuz/chromium, see test/support/browser.ts; driven by
// playwright-core): sign in through the sign-in page, create an
// API key on the integrations page, use it, revoke it in the page and see 401; open a signal's `url` from the
// API. Screenshots of the main pages at phone (390×844) and desktop (1280×900) size go to test/artifacts/.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { addMember } from "../../src/domain/members.ts";
import { launchChromium } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

const ARTIFACTS = join(import.meta.dir, "..", "artifacts");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const EMAIL = "ann@northwind.example";
const PASSWORD = "a long enough password";

let t: TestServer;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  t = await startTestServer();
  const demo = await Bun.file(join(import.meta.dir, "..", "..", "examples", "demo.ndjson")).text();
  const report = await t.load(
    demo
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l)),
  );
  expect(report.errors).toEqual([]);
  await addMember(t.services.store, { org: "demo", email: EMAIL, role: "admin", password: PASSWORD });
  mkdirSync(ARTIFACTS, { recursive: true });
  profile = mkdtempSync(join(tmpdir(), "rivals-chromium-"));
  context = await launchChromium(profile, PHONE);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await t?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function shot(page: Page, name: string) {
  // Nothing wider than the screen except tables inside their own scroll box.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect({ page: name, overflow }).toEqual({ page: name, overflow: 0 });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function apiStatus(token: string, path = "/api/v1/competitors") {
  return (await t.get(path, { authorization: `Bearer ${token}` })).status;
}

describe("in a real browser", () => {
  test("sign in, create an API key, use it, revoke it, see 401", async () => {
    const page = await context.newPage();
    await page.goto(`${t.base}/app/settings/integrations`);
    // Not signed in: sent to the sign-in page, which brings us back.
    expect(new URL(page.url()).pathname).toBe("/signin");
    await shot(page, "signin-phone");
    await page.fill('input[name="email"]', EMAIL);
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([
      page.waitForURL(/\/app\/settings\/integrations/),
      page.click('form[action="/signin"] button'),
    ]);
    await shot(page, "integrations-phone");

    await page.fill("#key-name", "Browser key");
    await page.uncheck('input[name="scopes"][value="spend"]');
    await Promise.all([
      page.waitForLoadState("load"),
      page.click('form[action$="/keys"] button[type="submit"]'),
    ]);
    const token = await page.inputValue("#new-token");
    expect(token).toMatch(/^rvl_[0-9A-Za-z]{49}$/);
    await shot(page, "integrations-key-created-phone");

    expect(await apiStatus(token)).toBe(200);

    // The list shows the key (prefix, scopes); the token itself is gone after a reload.
    await page.goto(`${t.base}/app/settings/integrations`);
    expect(await page.content()).not.toContain(token);
    const row = page.locator("tr", { hasText: "Browser key" });
    expect(await row.textContent()).toContain(token.slice(0, 12));
    expect(await row.textContent()).toContain("read, write");

    await Promise.all([
      page.waitForURL(/revoked=/),
      row.getByRole("button", { name: "Revoke Browser key" }).click(),
    ]);
    expect(await page.textContent("main")).toContain("was revoked");
    await shot(page, "integrations-revoked-phone");
    expect(await apiStatus(token)).toBe(401);
    await page.close();
  }, 60_000);

  test("a signal's url from the API opens the signal page", async () => {
    const key = await t.key("demo");
    const body = (await (
      await t.get("/api/v1/signals?per_page=1", { authorization: `Bearer ${key}` })
    ).json()) as {
      data: { title: string; url: string; evidence: unknown[] }[];
    };
    const signal = body.data[0];
    expect(signal.url.startsWith(`${t.base}/app/signals/`)).toBe(true);
    const page = await context.newPage();
    const res = await page.goto(signal.url);
    expect(res?.status()).toBe(200);
    expect(await page.textContent("h1")).toBe(signal.title);
    expect(await page.locator("ol.evidence li").count()).toBe(signal.evidence.length);
    await shot(page, "signal-phone");
    await page.setViewportSize(DESKTOP);
    await shot(page, "signal-desktop");
    await page.close();
  }, 60_000);

  test("the main pages read on a phone and on a desktop", async () => {
    const key = await t.key("demo");
    const first = async (path: string) =>
      ((await (await t.get(path, { authorization: `Bearer ${key}` })).json()) as { data: { url: string }[] })
        .data[0].url;
    const pages: Record<string, string> = {
      landing: "/",
      pricing: "/pricing",
      developers: "/developers",
      "free-brief": "/free-brief",
      signup: "/signup",
      briefs: "/briefs",
      guides: "/guides",
      feed: "/app",
      competitor: new URL(await first("/api/v1/competitors")).pathname,
      digest: new URL(await first("/api/v1/digests")).pathname,
      battlecard: new URL(await first("/api/v1/battlecards")).pathname,
    };
    const page = await context.newPage();
    for (const [name, path] of Object.entries(pages)) {
      for (const [size, viewport] of [
        ["phone", PHONE],
        ["desktop", DESKTOP],
      ] as const) {
        await page.setViewportSize(viewport);
        const res = await page.goto(t.base + path);
        expect({ name, status: res?.status() }).toEqual({ name, status: 200 });
        await shot(page, `${name}-${size}`);
      }
    }
    await page.close();
  }, 120_000);
});
