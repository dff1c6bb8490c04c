// Page extraction and the profile on the fixture web: every value expected.ts names is found, and nothing is
// invented on the site that states almost nothing.
import { describe, expect, test } from "bun:test";
import { type ExpectedSite, SITES, tallyhq } from "../../../fixtures/web/expected.ts";
import { resolveFixture } from "../../../fixtures/web/server.ts";
import { extractPage, type PageExtract } from "../../../src/engine/extract/page.ts";
import { profileFrom } from "../../../src/engine/extract/profile.ts";

function page(url: string, version = 1): PageExtract {
  const u = new URL(url);
  const res = resolveFixture(u.host, u.pathname, version);
  expect(res.status).toBe(200);
  return extractPage(new TextDecoder().decode(res.body!), url);
}

function sitePages(site: ExpectedSite): PageExtract[] {
  const urls = [`${site.origin}/`, ...Object.values(site.pages)].filter(
    (u) => resolveFixture(new URL(u).host, new URL(u).pathname, 1).status === 200,
  );
  return [...new Set(urls)].map((u) => page(u));
}

describe("extractPage on the fixture web", () => {
  for (const site of SITES) {
    describe(site.key, () => {
      const home = page(`${site.origin}/`);

      test("hero and features of the home page", () => {
        expect(home.hero).toEqual(site.hero);
        expect(home.features).toEqual(site.features);
      });

      test("every advertised feed is found on some page", () => {
        const found = new Set(sitePages(site).flatMap((p) => p.feeds.map((f) => f.url)));
        for (const f of site.feeds) expect(found).toContain(f);
        if (!site.feeds.length) expect(found.size).toBe(0);
      });

      if (site.pricing) {
        const pricing = site.pricing;
        test("pricing plans: name, price, currency, period, unit, custom, features", () => {
          const plans = page(pricing.page).plans;
          expect(plans.map((p) => p.name)).toEqual(pricing.plans.map((p) => p.name));
          for (const want of pricing.plans) {
            const got = plans.find((p) => p.name === want.name)!;
            expect({
              name: got.name,
              price: got.price,
              currency: got.currency,
              period: got.period,
              unit: got.unit,
              custom: got.custom,
            }).toEqual({
              name: want.name,
              price: want.price,
              currency: want.currency,
              period: want.period,
              unit: want.unit,
              custom: want.custom,
            });
            for (const f of want.featuresInclude) expect(got.features).toContain(f);
          }
          expect(plans.some((p) => p.price === 0)).toBe(pricing.free_tier);
          expect(plans.some((p) => p.custom === true)).toBe(pricing.has_enterprise);
        });
      }

      if (site.integrations) {
        const integrations = site.integrations;
        test("integrations from the integrations page", () => {
          expect(page(integrations.page).integrations).toEqual(integrations.names);
        });
      }

      if (site.jobs) {
        const jobs = site.jobs;
        test(
          jobs.board
            ? "careers page links its board and lists no invented jobs"
            : "jobs listed on the careers page",
          () => {
            const careers = page(jobs.careersPage);
            if (jobs.board) {
              expect(careers.jobs).toEqual([]);
              const links = [...careers.links.body, ...careers.links.nav].map((l) => l.url);
              expect(links).toContain(jobs.board.url);
            } else {
              expect(careers.jobs.map((j) => j.title)).toEqual(jobs.titles);
              const byDept: Record<string, number> = {};
              for (const j of careers.jobs) byDept[j.department!] = (byDept[j.department!] ?? 0) + 1;
              expect(byDept).toEqual(jobs.by_department);
              expect([...new Set(careers.jobs.map((j) => j.location))]).toEqual(jobs.locations);
              for (const j of careers.jobs) expect(j.url).toStartWith(`${site.origin}/careers/`);
            }
          },
        );
      }

      if (site.github) {
        const gh = site.github;
        test("the GitHub repository is linked", () => {
          const links = sitePages(site).flatMap((p) => [...p.links.footer, ...p.links.body, ...p.links.nav]);
          expect(links.map((l) => l.url)).toContain(`https://github.com/${gh.repo}`);
        });
      }

      test("profile: every stated field, nothing unstated", () => {
        const profile = profileFrom(sitePages(site));
        for (const [k, v] of Object.entries(site.profile))
          expect({ k, v: profile[k as keyof typeof profile] }).toEqual({ k, v });
        for (const k of site.absentProfile) expect({ k, v: profile[k] }).toEqual({ k, v: undefined });
        expect(profile.positioning).toBe(site.positioning);
        // spreading the profile into a competitor record copies only record fields
        expect(Object.keys({ ...profile }).sort()).toEqual(Object.keys(site.profile).sort());
        for (const k of Object.keys(site.profile)) {
          const e = profile.evidence[k as keyof typeof profile.evidence]!;
          expect(e.url.startsWith(site.origin) || e.url.includes(site.host)).toBe(true);
          expect(e.excerpt.length).toBeGreaterThan(0);
        }
      });
    });
  }
});

describe("nothing is invented", () => {
  test("the near-empty site yields no hero, plans, jobs, features, integrations, feeds or profile", () => {
    const p = page(`${tallyhq.origin}/`);
    expect(p.hero).toBeUndefined();
    expect(p.plans).toEqual([]);
    expect(p.jobs).toEqual([]);
    expect(p.features).toEqual([]);
    expect(p.integrations).toEqual([]);
    expect(p.feeds).toEqual([]);
    expect(p.jsonLd).toEqual([]);
    expect(p.meta).toEqual({ viewport: "width=device-width" });
    expect(p.title).toBe("Tally HQ");
    expect(p.text).toBe("Tally HQ\nSay hello: hello@tallyhq.example");
    const profile = profileFrom([p]);
    expect(Object.keys(profile)).toEqual([]);
    expect(profile.evidence).toEqual({});
    expect(profile.positioning).toBeUndefined();
  });

  test("pages that are not pricing, integrations or careers pages yield none of those", () => {
    for (const u of [
      "https://globex.example/about",
      "https://globex.example/changelog",
      "https://brightloop.example/about/",
    ]) {
      const p = page(u);
      expect(p.plans).toEqual([]);
      expect(p.integrations).toEqual([]);
      expect(p.jobs).toEqual([]);
    }
    // people cards on an about page are not product features
    expect(page("https://globex.example/about").features).toEqual([]);
  });
});

describe("page structure", () => {
  const home = page("https://globex.example/");

  test("banners, chat widgets, scripts and hidden elements are not content", () => {
    const all = JSON.stringify(home.blocks) + home.text;
    for (const gone of [
      "Accept all cookies",
      "We use cookies",
      "Chat with us",
      "analytics.invoked",
      "Skip to content",
      'Retention","Globex Ask","Funnels',
    ])
      expect(all).not.toContain(gone);
    expect(page("https://quantive.example/").text).not.toContain("Chat with us");
    expect(page("https://brightloop.example/").text).not.toContain("This website uses cookies");
    expect(page("https://northwind.example/").text).not.toContain("This website uses cookies");
    // the annual price is hidden behind the toggle: not read
    expect(JSON.stringify(page("https://globex.example/pricing").blocks)).not.toContain("$49");
  });

  test("nav, footer and body links are absolute, fragment-free and deduplicated", () => {
    expect(home.links.nav.map((l) => l.url)).toEqual([
      "https://globex.example/",
      "https://globex.example/product",
      "https://globex.example/pricing",
      "https://globex.example/integrations",
      "https://globex.example/customers",
      "https://globex.example/changelog",
      "https://docs.globex.example/",
      "https://globex.example/blog",
      "https://app.globex.example/login",
      "https://app.globex.example/signup",
    ]);
    expect(home.links.footer.map((l) => l.url)).toContain("https://globex.example/careers");
    expect(home.links.footer.map((l) => l.url)).toContain("https://github.com/globex-insights/globex-js");
    expect(home.links.body.map((l) => l.url)).toContain("https://globex.example/demo");
    for (const l of [...home.links.nav, ...home.links.footer, ...home.links.body]) {
      expect(l.url).not.toContain("#");
      expect(l.url).toMatch(/^https:\/\//);
    }
    expect(home.links.nav.find((l) => l.url === "https://globex.example/")!.text).toBe(
      "Globex Insights home",
    );
  });

  test("blocks keep structure: headings, sections, cards, lists, tables", () => {
    const pricing = page("https://globex.example/pricing");
    expect(pricing.blocks[0]).toEqual({
      kind: "heading",
      level: 1,
      text: "Simple pricing that grows with your team",
    });
    const team = pricing.blocks.find((b) => b.kind === "card" && b.title === "Team");
    expect(team).toMatchObject({
      kind: "card",
      items: expect.arrayContaining(["$59 per seat / month", "Globex Ask"]),
    });
    const table = pricing.blocks.find((b) => b.kind === "table");
    expect(table).toMatchObject({ section: "Compare plans" });
    expect((table as { rows: string[][] }).rows[0]).toEqual(["", "Free", "Team", "Enterprise"]);
    const security = page("https://globex.example/security");
    expect(security.blocks).toContainEqual({
      kind: "list",
      items: ["SOC 2 Type II, audited yearly", "GDPR and CCPA compliant; DPA available"],
      section: "Compliance",
    });
    const about = page("https://globex.example/about");
    expect(about.blocks).toContainEqual({
      kind: "table",
      rows: [
        ["Founded", "2016"],
        ["Headquarters", "Austin, Texas, United States"],
        ["Employees", "420"],
        ["Offices", "Austin, London"],
        ["Investors", "Harbor Peak Ventures, Lakeline Capital"],
      ],
      section: "Globex at a glance",
    });
  });

  test("meta, OpenGraph, canonical, lang, title, JSON-LD (@graph flattened), scripts", () => {
    expect(home.title).toBe("Globex Insights — Product analytics without SQL");
    expect(home.lang).toBe("en");
    expect(home.meta["og:site_name"]).toBe("Globex Insights");
    expect(home.meta["twitter:card"]).toBe("summary_large_image");
    expect(home.meta.canonical).toBe("https://globex.example/");
    expect(home.jsonLd.map((o) => o["@type"])).toEqual(["Organization", "WebSite", "SoftwareApplication"]);
    expect(home.jsonLd[0]!["@context"]).toBe("https://schema.org");
    expect(home.scripts).toContain("https://widget.intercom.io/widget/glx4k2p9");
    expect(home.scripts).toContain("https://cdn.cookielaw.org/scripttemplates/otSDKStub.js");
    expect(home.scripts).toContain("https://globex.example/_next/static/chunks/main-1a2b3c4d5e.js");
    const pricing = page("https://globex.example/pricing");
    expect(pricing.jsonLd.map((o) => o["@type"])).toEqual(["Product", "BreadcrumbList"]);
    const bl = page("https://brightloop.example/");
    expect(bl.jsonLd.map((o) => o["@type"])).toEqual([
      "WebPage",
      "WebSite",
      "Organization",
      "SoftwareApplication",
    ]);
  });

  test("article pages read through readability; text has no uppercased headings", () => {
    const post = page("https://globex.example/blog/globex-ask-general-availability");
    expect(post.text).toContain("Six months ago we opened a private beta");
    expect(post.text).not.toContain("© 2026");
    const pricing = page("https://globex.example/pricing");
    expect(pricing.text).toContain("Simple pricing that grows with your team");
    expect(pricing.text).not.toContain("SIMPLE PRICING");
  });
});
