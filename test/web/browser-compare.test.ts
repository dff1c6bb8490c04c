// The compare page in real Chromium at desktop and phone width: every tracked competitor beside the workspace's
// own company, each value a link to its evidence, empty where the data holds nothing, sorted by a header click,
// downloadable as CSV; no serious or critical axe-core violation; the page itself never scrolls sideways.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { addMember } from "../../src/domain/members.ts";
import { ARTIFACTS, axeViolations, browsers, pageOverflow } from "../support/browser-pages.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

const EMAIL = "pat@northwind.example";
const PASSWORD = "a long enough password";

let t: TestServer;
const b = browsers();
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestServer();
  const report = await t.load([
    {
      kind: "org",
      slug: "acme",
      name: "Acme Analytics",
      plan: "growth",
      website_url: "https://acme.example",
    },
    {
      kind: "competitor",
      org: "acme",
      key: "lumora",
      name: "Lumora",
      website_url: "https://lumora.example",
      watch: "core",
      tracking: "active",
      workspace: { relative_risk: "high", relative_opportunity: "low" },
      reads: {
        pricing: {
          plans: [
            { name: "Hobby", price: 0, currency: "USD" },
            { name: "Pro", price: 49, currency: "USD", period: "month", unit: "seat" },
            { name: "Enterprise", custom: true },
          ],
          free_tier: true,
          has_enterprise: true,
          page: "https://lumora.example/pricing",
        },
        integrations: {
          names: ["Slack", "Jira", "GitHub"],
          count: 3,
          page: "https://lumora.example/integrations",
        },
        hiring: {
          open_roles: 12,
          by_department: { Engineering: 8, Sales: 4 },
          source: "https://lumora.example/careers",
        },
        release_cadence: {
          releases_last_90_days: 5,
          last_release_at: "2026-11-10T00:00:00Z",
          median_days_between: 12,
          source: "https://api.github.com/repos/lumora/lumora-js/releases?per_page=30",
        },
        packages: {
          packages: [
            {
              name: "lumora-js",
              registry: "npm",
              latest: "5.0.0",
              weekly_downloads: 412300,
              page: "https://www.npmjs.com/package/lumora-js",
              source: "https://registry.npmjs.org/lumora-js",
            },
            {
              name: "lumora-legacy",
              registry: "npm",
              latest: "1.9.2",
              deprecated: "Use lumora-js",
              weekly_downloads: 1200,
              page: "https://www.npmjs.com/package/lumora-legacy",
              source: "https://registry.npmjs.org/lumora-legacy",
            },
          ],
        },
        apps: {
          apps: [
            {
              name: "Lumora Mobile",
              version: "3.5.0",
              rating: 4.1,
              rating_count: 2318,
              page: "https://apps.apple.com/us/app/lumora/id1234567890",
              source: "https://itunes.apple.com/lookup?id=1234567890&country=us",
            },
          ],
        },
        funding: {
          chief_executive: {
            name: "Marcus Oyelaran",
            source: "https://www.wikidata.org/wiki/Q424242",
            source_title: "Wikidata",
          },
        },
        regulation: {
          sec: {
            cik: "0001234567",
            filings: "https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0001234567",
            source: "https://www.wikidata.org/wiki/Q424242",
            source_title: "Wikidata",
          },
        },
      },
    },
    {
      kind: "competitor",
      org: "acme",
      key: "kestrel",
      name: "Kestrel",
      website_url: "https://kestrel.example",
      watch: "core",
      tracking: "active",
      workspace: { relative_risk: "medium", relative_opportunity: "high" },
      reads: {
        pricing: {
          plans: [{ name: "Starter", price: 19, currency: "USD", period: "month" }],
          free_tier: false,
          has_enterprise: false,
          page: "https://kestrel.example/pricing",
        },
        integrations: { names: ["Slack"], count: 1 },
        hiring: { open_roles: 3, source: "https://kestrel.example/jobs" },
      },
    },
    {
      kind: "competitor",
      org: "acme",
      key: "brightloop",
      name: "Brightloop",
      website_url: "https://brightloop.example",
      watch: "core",
      tracking: "active",
    },
    {
      kind: "signal",
      org: "acme",
      key: "s1",
      competitor: "lumora",
      title: "Lumora cuts the Pro plan to $49",
      category: "pricing",
      type: "price_change",
      severity: "high",
      first_seen_at: "2026-11-18T09:00:00Z",
      evidence: [{ text: "Pro $49", source_url: "https://lumora.example/pricing" }],
    },
    {
      kind: "signal",
      org: "acme",
      key: "s2",
      competitor: "lumora",
      title: "Lumora blog post",
      category: "content",
      type: "blog_post",
      severity: "low",
      first_seen_at: "2026-11-19T09:00:00Z",
    },
    {
      kind: "signal",
      org: "acme",
      key: "s3",
      competitor: "kestrel",
      title: "Kestrel grows its Sales team",
      category: "hiring",
      type: "hiring_surge",
      severity: "medium",
      first_seen_at: "2026-11-15T09:00:00Z",
    },
  ]);
  expect(report.errors).toEqual([]);
  await addMember(t.services.store, { org: "acme", email: EMAIL, role: "member", password: PASSWORD });
  for (const r of (await t.services.database.client.execute("SELECT key, id FROM competitors")).rows)
    ids[String(r.key)] = Number(r.id);
  for (const r of (await t.services.database.client.execute("SELECT key, id FROM signals")).rows)
    ids[String(r.key)] = Number(r.id);
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await b.close();
  await t?.close();
});

const rowOf = (page: Page, name: string) =>
  page.locator("table.compare tbody tr").filter({ has: page.locator("th", { hasText: name }) });
const cell = (page: Page, name: string, label: string) =>
  rowOf(page, name).locator(`td[data-label="${label}"]`);
const names = (page: Page) =>
  page.locator("table.compare tbody th[scope=row] > :first-child").allTextContents();

describe("the compare page", () => {
  for (const width of ["desktop", "phone"] as const)
    test(`every competitor side by side at ${width} width`, async () => {
      const page = await b.signedIn(t.base, "/app/compare", width, EMAIL, PASSWORD);
      expect(await names(page)).toEqual(["Acme Analytics", "Lumora", "Kestrel", "Brightloop"]);

      // Values and the evidence each links to.
      const entry = cell(page, "Lumora", "Entry price").locator("a");
      expect(await entry.textContent()).toBe("$49 a month per seat (Pro)");
      expect(await entry.getAttribute("href")).toBe("https://lumora.example/pricing");
      expect(await cell(page, "Lumora", "Plans").textContent()).toBe("3: Hobby, Pro, Enterprise");
      expect(await cell(page, "Lumora", "Free tier").textContent()).toBe("yes");
      expect(await cell(page, "Kestrel", "Enterprise tier").textContent()).toBe("no");
      expect(await cell(page, "Lumora", "Integrations").locator("a").getAttribute("href")).toBe(
        "https://lumora.example/integrations",
      );
      // No integrations page recorded: the count links to the competitor's read of it.
      expect(await cell(page, "Kestrel", "Integrations").locator("a").getAttribute("href")).toBe(
        `/app/competitors/${ids.kestrel}#read-integrations`,
      );
      expect(await cell(page, "Lumora", "Open roles").locator("a").getAttribute("href")).toBe(
        "https://lumora.example/careers",
      );
      expect(await cell(page, "Kestrel", "Roles trend").textContent()).toBe("↑ growing");
      expect(await cell(page, "Kestrel", "Roles trend").locator("a").getAttribute("href")).toBe(
        `/app/signals/${ids.s3}`,
      );
      expect(await cell(page, "Lumora", "Releases (90 days)").textContent()).toBe("5");
      // The open sources: each value linked to the record it comes from, never GitHub's API.
      const opens: [string, string, string][] = [
        ["Releases (90 days)", "5", "https://github.com/lumora/lumora-js/releases"],
        ["Latest release", "10 Nov 2026", "https://github.com/lumora/lumora-js/releases"],
        ["Release cadence", "every 12 days", "https://github.com/lumora/lumora-js/releases"],
        ["npm downloads (last week)", "412,300 (lumora-js)", "https://www.npmjs.com/package/lumora-js"],
        ["App Store rating", "4.1 of 5 (2,318 ratings)", "https://apps.apple.com/us/app/lumora/id1234567890"],
        ["Chief executive", "Marcus Oyelaran", "https://www.wikidata.org/wiki/Q424242"],
        [
          "Files with the SEC",
          "yes",
          "https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0001234567",
        ],
      ];
      for (const [label, text, href] of opens) {
        const a = cell(page, "Lumora", label).locator("a");
        expect({ label, text: await a.textContent(), href: await a.getAttribute("href") }).toEqual({
          label,
          text,
          href,
        });
      }
      // The newest medium or high signal, not the newer low one.
      const change = cell(page, "Lumora", "Last material change").locator("a");
      expect(await change.textContent()).toBe("18 Nov 2026: Lumora cuts the Pro plan to $49");
      expect(await change.getAttribute("href")).toBe(`/app/signals/${ids.s1}`);
      expect(await cell(page, "Lumora", "Risk").textContent()).toBe("high");

      // Never invented: what the data does not hold is empty (Brightloop has no research; the own company's
      // profile states no prices).
      for (const label of [
        "Entry price",
        "Plans",
        "Free tier",
        "Open roles",
        "Releases (90 days)",
        "Risk",
        ...opens.map(([label]) => label),
      ]) {
        expect(await cell(page, "Brightloop", label).textContent()).toBe("");
        expect(await cell(page, "Acme Analytics", label).textContent()).toBe("");
      }
      expect(await rowOf(page, "Acme Analytics").locator("th a").getAttribute("href")).toBe(
        "https://acme.example/",
      );

      expect(await axeViolations(page)).toEqual([]);
      expect(await pageOverflow(page)).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, `compare-${width}.png`), fullPage: true });
      // The table scrolls on its own to its last columns; the page still does not.
      await cell(page, "Lumora", "Files with the SEC").scrollIntoViewIfNeeded();
      expect(await cell(page, "Lumora", "Files with the SEC").isVisible()).toBe(true);
      expect(await pageOverflow(page)).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, `compare-${width}-scrolled.png`) });

      // Sorting: entry price high first, then low first; empty cells stay last; the own company stays on top.
      await Promise.all([
        page.waitForURL(/sort=entry_price/),
        page.getByRole("link", { name: "Entry price" }).click(),
      ]);
      expect(await names(page)).toEqual(["Acme Analytics", "Lumora", "Kestrel", "Brightloop"]);
      expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain("Entry price");
      await Promise.all([
        page.waitForURL(/dir=asc/),
        page.getByRole("link", { name: /Entry price/ }).click(),
      ]);
      expect(await names(page)).toEqual(["Acme Analytics", "Kestrel", "Lumora", "Brightloop"]);
      // The header links are reachable from the keyboard.
      await page.getByRole("link", { name: /Risk/ }).focus();
      await Promise.all([page.waitForURL(/sort=risk/), page.keyboard.press("Enter")]);
      expect(await names(page)).toEqual(["Acme Analytics", "Lumora", "Kestrel", "Brightloop"]);

      // The CSV, as downloaded from the link, in the page's order.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download CSV" }).click(),
      ]);
      const csv = await Bun.file((await download.path())!).text();
      const lines = csv.trimEnd().split("\r\n");
      expect(lines).toHaveLength(5);
      expect(lines[0]).toStartWith('"Company","Company URL","Entry price","Entry price evidence"');
      expect(lines[1]).toStartWith('"Acme Analytics (your company)","https://acme.example/","",""');
      expect(lines[2]).toContain('"$49 a month per seat (Pro)","https://lumora.example/pricing"');
      expect(lines[2]).toContain(
        `"18 Nov 2026: Lumora cuts the Pro plan to $49","${t.base}/app/signals/${ids.s1}"`,
      );
      // The open sources' values are plain text beside their evidence; none where the sources state none.
      expect(lines[0]).toContain(
        '"npm downloads (last week)","npm downloads (last week) evidence","App Store rating","App Store rating evidence","Chief executive","Chief executive evidence","Files with the SEC","Files with the SEC evidence"',
      );
      expect(lines[2]).toContain(
        '"10 Nov 2026","https://github.com/lumora/lumora-js/releases","every 12 days","https://github.com/lumora/lumora-js/releases","412,300 (lumora-js)","https://www.npmjs.com/package/lumora-js","4.1 of 5 (2,318 ratings)","https://apps.apple.com/us/app/lumora/id1234567890","Marcus Oyelaran","https://www.wikidata.org/wiki/Q424242","yes","https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0001234567"',
      );
      expect(csv).not.toContain("<");
      expect(lines[4]).toBe(
        `"Brightloop","${t.base}/app/competitors/${ids.brightloop}"${',""'.repeat(2 * 17)}`,
      );
      await page.close();
    }, 60_000);

  test("the CSV needs a member, and a formula in a value cannot run in a spreadsheet", async () => {
    const anon = await fetch(`${t.base}/app/compare.csv`, { redirect: "manual" });
    expect(anon.status).toBe(303);
    expect(anon.headers.get("location")).toStartWith("/signin");
    const { compareCsv, ownRow } = await import("../../src/web/compareModel.ts");
    const csv = compareCsv([ownRow('=HYPERLINK("x")', null)], t.base);
    expect(csv.split("\r\n")[1]).toStartWith(`"'=HYPERLINK(""x"") (your company)"`);
  });
});
