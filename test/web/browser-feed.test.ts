// The signal feed in real Chromium at desktop and phone width: filters by category, type, severity, competitor
// and date; pin, save, rate and note from the page (the same deciders as the MCP tools: the events say who, from
// the web); the team's pinned signals on top; driven from the keyboard; no serious or critical axe-core violation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { addMember } from "../../src/domain/members.ts";
import { ARTIFACTS, axeViolations, browsers, pageOverflow } from "../support/browser-pages.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

const PASSWORD = "a long enough password";
let t: TestServer;
const b = browsers();
const ids: Record<string, number> = {};

const signal = (
  key: string,
  competitor: string,
  category: string,
  type: string,
  severity: string,
  day: number,
) => ({
  kind: "signal",
  org: "acme",
  key,
  competitor,
  title: `${competitor} ${type.replaceAll("_", " ")} ${key}`,
  category,
  type,
  severity,
  first_seen_at: `2026-11-${String(day).padStart(2, "0")}T09:00:00Z`,
  evidence: [{ text: `Evidence of ${key}`, source_url: `https://${competitor}.example/${key}` }],
});

beforeAll(async () => {
  t = await startTestServer();
  const lines: object[] = [
    { kind: "org", slug: "acme", name: "Acme", plan: "growth" },
    { kind: "org", slug: "other", name: "Other", plan: "growth" },
    { kind: "competitor", org: "acme", key: "lumora", name: "Lumora", watch: "core", tracking: "active" },
    { kind: "competitor", org: "acme", key: "kestrel", name: "Kestrel", watch: "core", tracking: "active" },
    { kind: "competitor", org: "other", key: "zed", name: "Zed", watch: "core", tracking: "active" },
    { ...signal("z1", "zed", "pricing", "price_change", "high", 10), org: "other" },
  ];
  for (let i = 1; i <= 6; i++)
    lines.push(signal(`p${i}`, "lumora", "pricing", "price_change", i % 2 ? "high" : "low", i));
  for (let i = 1; i <= 6; i++)
    lines.push(signal(`h${i}`, "kestrel", "hiring", "hiring_surge", "medium", 10 + i));
  for (let i = 1; i <= 4; i++) lines.push(signal(`r${i}`, "kestrel", "product", "release", "low", 2 + i));
  const report = await t.load(lines);
  expect(report.errors).toEqual([]);
  for (const email of ["pat", "sam"])
    await addMember(t.services.store, {
      org: "acme",
      email: `${email}@acme.example`,
      role: "member",
      password: PASSWORD,
    });
  for (const r of (await t.services.database.client.execute("SELECT key, id FROM signals")).rows)
    ids[String(r.key)] = Number(r.id);
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await b.close();
  await t?.close();
});

const titles = (page: Page, within = "section.feed") =>
  page.locator(`${within} article h3`).allTextContents();
const card = (page: Page, key: string, within = "section.feed") =>
  page.locator(`${within} article`).filter({ has: page.locator(`h3#sig-${ids[key]}`) });
const events = async (type: string) =>
  (
    await t.services.database.client.execute({
      sql: "SELECT data, metadata FROM events WHERE type = ? ORDER BY rowid",
      args: [type],
    })
  ).rows.map((r) => ({ data: JSON.parse(String(r.data)), metadata: JSON.parse(String(r.metadata ?? "{}")) }));

describe("the signal feed", () => {
  test("filters by category, type, severity, competitor and date", async () => {
    const page = await b.signedIn(t.base, "/app", "desktop", "pat@acme.example", PASSWORD);
    // Each value by its label, never the slug.
    expect(await page.locator("#f-category option").allTextContents()).toEqual([
      "Any category",
      "Hiring",
      "Pricing",
      "Product",
    ]);
    expect(await page.locator("#f-type option").allTextContents()).toEqual([
      "Any type",
      "Hiring surge",
      "Price change",
      "Release",
    ]);
    // Another workspace's signals are neither listed nor offered.
    expect(await titles(page)).not.toContain("zed price change z1");

    await page.selectOption("#f-category", "pricing");
    await Promise.all([page.waitForURL(/category=pricing/), page.click("form.filters button[type=submit]")]);
    expect((await titles(page)).sort()).toEqual(
      [1, 2, 3, 4, 5, 6].map((i) => `lumora price change p${i}`).sort(),
    );

    await page.selectOption("#f-severity", "high");
    await page.fill("#f-from", "2026-11-02");
    await page.fill("#f-to", "2026-11-05");
    await Promise.all([page.waitForURL(/severity=high/), page.click("form.filters button[type=submit]")]);
    expect(await titles(page)).toEqual(["lumora price change p5", "lumora price change p3"]);

    await page.goto(`${t.base}/app?org=acme&type=release&competitor=${ids.kestrel ?? ""}`);
    expect(await titles(page)).toEqual([
      "kestrel release r4",
      "kestrel release r3",
      "kestrel release r2",
      "kestrel release r1",
    ]);
    await page.close();
  }, 60_000);

  for (const width of ["desktop", "phone"] as const)
    test(`pin, save, rate and note from the page, by keyboard, at ${width} width`, async () => {
      const email = width === "desktop" ? "pat@acme.example" : "sam@acme.example";
      const key = width === "desktop" ? "h6" : "h5";
      const page = await b.signedIn(t.base, "/app", width, email, PASSWORD);

      // Pin from the keyboard: focus the card's Pin button and press Enter.
      const pin = card(page, key).getByRole("button", { name: /^Pin for the team/ });
      await pin.focus();
      await Promise.all([page.waitForLoadState("load"), page.keyboard.press("Enter")]);
      await page.waitForSelector("section.pinned");
      expect(await titles(page, "section.pinned")).toContain(`kestrel hiring surge ${key}`);
      expect(
        await card(page, key)
          .getByRole("button", { name: /^Pinned for the team/ })
          .getAttribute("aria-pressed"),
      ).toBe("true");
      const pinned = (await events("SignalPinSet")).at(-1)!;
      expect(pinned.data).toMatchObject({ signal_id: ids[key], pinned: true });
      expect(pinned.metadata).toMatchObject({ source: "web" });
      expect(String(pinned.metadata.actor)).toStartWith("user:");

      // Save (the reader's own list) and rate.
      await Promise.all([
        page.waitForLoadState("load"),
        card(page, key)
          .getByRole("button", { name: /^Save for me/ })
          .click(),
      ]);
      expect(
        await card(page, key)
          .getByRole("button", { name: /^Saved for me/ })
          .getAttribute("aria-pressed"),
      ).toBe("true");
      await Promise.all([
        page.waitForLoadState("load"),
        card(page, key)
          .getByRole("button", { name: /^Not useful/ })
          .click(),
      ]);
      expect(
        await card(page, key)
          .getByRole("button", { name: /^Not useful/ })
          .getAttribute("aria-pressed"),
      ).toBe("true");
      expect((await events("SignalRated")).at(-1)!.data).toMatchObject({
        signal_id: ids[key],
        useful: false,
      });
      await page.check("#f-saved");
      await Promise.all([page.waitForURL(/saved=1/), page.click("form.filters button[type=submit]")]);
      expect(await titles(page)).toEqual([`kestrel hiring surge ${key}`]);

      // A note, typed on the signal page, shown as the team's note and counted on the card.
      await page.goto(`${t.base}/app/signals/${ids[key]}`);
      await page.locator("#note-body").focus();
      await page.keyboard.type("Ask the prospect about their Sales hires.");
      await Promise.all([
        page.waitForLoadState("load"),
        page.getByRole("button", { name: "Add note" }).click(),
      ]);
      expect(await page.locator("ol.notes li p.note").allTextContents()).toContain(
        "Ask the prospect about their Sales hires.",
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(await pageOverflow(page)).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, `signal-${width}.png`), fullPage: true });

      await page.goto(`${t.base}/app`);
      expect(
        await card(page, key)
          .getByRole("link", { name: /^1 note:/ })
          .textContent(),
      ).toBe("1 note");
      expect(await axeViolations(page)).toEqual([]);
      expect(await pageOverflow(page)).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, `feed-${width}.png`), fullPage: true });
      await page.close();
    }, 60_000);

  test("refusals: no token, another workspace's signal, a bad value, a foreign return address", async () => {
    const page = await b.signedIn(t.base, "/app", "desktop", "pat@acme.example", PASSWORD);
    const csrf = await page.locator('form[action$="/pin"] input[name=csrf]').first().inputValue();
    const post = (path: string, form: Record<string, string>) =>
      page.request.post(`${t.base}${path}`, { form, maxRedirects: 0 });
    expect((await post(`/app/signals/${ids.p1}/pin`, { org: "acme", pinned: "1" })).status()).toBe(403);
    expect((await post(`/app/signals/${ids.z1}/pin`, { csrf, org: "acme", pinned: "1" })).status()).toBe(404);
    expect((await post(`/app/signals/${ids.p1}/pin`, { csrf, org: "other", pinned: "1" })).status()).toBe(
      404,
    );
    expect((await post(`/app/signals/${ids.p1}/pin`, { csrf, org: "acme", pinned: "yes" })).status()).toBe(
      400,
    );
    expect((await post(`/app/signals/${ids.p1}/notes`, { csrf, org: "acme", body: "   " })).status()).toBe(
      400,
    );
    // The form's way back is judged after normalisation, by the same check as sign-in's next.
    for (const back of [
      "//evil.example/app",
      "/app/..//evil.example/x",
      "/app/a/../..//evil.example/x",
      "/app/%2e%2e//evil.example",
    ]) {
      const away = await post(`/app/signals/${ids.p1}/save`, { csrf, org: "acme", saved: "1", back });
      expect(away.status()).toBe(303);
      expect(away.headers().location).toBe(`/app/signals/${ids.p1}?org=acme`);
    }
    await page.close();
  }, 60_000);
});
