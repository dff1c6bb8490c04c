// Extraction on broken, partial and unusual HTML: it never throws, and reads the common real-world layouts.
import { describe, expect, test } from "bun:test";
import { extractPage } from "../../../src/engine/extract/page.ts";
import { readPrice } from "../../../src/engine/extract/pricing.ts";
import { profileFrom } from "../../../src/engine/extract/profile.ts";

const URL_ = "https://acme.example/pricing";

describe("broken and partial HTML", () => {
  test("fragments, empty input, unclosed tags, garbage never throw", () => {
    for (const html of [
      "",
      "   ",
      "<p>hello",
      "<title>Only a title</title>",
      "<!doctype html><title>t</title><p>x",
      "<html><p>x</p></html>",
      "<div><div><div><span>deep</span>",
      "<<<>>>&&&;;;",
      "<table><tr><td>a<td>b<tr><td>c</table>",
      '<a href="javascript:alert(1)">x</a><a href="http://[::1">bad</a><a href="mailto:a@b.c">m</a>',
      "\uFEFF<html><body><h1>BOM</h1></body></html>",
      `<html><body>${"<div>".repeat(2000)}deep${"</div>".repeat(2000)}</body></html>`,
    ]) {
      const p = extractPage(html, "https://acme.example/");
      expect(p.url).toBe("https://acme.example/");
      expect(Array.isArray(p.blocks)).toBe(true);
    }
    expect(extractPage("<p>hello", "https://acme.example/").text).toBe("hello");
    expect(extractPage("<title>Only a title</title>", "https://acme.example/").title).toBe("Only a title");
    const t = extractPage("<table><tr><td>a<td>b<tr><td>c</table>", "https://acme.example/");
    expect(t.blocks).toEqual([{ kind: "table", rows: [["a", "b"], ["c"]] }]);
    const links = extractPage(
      '<a href="javascript:alert(1)">x</a><a href="http://[::1">bad</a><a href="/ok#top">ok</a>',
      "https://acme.example/a/",
    );
    expect(links.links.body).toEqual([{ url: "https://acme.example/ok", text: "ok" }]);
  });

  test("nesting deeper than any stack: still an extract, with the text", () => {
    const d = 20000;
    const p = extractPage(
      `<html><body>${"<div>".repeat(d)}deep${"</div>".repeat(d)}</body></html>`,
      "https://acme.example/",
    );
    expect(p.text).toContain("deep");
  });

  test("bad JSON-LD is repaired or skipped; @graph and arrays flattened", () => {
    const html = `<script type="application/ld+json">{"@type":"Organization","name":"A",}</script>
<script type="application/ld+json">{"@type":"Organization","description":"line one
line two"}</script>
<script type="application/ld+json">not json at all</script>
<script type="application/ld+json">[{"@type":"Product","name":"P"},{"@context":"https://schema.org","@graph":[{"@type":"WebSite"},{"@type":"Person"}]}]</script>`;
    const p = extractPage(html, "https://acme.example/");
    expect(p.jsonLd.map((o) => o["@type"])).toEqual([
      "Organization",
      "Organization",
      "Product",
      "WebSite",
      "Person",
    ]);
    expect(p.jsonLd[1]!.description).toBe("line one line two");
    expect(p.jsonLd[3]!["@context"]).toBe("https://schema.org");
  });

  test("<base href> and relative links; link text from aria-label or alt", () => {
    const p = extractPage(
      '<base href="https://cdn.acme.example/site/"><nav><a href="pricing"><img alt="Pricing icon"></a><a href="../x" aria-label="X page"></a></nav>',
      "https://acme.example/",
    );
    expect(p.links.nav).toEqual([
      { url: "https://cdn.acme.example/site/pricing", text: "Pricing icon" },
      { url: "https://cdn.acme.example/x", text: "X page" },
    ]);
  });

  test("regions: an article's footer and a card header are body; the site footer and header are not", () => {
    const p = extractPage(
      `<div id="header"><a href="/pricing">Pricing</a></div>
<main><article><p>Post</p><footer><a href="/tags/x">tag x</a></footer></article>
<div class="card"><div class="card-header"><a href="/more">More</a></div></div></main>
<div class="site-footer"><a href="/privacy">Privacy</a></div>`,
      "https://acme.example/",
    );
    expect(p.links.nav.map((l) => l.url)).toEqual(["https://acme.example/pricing"]);
    expect(p.links.body.map((l) => l.url)).toEqual([
      "https://acme.example/tags/x",
      "https://acme.example/more",
    ]);
    expect(p.links.footer.map((l) => l.url)).toEqual(["https://acme.example/privacy"]);
  });

  test("a wrapper with a consent-ish class is not dropped; Tailwind responsive hidden stays", () => {
    const p = extractPage(
      '<body class="cookie-consent-active"><div class="cookie-wrap"><main><h1>Real headline</h1><p class="hidden md:block">Visible on desktop.</p></main></div></body>',
      "https://acme.example/",
    );
    expect(p.hero).toEqual({ headline: "Real headline", subheadline: "Visible on desktop." });
  });
});

describe("prices", () => {
  test("readPrice follows the documented rule", () => {
    const r = (s: string) => {
      const x = readPrice(s);
      return (
        x && { amount: x.amount, currency: x.currency, period: x.period, unit: x.unit, custom: x.custom }
      );
    };
    expect(r("$59 per seat / month")).toEqual({
      amount: 59,
      currency: "USD",
      period: "month",
      unit: "seat",
      custom: undefined,
    });
    expect(r("$49/mo billed annually")).toEqual({
      amount: 49,
      currency: "USD",
      period: "year",
      unit: undefined,
      custom: undefined,
    });
    expect(r("US$24,000 / year Billed annually")).toMatchObject({
      amount: 2000,
      currency: "USD",
      period: "year",
    });
    expect(r("€29,99 /Monat")).toMatchObject({ amount: 29.99, currency: "EUR" });
    expect(r("29 € per user per month")).toMatchObject({
      amount: 29,
      currency: "EUR",
      period: "month",
      unit: "user",
    });
    expect(r("£1,200 per annum")).toMatchObject({ amount: 100, currency: "GBP", period: "year" });
    expect(r("CA$99/mo")).toMatchObject({ amount: 99, currency: "CAD", period: "month" });
    expect(r("$299 one-time")).toMatchObject({ amount: 299, period: "one_time" });
    expect(r("$0 forever")).toMatchObject({ amount: 0, currency: "USD", period: undefined });
    expect(r("Free")).toMatchObject({ amount: 0 });
    expect(r("Contact sales")).toMatchObject({ amount: null, custom: true });
    expect(r("Let's talk")).toMatchObject({ amount: null, custom: true });
    expect(r("10k sessions")).toBeNull();
    expect(r("$0.002 per event")).toBeNull();
    expect(r("Free 14-day trial")).toBeNull();
    expect(r("29,99 €/Monat")).toMatchObject({ amount: 29.99, currency: "EUR", period: "month" });
    expect(r("$19 10 projects")).toMatchObject({ amount: 19 });
    expect(r("1\u00A0200 € per year")).toMatchObject({ amount: 100, currency: "EUR", period: "year" });
    expect(r("Everything you need to grow")).toBeNull();
  });

  test("plan cards with a struck-through old price, badges, and annual-only cards", () => {
    const html = `<main><h1>Pricing</h1><div class="tiers">
<div class="tier"><span class="badge">Most popular</span><h3>Pro</h3><p><del>$39</del> <strong>$29</strong>/user/month</p><ul><li>All of Basic</li><li>SSO</li></ul><a href="/s">Get started</a></div>
<div class="tier"><h3>Basic</h3><p>$9/user/month</p><ul><li>Core features</li></ul></div>
<div class="tier"><h3>Enterprise</h3><p>Talk to sales</p><ul><li>Audit log</li></ul></div>
</div></main>`;
    const p = extractPage(html, URL_);
    expect(p.plans).toEqual([
      {
        name: "Pro",
        price: 29,
        currency: "USD",
        period: "month",
        unit: "user",
        regular: 39,
        features: ["All of Basic", "SSO"],
      },
      {
        name: "Basic",
        price: 9,
        currency: "USD",
        period: "month",
        unit: "user",
        features: ["Core features"],
      },
      { name: "Enterprise", price: null, custom: true, features: ["Audit log"] },
    ]);
  });

  test("a comparison table with plans down the first column", () => {
    const html = `<main><h1>Plans</h1><table><tr><th>Plan</th><th>Price</th><th>Projects</th><th>SSO</th></tr>
<tr><td>Hobby</td><td>Free</td><td>3</td><td>—</td></tr>
<tr><td>Team</td><td>$20 / month</td><td>Unlimited</td><td>✓</td></tr></table></main>`;
    const p = extractPage(html, URL_);
    expect(p.plans).toEqual([
      { name: "Hobby", price: 0, features: ["Projects: 3"] },
      { name: "Team", price: 20, currency: "USD", period: "month", features: ["Projects: Unlimited", "SSO"] },
    ]);
  });

  test("no plans from a page whose cards carry no prices", () => {
    const html = `<main><h1>Why us</h1><div class="g"><div class="c"><h3>Fast</h3><p>Really fast.</p></div><div class="c"><h3>Safe</h3><p>Very safe.</p></div></div></main>`;
    const p = extractPage(html, "https://acme.example/");
    expect(p.plans).toEqual([]);
    expect(p.features).toEqual(["Fast", "Safe"]);
  });
});

describe("profile", () => {
  test("ranges, approximations and unrelated numbers are not a company size; sentences must say it of the company", () => {
    const page = extractPage(
      `<script type="application/ld+json">{"@type":"Organization","name":"Acme","url":"https://acme.example","numberOfEmployees":{"@type":"QuantitativeValue","minValue":51,"maxValue":200}}</script>
<main><h1>Acme</h1><p>Used by 10,000 people every day. We are over 200 people strong.</p><p>We help publicly traded companies.</p></main>`,
      "https://acme.example/",
    );
    const p = profileFrom([page]);
    expect(p.company_size).toBeUndefined();
    expect(p.ownership).toBeUndefined();
    expect(p.company_type).toBeUndefined();
  });

  test("ticker and parent organisation from JSON-LD", () => {
    const page = extractPage(
      `<script type="application/ld+json">{"@type":"Corporation","name":"Big","url":"https://big.example","tickerSymbol":"NYSE:BIG","parentOrganization":{"@type":"Organization","name":"Bigger Holdings"},"address":{"@type":"PostalAddress","addressLocality":"Paris","addressCountry":"FR"}}</script>`,
      "https://big.example/",
    );
    const p = profileFrom([page]);
    expect(p.ownership).toEqual({ parent_company_name: "Bigger Holdings", public: true, ticker: "NYSE:BIG" });
    expect(p.company_type).toBe("Public company");
    expect(p.headquarters).toEqual({ city: "Paris", country: "France" });
    expect(p.evidence.ownership!.url).toBe("https://big.example/");
  });
});

describe("more pricing layouts", () => {
  const plans = (html: string) =>
    extractPage(html, URL_).plans.map((p) => ({
      name: p.name,
      price: p.price,
      period: p.period,
      unit: p.unit,
      custom: p.custom,
    }));

  test("utility-class cards: no headings, no title classes", () => {
    const html = `<main><h1>Pricing</h1><div class="grid grid-cols-3 gap-8">
<div class="rounded-lg border p-8"><p class="text-lg font-semibold">Starter</p><p class="mt-4"><span class="text-4xl font-bold">$19</span><span class="text-sm">/month</span></p><ul><li>5 projects</li></ul><a href="/s">Get started</a></div>
<div class="rounded-lg border p-8"><span class="badge">Popular</span><p class="text-lg font-semibold">Business</p><p class="mt-4"><span class="text-4xl font-bold">$49</span><span class="text-sm">/month</span></p><ul><li>50 projects</li></ul><a href="/s">Get started</a></div>
<div class="rounded-lg border p-8"><p class="text-lg font-semibold">Enterprise</p><p class="mt-4">Contact us</p><ul><li>Unlimited projects</li></ul></div>
</div></main>`;
    expect(plans(html)).toEqual([
      { name: "Starter", price: 19, period: "month", unit: undefined, custom: undefined },
      { name: "Business", price: 49, period: "month", unit: undefined, custom: undefined },
      { name: "Enterprise", price: null, period: undefined, unit: undefined, custom: true },
    ]);
  });

  test("monthly and annual prices both in the DOM, told apart by class or toggle attributes", () => {
    const html = `<main><h1>Pricing</h1><div class="plans">
<div class="plan"><h3>Team</h3><div class="price"><span class="price--annual">$49</span><span class="price--monthly">$59</span> per user / month</div><ul><li>A</li></ul></div>
<div class="plan"><h3>Pro</h3><div class="price"><span x-show="annual">$79</span><span x-show="!annual">$99</span> per user / month</div><ul><li>B</li></ul></div>
</div></main>`;
    expect(plans(html)).toEqual([
      { name: "Team", price: 59, period: "month", unit: "user", custom: undefined },
      { name: "Pro", price: 99, period: "month", unit: "user", custom: undefined },
    ]);
  });

  test('a card with a sub-heading ("Includes") is still one plan', () => {
    const html = `<main><h1>Plans</h1><div class="cards">
<div class="card"><h3>Basic</h3><p>$10/mo</p><h4>Includes</h4><ul><li>One site</li></ul></div>
<div class="card"><h3>Plus</h3><p>$20/mo</p><h4>Includes</h4><ul><li>Ten sites</li></ul></div>
</div></main>`;
    expect(extractPage(html, URL_).plans).toEqual([
      { name: "Basic", price: 10, currency: "USD", period: "month", features: ["One site"] },
      { name: "Plus", price: 20, currency: "USD", period: "month", features: ["Ten sites"] },
    ]);
  });

  test("a comparison table with prices in the header cells", () => {
    const html = `<main><h1>Compare</h1><table><thead><tr><th>Features</th><th>Free<br>$0</th><th>Pro<br>$29/mo</th><th>Scale<br>Custom</th></tr></thead>
<tbody><tr><td>Seats</td><td>1</td><td>10</td><td>Unlimited</td></tr><tr><td>SSO</td><td></td><td></td><td>✓</td></tr></tbody></table></main>`;
    expect(plans(html)).toEqual([
      { name: "Free", price: 0, period: undefined, unit: undefined, custom: undefined },
      { name: "Pro", price: 29, period: "month", unit: undefined, custom: undefined },
      { name: "Scale", price: null, period: undefined, unit: undefined, custom: true },
    ]);
  });
});

describe("loose layouts on careers, integrations and pricing pages", () => {
  test("job rows without headings: a link naming the role, with location and team", () => {
    const html = `<main><h1>Careers</h1><div class="list">
<div class="row"><a href="/careers/123">Senior Backend Engineer</a><span>Engineering</span><span>Berlin, Germany</span></div>
<div class="row"><a href="/careers/124">Account Executive</a><span>Sales</span><span>Remote</span></div>
<div class="row"><a href="/careers/125">Office Manager</a><span>Operations</span><span>Berlin, Germany</span></div>
</div><ul class="perks"><li>Free lunch</li><li>Gym</li></ul></main>`;
    expect(extractPage(html, "https://acme.example/careers").jobs).toEqual([
      {
        title: "Senior Backend Engineer",
        department: "Engineering",
        location: "Berlin, Germany",
        url: "https://acme.example/careers/123",
      },
      {
        title: "Account Executive",
        department: "Sales",
        location: "Remote",
        url: "https://acme.example/careers/124",
      },
      {
        title: "Office Manager",
        department: "Operations",
        location: "Berlin, Germany",
        url: "https://acme.example/careers/125",
      },
    ]);
  });

  test("integration tiles without headings or lists", () => {
    const html = `<main><h1>Integrations</h1><p>Connect your stack.</p><div class="grid">
<a class="tile" href="/i/slack"><img src="s.png" alt=""><span>Slack</span></a>
<a class="tile" href="/i/github"><img src="g.png" alt=""><span>GitHub</span></a>
<a class="tile" href="/i/jira"><img src="j.png" alt="Jira"></a>
<a class="tile" href="/i/notion"><img src="n.png" alt=""><span>Notion</span></a>
</div></main>`;
    expect(extractPage(html, "https://acme.example/integrations").integrations).toEqual([
      "Slack",
      "GitHub",
      "Jira",
      "Notion",
    ]);
  });

  test("monthly and yearly tab panels: the yearly panel's plans are the alternative", () => {
    const card = (n: string, p: string) =>
      `<div class="plan"><h3>${n}</h3><p>${p}</p><ul><li>x</li></ul></div>`;
    const html = `<main><h1>Pricing</h1>
<div role="tabpanel" id="panel-monthly"><div class="plans">${card("Pro", "$20/mo")}${card("Team", "$40/mo")}</div></div>
<div role="tabpanel" id="panel-yearly"><div class="plans">${card("Pro", "$192/year")}${card("Team", "$384/year")}</div></div></main>`;
    expect(extractPage(html, URL_).plans.map((p) => [p.name, p.price, p.period])).toEqual([
      ["Pro", 20, "month"],
      ["Team", 40, "month"],
    ]);
  });

  test("a currency symbol in its own element", () => {
    const html = `<main><h1>Pricing</h1><div class="cards">
<div class="card"><h3>Lite</h3><div class="cur">$</div><div class="amt">12</div><div class="per">/mo</div></div>
<div class="card"><h3>Max</h3><div class="cur">$</div><div class="amt">30</div><div class="per">/mo</div></div></div></main>`;
    expect(extractPage(html, URL_).plans.map((p) => [p.name, p.price, p.currency, p.period])).toEqual([
      ["Lite", 12, "USD", "month"],
      ["Max", 30, "USD", "month"],
    ]);
  });
});

describe("features and nested structured data", () => {
  test("stat tiles and blog teasers are not features", () => {
    const html = `<main><h1>Acme</h1>
<div class="stats"><div class="stat"><h3>10M+</h3><p>events a day</p></div><div class="stat"><h3>99.99%</h3><p>uptime</p></div></div>
<div class="posts"><div class="post"><h3>How we scaled</h3><p>5 min read</p></div><div class="post"><h3>Our new office</h3><p>3 min read</p></div></div>
<div class="features"><div class="feature"><h3>Dashboards</h3><p>x</p></div><div class="feature"><h3>Alerts</h3><p>y</p></div></div></main>`;
    expect(extractPage(html, "https://acme.example/").features).toEqual(["Dashboards", "Alerts"]);
  });

  test("an organisation nested as a WebSite's publisher", () => {
    const page = extractPage(
      `<script type="application/ld+json">{"@type":"WebSite","url":"https://acme.example/","publisher":{"@type":"Organization","name":"Acme","foundingDate":"2012","address":{"@type":"PostalAddress","addressLocality":"Oslo","addressCountry":"NO"}}}</script>`,
      "https://acme.example/",
    );
    const p = profileFrom([page]);
    expect(p.founding_year).toBe(2012);
    expect(p.headquarters).toEqual({ city: "Oslo", country: "Norway" });
  });
});

describe("pages as a browser builds them (the HTML standard's tree construction)", () => {
  const blocks = (body: string) =>
    extractPage(
      `<!doctype html><html><head><title>t</title></head><body><main>${body}</main></body></html>`,
      "https://x.example/",
    ).blocks;

  test("content a browser moves out of a table comes before it; rows keep their cells", () => {
    const b = blocks(
      "<h2>Plans</h2><table><tr><td>Seats</td><td>3</td></tr><p>Moved before the table</p></table>",
    );
    expect(b.map((x) => x.kind)).toEqual(["heading", "text", "table"]);
    expect(b[1]).toMatchObject({ text: "Moved before the table" });
    expect(b[2]).toMatchObject({ rows: [["Seats", "3"]] });
  });

  test("a heading opened inside an open heading closes it; misnested and stray tags recover", () => {
    const b = blocks(
      "<h3>Starter<h3>Growth</h3><p><b>Bold <i>both</b> italic</i></p></div></span><p>After a stray end tag</p>",
    );
    expect(b.filter((x) => x.kind === "heading").map((x) => (x as { text: string }).text)).toEqual([
      "Starter",
      "Growth",
    ]);
    const texts = b.filter((x) => x.kind === "text").map((x) => (x as { text: string }).text);
    expect(texts).toEqual(["Bold both italic", "After a stray end tag"]);
  });

  test("& and < in text are text; an unclosed link does not swallow the next", () => {
    const p = extractPage(
      `<html><body><main><p>Profit & loss < 5% of revenue</p><p><a href="/a">First<a href="/b">Second</a></p></main></body></html>`,
      "https://x.example/",
    );
    expect(p.text).toContain("Profit & loss < 5% of revenue");
    expect(p.links.body).toEqual([
      { url: "https://x.example/a", text: "First" },
      { url: "https://x.example/b", text: "Second" },
    ]);
  });
});
