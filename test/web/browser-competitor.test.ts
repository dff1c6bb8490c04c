// A competitor's page in real Chromium at desktop and phone width: the header (category, website, watch, risk and
// opportunity, "checked 2 h ago"), positioning as a quote with its source, hiring by department with its trend,
// the tech stack as grouped chips, integrations as a count and a searchable list, release cadence, security and
// compliance, funding and ownership — each linked to the page it was read from — and the timeline of its open
// and closed signals, filtered by category; no serious or critical axe-core violation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { addMember } from "../../src/domain/members.ts";
import { snapshotStoreFor } from "../../src/engine/snapshots/index.ts";
import { ARTIFACTS, axeViolations, browsers, pageOverflow } from "../support/browser-pages.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

const EMAIL = "pat@acme.example";
const PASSWORD = "a long enough password";
let t: TestServer;
const b = browsers();
const ids: Record<string, number> = {};
const INTEGRATIONS = [
  "Slack",
  "Jira",
  "GitHub",
  "GitLab",
  "Salesforce",
  "HubSpot",
  "Zendesk",
  "Intercom",
  "Segment",
  "Snowflake",
  "BigQuery",
  "Looker",
  "Tableau",
  "Notion",
];

beforeAll(async () => {
  t = await startTestServer();
  const report = await t.load([
    { kind: "org", slug: "acme", name: "Acme", plan: "growth" },
    {
      kind: "competitor",
      org: "acme",
      key: "lumora",
      name: "Lumora",
      category: "Product analytics",
      website_url: "https://lumora.example",
      watch: "core",
      tracking: "active",
      ownership: { type: "private" },
      workspace: { relative_risk: "high", relative_opportunity: "medium" },
      reads: {
        positioning: "Analytics your whole team can read",
        hiring: {
          open_roles: 12,
          by_department: { Engineering: 7, Sales: 3, Design: 2 },
          locations: ["Berlin", "Remote (EU)"],
          source: "https://lumora.example/careers",
        },
        tech_stack: {
          technologies: [
            { name: "Stripe", category: "payments", page: "https://lumora.example/pricing" },
            { name: "Segment", category: "analytics", page: "https://lumora.example/" },
            { name: "Google Analytics", category: "analytics", page: "https://lumora.example/" },
          ],
        },
        integrations: {
          names: INTEGRATIONS,
          count: INTEGRATIONS.length,
          page: "https://lumora.example/integrations",
        },
        release_cadence: {
          releases_last_90_days: 9,
          median_days_between: 7,
          last_release_at: "2026-11-12T00:00:00Z",
          source: "https://lumora.example/changelog",
        },
        regulation: {
          certifications: ["SOC 2 Type II", "ISO 27001"],
          page: "https://lumora.example/security",
          security_txt: {
            contact: ["mailto:security@lumora.example"],
            source: "https://lumora.example/.well-known/security.txt",
          },
        },
        funding: {
          rounds: [
            {
              text: "Lumora raised a $20M Series A led by Northwind Ventures.",
              date: "2025-06-01",
              source: "https://lumora.example/blog/series-a",
            },
          ],
          sources: ["https://lumora.example/blog/series-a"],
        },
      },
    },
    {
      kind: "signal",
      org: "acme",
      key: "s1",
      competitor: "lumora",
      title: "Lumora grows engineering",
      category: "hiring",
      type: "hiring_surge",
      severity: "medium",
      first_seen_at: "2026-11-18T09:00:00Z",
    },
    {
      kind: "signal",
      org: "acme",
      key: "s2",
      competitor: "lumora",
      title: "Lumora cuts the Pro price",
      category: "pricing",
      type: "price_change",
      severity: "high",
      first_seen_at: "2026-11-10T09:00:00Z",
    },
    {
      kind: "signal",
      org: "acme",
      key: "s3",
      competitor: "lumora",
      title: "Lumora dropped its Starter plan",
      category: "pricing",
      type: "plan_removed",
      severity: "medium",
      status: "closed",
      first_seen_at: "2026-10-01T09:00:00Z",
    },
  ]);
  expect(report.errors).toEqual([]);
  await addMember(t.services.store, { org: "acme", email: EMAIL, role: "member", password: PASSWORD });
  for (const r of (
    await t.services.database.client.execute(
      "SELECT key, id FROM competitors UNION ALL SELECT key, id FROM signals",
    )
  ).rows)
    ids[String(r.key)] = Number(r.id);
  const org = Number(
    (await t.services.database.client.execute("SELECT id FROM orgs WHERE slug = 'acme'")).rows[0].id,
  );
  // The monitoring cycle's bookkeeping of a check two hours before the test clock's now.
  const ref = {
    orgId: org,
    competitorId: ids.lumora,
    url: "https://lumora.example/pricing",
    kind: "page" as const,
  };
  const store = snapshotStoreFor(t.services);
  await store.recordFailure(ref, "timeout", new Date("2026-11-20T08:00:00Z"));
  await store.recordCheck(ref, { at: new Date("2026-11-20T10:00:00Z") });
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await b.close();
  await t?.close();
});

const href = (page: import("playwright-core").Page, sel: string) =>
  page.locator(sel).first().getAttribute("href");

describe("the competitor page", () => {
  for (const width of ["desktop", "phone"] as const)
    test(`a dossier at ${width} width`, async () => {
      const page = await b.signedIn(t.base, `/app/competitors/${ids.lumora}`, width, EMAIL, PASSWORD);
      const head = page.locator("header.dossier-head");
      expect(await head.locator("h1").textContent()).toBe("Lumora");
      const headText = (await head.textContent())!.replace(/\s+/g, " ");
      for (const part of [
        "Product analytics",
        "https://lumora.example",
        "Watch: core",
        "Risk: high",
        "Opportunity: medium",
        "Checked 2 h ago",
      ])
        expect(headText).toContain(part);

      // The timeline: open and closed, newest first; then one category.
      const items = page.locator("ol.timeline li");
      expect(await items.locator("a").allTextContents()).toEqual([
        "Lumora grows engineering",
        "Lumora cuts the Pro price",
        "Lumora dropped its Starter plan",
      ]);
      expect(await items.nth(2).getAttribute("class")).toBe("closed");
      await page.locator(".chips-nav").getByRole("link", { name: "Pricing" }).click();
      await page.waitForSelector('.chips-nav a[aria-current="page"]:text-is("Pricing")');
      expect(page.url()).toContain("tcat=pricing");
      expect(await page.locator("ol.timeline li a").allTextContents()).toEqual([
        "Lumora cuts the Pro price",
        "Lumora dropped its Starter plan",
      ]);
      expect(await page.locator('.chips-nav a[aria-current="page"]').textContent()).toBe("Pricing");

      expect(await page.locator("figure.positioning blockquote").textContent()).toBe(
        "Analytics your whole team can read",
      );
      expect(await href(page, "figure.positioning a")).toBe("https://lumora.example/");

      const hiring = page.locator("#read-hiring");
      expect(await hiring.locator("strong").textContent()).toBe("12 open roles");
      expect(await hiring.locator("table.bars th").allTextContents()).toEqual([
        "Engineering",
        "Sales",
        "Design",
      ]);
      expect(await href(page, "#read-hiring a.evidence")).toBe("https://lumora.example/careers");
      expect(await hiring.getByRole("link", { name: "↑ growing" }).getAttribute("href")).toBe(
        `/app/signals/${ids.s1}`,
      );

      expect(await page.locator("#read-tech_stack dt").allTextContents()).toEqual(["Analytics", "Payments"]);
      expect(await page.locator("#read-tech_stack dd").first().locator(".chip").allTextContents()).toEqual([
        "Segment",
        "Google Analytics",
      ]);

      // Integrations: the count and a list the search box narrows.
      expect(await page.locator("#read-integrations strong").textContent()).toBe("14 integrations");
      await page.locator("#read-integrations summary").click();
      await page.fill("#integ-filter", "git");
      expect(await page.locator("#integ-list li:visible").allTextContents()).toEqual(["GitHub", "GitLab"]);

      expect((await page.locator("#read-release_cadence").textContent())!.replace(/\s+/g, " ")).toContain(
        "9 releases in 90 days, typically 7 days apart",
      );
      expect(await href(page, "#read-release_cadence a.evidence")).toBe("https://lumora.example/changelog");
      expect(await page.locator("#read-regulation .chip").allTextContents()).toEqual([
        "SOC 2 Type II",
        "ISO 27001",
      ]);
      expect(await href(page, "#read-regulation a.evidence")).toBe("https://lumora.example/security");
      expect(await page.locator("#read-funding q").first().textContent()).toBe(
        "Lumora raised a $20M Series A led by Northwind Ventures.",
      );
      expect(await href(page, "#read-funding a.evidence")).toBe("https://lumora.example/blog/series-a");
      expect(await page.locator("#read-funding").textContent()).toContain("Ownership: private");

      expect(await axeViolations(page)).toEqual([]);
      expect(await pageOverflow(page)).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, `competitor-${width}.png`), fullPage: true });

      await page.close();
    }, 60_000);
});
