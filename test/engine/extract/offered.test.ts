// Extraction of what a page offers, on small pages of our own in the shapes real sites use: contact-sales
// tiers beside the plan grid (a band, a table column, a footer row), starting prices, metered rates, yearly
// figures, both periods of a monthly/annual toggle, JSON-LD and microdata offers; integration names from
// link tiles, tables, lists and broken markup, category filters and directory pages; overlays removed by
// what they are, never by a vendor's name in a class or id.
import { describe, expect, test } from "bun:test";
import { extractPage } from "../../../src/engine/extract/page.ts";
import { readPrice, readUsage } from "../../../src/engine/extract/pricing.ts";

const PRICING = "https://acme.example/pricing";
const INTEGRATIONS = "https://acme.example/integrations";

const page = (body: string, url = PRICING, head = "") =>
  extractPage(`<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`, url);
const plansOf = (body: string, head = "") => page(body, PRICING, head).plans.map(({ features, ...p }) => p);

const card = (name: string, price: string, extra = "") =>
  `<div class="plan"><h3>${name}</h3><p class="price">${price}</p>${extra}<ul><li>Feature of ${name}</li></ul></div>`;

describe("prices", () => {
  test("custom markers, starting prices, yearly figures, metered rates", () => {
    for (const t of [
      "Let’s talk",
      "Let's talk",
      "Get in touch",
      "Talk to us",
      "Call for pricing",
      "Custom",
      "Contact sales",
    ])
      expect(readPrice(t)).toMatchObject({ amount: null, custom: true });
    // a sentence that mentions a marker, or a question, is not one
    expect(readPrice("Yes. Talk to us and we will size a plan for you")).toBeNull();
    expect(readPrice("Can I get a custom plan?")).toBeNull();
    expect(readPrice("From $29/mo")).toMatchObject({ amount: 29, period: "month", starting: true });
    expect(readPrice("Starting at €49 per month")).toMatchObject({
      amount: 49,
      currency: "EUR",
      starting: true,
    });
    expect(readPrice("$5k/yr")).toMatchObject({ amount: 416.67, period: "year", yearly: 5000 });
    expect(readPrice("$1,200 billed yearly")).toMatchObject({ amount: 100, period: "year", yearly: 1200 });
    expect(readPrice("$49/mo, billed annually")).toMatchObject({ amount: 49, period: "year", yearly: 588 });
    expect(readPrice("$10k sessions")).toBeNull();
    expect(readPrice("$0.50 per 1,000 events")).toBeNull();
    expect(readPrice("$0.02 / GB")).toBeNull();
    expect(readPrice("$29 per seat / month")).toMatchObject({ amount: 29, unit: "seat", period: "month" });
    expect(readUsage("Then $0.50 per 1,000 events")).toMatchObject([{ price: 0.5, per: "1,000 events" }]);
    expect(readUsage("Storage $0.02 / GB and €0,002 per API call")).toMatchObject([
      { price: 0.02, per: "GB", currency: "USD" },
      { price: 0.002, per: "API call", currency: "EUR" },
    ]);
    expect(readUsage("$29 per user per month")).toEqual([]);
  });
});

describe("plans as the page offers them", () => {
  test("a contact-sales band under the grid is a plan (custom, no price)", () => {
    const plans = plansOf(`<main><h1>Pricing</h1>
      <section><div class="grid">${card("Basic", "$12/mo")}${card("Plus", "$24/mo")}</div>
      <div class="band"><div><h3>Enterprise</h3><p>SSO, audit logs and a named engineer.</p></div><a href="/sales">Let’s talk</a></div></section>
      <section><h2>Frequently asked questions</h2><p>Can I get a custom plan?</p><p>Talk to us</p></section></main>`);
    expect(plans.map((p) => p.name)).toEqual(["Basic", "Plus", "Enterprise"]);
    expect(plans[2]).toEqual({ name: "Enterprise", price: null, custom: true });
  });

  test("a tier only in the comparison table's column, and a footer row, are custom plans", () => {
    const column =
      plansOf(`<main><h1>Pricing</h1><div>${card("Basic", "$12/mo")}${card("Plus", "$24/mo")}</div>
      <table><tr><th></th><th>Basic</th><th>Plus</th><th>Scale</th></tr>
      <tr><td>Projects</td><td>3</td><td>Unlimited</td><td>Unlimited</td></tr>
      <tr><td>SSO</td><td>—</td><td>—</td><td>✓</td></tr>
      <tr><td></td><td><a href="/s">Start</a></td><td><a href="/s">Start</a></td><td><a href="/sales">Contact sales</a></td></tr></table></main>`);
    expect(column.map((p) => p.name)).toEqual(["Basic", "Plus", "Scale"]);
    expect(column[2]).toMatchObject({ price: null, custom: true });
    const footer =
      plansOf(`<main><h1>Pricing</h1><div>${card("Basic", "$12/mo")}${card("Plus", "$24/mo")}</div>
      <table><tr><th>Feature</th><th>Basic</th><th>Plus</th></tr><tr><td>Projects</td><td>3</td><td>10</td></tr>
      <tr><td>Enterprise</td><td colspan="2">Get in touch</td></tr></table></main>`);
    expect(footer.find((p) => p.name === "Enterprise")).toEqual({
      name: "Enterprise",
      price: null,
      custom: true,
    });
  });

  test("a monthly/annual toggle gives both periods: hidden, shown by a toggle condition, or in data attributes", () => {
    const hidden = plansOf(`<main><h1>Pricing</h1><div>
      ${card("Basic", '<span data-billing="monthly">$12/mo</span><span data-billing="annual" hidden>$10/mo billed annually</span>')}
      ${card("Plus", '<span class="price-monthly">$24/mo</span><span class="price-yearly" style="display:none">$240/year</span>')}</div></main>`);
    expect(hidden[0]).toMatchObject({
      name: "Basic",
      price: 12,
      period: "month",
      annual: { price: 10, amount: 120 },
    });
    expect(hidden[1]).toMatchObject({
      name: "Plus",
      price: 24,
      period: "month",
      annual: { price: 20, amount: 240 },
    });
    // the page shows the yearly-billed price; the monthly one is the plan's price
    const yearlyShown = plansOf(`<main><h1>Pricing</h1><div>
      ${card("Basic", '<span x-show="!monthly">$10/mo billed yearly</span><span x-show="monthly" style="display:none">$12/mo</span>')}
      ${card("Plus", "$24/mo")}</div></main>`);
    expect(yearlyShown[0]).toMatchObject({ price: 12, period: "month", annual: { price: 10, amount: 120 } });
    const attrs = plansOf(`<main><h1>Pricing</h1><div>
      ${card("Basic", '<span data-monthly="12" data-yearly="120">$12</span>/mo')}
      ${card("Plus", '<span data-monthly="$24" data-annual="$20">$24</span>/mo')}</div></main>`);
    expect(attrs[0]!.annual).toEqual({ price: 10, amount: 120 });
    expect(attrs[1]!.annual).toEqual({ price: 20, amount: 240 });
  });

  test("starting, yearly-only and metered prices; metered rates are usage prices, not plans", () => {
    const p = page(`<main><h1>Pricing</h1><div>
      ${card("Starter", "From $29/mo", "<p>Then $0.50 per 1,000 events</p>")}
      ${card("Business", "$12k/yr")}
      ${card("Pay as you go", "$0.002 per event")}</div><p>Storage: $0.02 / GB</p></main>`);
    expect(p.plans.map(({ features, ...x }) => x)).toEqual([
      { name: "Starter", price: 29, currency: "USD", period: "month", starting: true },
      { name: "Business", price: 1000, currency: "USD", period: "year", amount: 12000 },
    ]);
    expect(p.usage).toMatchObject([
      { price: 0.5, per: "1,000 events", plan: "Starter" },
      { price: 0.002, per: "event", plan: "Pay as you go" },
      { price: 0.02, per: "GB" },
    ]);
  });

  test("JSON-LD offers and microdata are read when the markup has no plan cards", () => {
    const ld = plansOf(
      "<main><h1>Pricing</h1><p>Plans for every team.</p></main>",
      `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Acme",
        "offers":{"@type":"AggregateOffer","lowPrice":"9","priceCurrency":"USD","offers":[
          {"@type":"Offer","name":"Solo","price":"9","priceCurrency":"USD","priceSpecification":{"@type":"UnitPriceSpecification","price":9,"billingDuration":"P1M","unitText":"per user per month"}},
          {"@type":"Offer","name":"Team","priceSpecification":{"@type":"UnitPriceSpecification","price":"1200","priceCurrency":"USD","unitCode":"ANN"}},
          {"@type":"Offer","name":"Enterprise","description":"Call for pricing"}]}}</script>`,
    );
    expect(ld).toEqual([
      { name: "Solo", price: 9, currency: "USD", period: "month", unit: "user" },
      { name: "Team", price: 100, currency: "USD", period: "year", amount: 1200 },
      { name: "Enterprise", price: null, custom: true },
    ]);
    const aggregate = plansOf(
      "<main><h1>Pricing</h1></main>",
      `<script type="application/ld+json">{"@type":"SoftwareApplication","name":"Acme","offers":{"@type":"AggregateOffer","lowPrice":19,"highPrice":99,"priceCurrency":"EUR"}}</script>`,
    );
    expect(aggregate).toEqual([{ name: "Acme", price: 19, currency: "EUR", starting: true }]);
    const micro = plansOf(`<main><h1>Pricing</h1><div itemscope itemtype="https://schema.org/Product">
      <span itemprop="name">Acme</span>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="name">Lite</span>
        <meta itemprop="price" content="15.00"><meta itemprop="priceCurrency" content="USD"></div>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="name">Max</span>
        <meta itemprop="price" content="45.00"><meta itemprop="priceCurrency" content="USD"></div></div></main>`);
    expect(micro).toEqual([
      { name: "Lite", price: 15, currency: "USD" },
      { name: "Max", price: 45, currency: "USD" },
    ]);
    // a nested UnitPriceSpecification item gives the period
    const yearly = plansOf(`<main><h1>Pricing</h1><div itemscope itemtype="https://schema.org/Offer">
      <h2 itemprop="name">Studio</h2><div itemprop="priceSpecification" itemscope itemtype="https://schema.org/UnitPriceSpecification">
      <span itemprop="price" content="600">$600</span><meta itemprop="priceCurrency" content="USD"><meta itemprop="billingDuration" content="P1Y"></div></div></main>`);
    expect(yearly).toEqual([{ name: "Studio", price: 50, currency: "USD", period: "year", amount: 600 }]);
    // cards win over structured data
    expect(
      plansOf(
        `<main><h1>Pricing</h1><div>${card("Basic", "$12/mo")}${card("Plus", "$24/mo")}</div></main>`,
        `<script type="application/ld+json">{"@type":"Offer","name":"Other","price":"1"}</script>`,
      ).map((p) => p.name),
    ).toEqual(["Basic", "Plus"]);
  });
});

describe("integrations as a visitor sees them", () => {
  const tile = (name: string, alt = `${name} logo`, text = true) =>
    `<a class="tile" href="/integrations/${name.toLowerCase()}"><img src="/l.svg" alt="${alt}">${text ? `<span>${name}</span>` : ""}</a>`;

  test("link tiles (one unclosed, one named by its logo), cards with vendor ids, a category filter left out, directory pages handed back", () => {
    const p = page(
      `<main><h1>Integrations</h1>
      <div class="filters"><ul><li><a href="/integrations">All</a></li><li><a href="/integrations/category/crm">CRM</a></li><li><a href="/integrations?category=support">Support</a></li></ul></div>
      <div class="grid">${tile("Slack")}${tile("Notion")}<a class="tile" href="/integrations/jira"><img src="/l.svg" alt=""><span>Jira</span>${tile("Linear", "Linear logo", false)}${tile("Figma")}</div>
      <div class="cards"><div class="card" id="intercom"><h3>Intercom</h3><p>Conversations next to usage.</p></div><div class="card" id="drift"><h3>Drift</h3><p>Chat routing.</p></div></div>
      <nav class="pagination"><a href="/integrations?page=2" rel="next">Next</a></nav></main>`,
      INTEGRATIONS,
      '<link rel="next" href="/integrations/page/2">',
    );
    expect(new Set(p.integrations)).toEqual(
      new Set(["Intercom", "Drift", "Slack", "Notion", "Jira", "Linear", "Figma"]),
    );
    expect(p.integrationPages).toEqual([
      "https://acme.example/integrations/page/2",
      "https://acme.example/integrations?page=2",
      "https://acme.example/integrations/category/crm",
      "https://acme.example/integrations?category=support",
    ]);
  });

  test("tables and lists; item cards whose markup never closes", () => {
    const table = page(
      `<main><h1>Integrations</h1><table><tr><th>Integration</th><th>Sync</th></tr><tr><td>Snowflake</td><td>Hourly</td></tr><tr><td>Databricks</td><td>Daily</td></tr></table>
      <h2>Alerts</h2><ul><li>PagerDuty</li><li>Opsgenie</li></ul></main>`,
      INTEGRATIONS,
    );
    expect(table.integrations).toEqual(["PagerDuty", "Opsgenie", "Snowflake", "Databricks"]);
    const broken = page(
      `<main><h1>Integrations</h1><div class="grid"><div class="item"><h4>Shopify</h4><p>Orders every 5 minutes.
       <div class="item"><h4>Magento</h4><p>Orders and stock.<div class="item"><h4>Wix</h4><p>Orders.</div></main>`,
      INTEGRATIONS,
    );
    expect(broken.integrations).toEqual(["Shopify", "Magento", "Wix"]);
  });
});

describe("overlays by what they are", () => {
  test("consent banners, dialogs, fixed overlays and chat launchers go; vendor-named content stays", () => {
    const p = page(
      `<main><h1>Acme</h1><section class="gdpr"><h2>GDPR by design</h2><p>Every record keeps its consent basis.</p></section>
      <div class="cards"><div class="card" id="intercom"><h3>Intercom</h3><p>Live chat conversations with usage.</p></div><div class="card" id="crisp-chatbox"><h3>Crisp</h3><p>Chat with customers.</p></div></div></main>
      <footer><ul><li><a href="/privacy">Privacy</a></li><li><a href="#" class="cookie-settings">Cookie settings</a></li></ul></footer>
      <div class="notice"><p>We use cookies to measure our traffic.</p><button>Accept all</button><button>Reject all</button></div>
      <div role="dialog" aria-modal="true"><h2>Join our newsletter</h2><button>Subscribe</button></div>
      <div style="position: fixed; bottom: 0"><p>Limited offer: 20% off today</p></div>
      <div class="launcher"><p>👋 Questions? Chat with Sam</p></div>`,
      "https://acme.example/",
    );
    expect(p.text).toContain("GDPR by design");
    expect(p.text).toContain("Intercom");
    expect(p.text).toContain("Crisp");
    expect(p.text).not.toMatch(/We use cookies|newsletter|Limited offer|Chat with Sam/);
    expect(p.links.footer.map((l) => l.url)).toContain("https://acme.example/privacy");
  });

  test("a mobile menu drawer marked as a dialog keeps its links", () => {
    const p = page(
      `<header><div role="dialog" aria-modal="true" class="drawer"><nav><a href="/pricing">Pricing</a><a href="/docs">Docs</a></nav></div></header><main><h1>Acme</h1><p>Text of the page.</p></main>`,
      "https://acme.example/",
    );
    expect(p.links.nav.map((l) => l.url)).toContain("https://acme.example/pricing");
  });
});
