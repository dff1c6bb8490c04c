// Discovery's pure parts (classification, same-site, selection bounds) and the statement readers (funding,
// ownership, revenue, certifications): what they take from a page and what they refuse to guess.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { extractPage } from "../../../src/engine/extract/page.ts";
import { draftFrom } from "../../../src/engine/research/positioning.ts";
import {
  certifications,
  fundingRounds,
  ownershipSentence,
  revenueSentence,
} from "../../../src/engine/research/statements.ts";
import {
  type DiscoveredPage,
  MAX_PAGES,
  pageKindOf,
  sameSite,
  selectPages,
} from "../../../src/engine/sources/discover.ts";

describe("pageKindOf", () => {
  test.each([
    ["https://x.com/pricing", "pricing"],
    ["https://x.com/en-us/pricing/", "pricing"],
    ["https://x.com/plans", "pricing"],
    ["https://x.com/company/careers", "careers"],
    ["https://careers.x.com/", "careers"],
    ["https://x.com/blog/pricing-update", "blog"],
    ["https://x.com/product/pricing", "pricing"],
    ["https://x.com/features/funnels", "product"],
    ["https://docs.x.com/", "docs"],
    ["https://x.com/docs/api/changelog", "changelog"],
    ["https://x.com/release-notes", "changelog"],
    ["https://x.com/legal/privacy", "legal"],
    ["https://x.com/trust", "security"],
    ["https://x.com/case-studies", "customers"],
    ["https://x.com/marketplace", "integrations"],
  ])("%s → %s", (url, kind) => expect(pageKindOf(url)).toBe(kind as never));

  test("link text names a kind the path does not; assets and unknown pages are not pages of a kind", () => {
    expect(pageKindOf("https://x.com/p/123", "See plans")).toBe("pricing");
    expect(pageKindOf("https://x.com/logo.png")).toBeUndefined();
    expect(pageKindOf("https://x.com/sitemap.xml")).toBeUndefined();
    expect(pageKindOf("https://x.com/some-landing-page")).toBeUndefined();
    expect(pageKindOf("https://status.x.com/")).toBeUndefined();
  });
});

test("same site is the registrable domain", () => {
  expect(sameSite("https://docs.globex.example/a", "https://globex.example/")).toBe(true);
  expect(sameSite("https://www.acme.co.uk/", "https://shop.acme.co.uk/")).toBe(true);
  expect(sameSite("https://acme.co.uk/", "https://other.co.uk/")).toBe(false);
  expect(sameSite("https://jobs.lever.co/acme", "https://acme.com/")).toBe(false);
});

test("selection: links before sitemap before guesses, shallow first, bounded per kind and in total", () => {
  const site = new URL("https://x.com/");
  const c: DiscoveredPage[] = [
    { url: "https://x.com/pricing", kind: "pricing", via: "standard" },
    { url: "https://x.com/plans", kind: "pricing", via: "nav" },
    { url: "https://x.com/blog/a-post", kind: "blog", via: "sitemap" },
    { url: "https://x.com/blog", kind: "blog", via: "footer" },
    { url: "https://x.com/", kind: "about", via: "nav" },
  ];
  for (let i = 0; i < 40; i++)
    c.push({ url: `https://x.com/features/f${i}`, kind: "product", via: "sitemap" });
  const picked = selectPages(c, site);
  expect(picked.length).toBeLessThanOrEqual(MAX_PAGES);
  expect(picked.filter((p) => p.kind === "blog").map((p) => p.url)).toEqual(["https://x.com/blog"]);
  expect(picked.filter((p) => p.kind === "pricing").map((p) => p.url)).toEqual([
    "https://x.com/plans",
    "https://x.com/pricing",
  ]);
  expect(picked.filter((p) => p.kind === "product")).toHaveLength(5);
  expect(picked.some((p) => p.url === "https://x.com/")).toBe(false);
});

describe("statements", () => {
  const page = (text: string) => [{ url: "https://x.com/about", text }];
  test("a round the company states about itself, with amount and date", () => {
    const r = fundingRounds(page("In March 2024 we raised a $40 million Series B led by Example Ventures."));
    expect(r).toEqual([
      {
        round: "Series B",
        amount_text: "$40 million",
        amount: 40_000_000,
        currency: "USD",
        date: "2024-03",
        text: "In March 2024 we raised a $40 million Series B led by Example Ventures.",
        source: "https://x.com/about",
      },
    ]);
    expect(fundingRounds(page("Globex closed a €12M seed round."), ["Globex"])[0]).toMatchObject({
      round: "Seed",
      amount: 12_000_000,
      currency: "EUR",
    });
  });
  test("nothing from a customer's round, a plain mention or an unstated amount", () => {
    expect(fundingRounds(page("Our customer Initech raised a Series A last year."), ["Globex"])).toEqual([]);
    expect(fundingRounds(page("Initech, a customer, raised a Series A."), ["Globex"])).toEqual([]);
    expect(fundingRounds(page("Series A startups love our product."), ["Globex"])).toEqual([]);
  });
  test("ownership and revenue only when a sentence says so", () => {
    expect(ownershipSentence(page("Quantive is backed by Northpoint Capital."))?.text).toBe(
      "Quantive is backed by Northpoint Capital.",
    );
    expect(ownershipSentence(page("We build analytics."))).toBeUndefined();
    expect(revenueSentence(page("We passed $25M in ARR this year."))?.text).toBe(
      "We passed $25M in ARR this year.",
    );
    expect(revenueSentence(page("Plans start at $25 per month."))).toBeUndefined();
  });
  test("certifications: SOC 2 Type II hides plain SOC 2", () => {
    expect(
      certifications(
        page("We are SOC 2 Type II audited and ISO 27001 certified. SOC 2 reports on request."),
      ).map((c) => c.name),
    ).toEqual(["SOC 2 Type II", "ISO 27001"]);
  });
});

describe("draft_positioning's reading of a home page", () => {
  const page = (site: string) =>
    extractPage(
      readFileSync(`${import.meta.dir}/../../../fixtures/web/sites/${site}.example/v1/index.html`, "utf8"),
      `https://${site}.example/`,
    );
  test("value propositions from the hero and benefit headings; differentiators from a 'why pick us' section", () => {
    const d = draftFrom(page("brightloop"), []);
    expect(d.value_propositions.slice(0, 2)).toEqual([
      "See exactly where users struggle",
      "Session replay, heatmaps and funnels in one privacy-first tool for web and mobile apps.",
    ]);
    expect(d.value_propositions).not.toContain("Why teams pick Brightloop");
    expect(d.differentiators).toEqual(expect.arrayContaining(["Session replay", "Privacy controls"]));
    expect(d.differentiators).not.toContain("Loved by 4,000 teams");
    expect(d.exclusions).toEqual([]);
  });
});
