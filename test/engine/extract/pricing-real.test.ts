// Plan exactness over the labelled real pricing structures (fixtures/pricing-real): each fixture reproduces a
// real page's markup with its own names and prices; every plan a visitor can choose must read exactly.
import { expect, test } from "bun:test";
import { REAL_PAGES, realPricingExactness } from "../../../fixtures/pricing-real/evaluate.ts";
import { extractPage } from "../../../src/engine/extract/page.ts";

test("plan exactness over the real pricing structures is at least 0.95", () => {
  const r = realPricingExactness();
  const exactness = r.matched / r.total;
  console.log(
    `plan exactness on real pricing structures: ${exactness.toFixed(3)} (${r.matched}/${r.total} plans)`,
  );
  for (const m of r.misses) console.log(`  ${m}`);
  expect(REAL_PAGES.length).toBeGreaterThanOrEqual(40);
  expect(exactness).toBeGreaterThanOrEqual(0.95);
});

const URL_ = "https://example.com/pricing";
const plansOf = (body: string, url = URL_) =>
  extractPage(`<html><body><main>${body}</main></body></html>`, url).plans.map(({ features: _f, ...p }) => p);

test("other companies' products in a comparison are left out; the own plans stay", () => {
  const cards = `<h1>Pricing</h1><div class="plans"><div class="plan"><h3>Lite</h3><p>$5/mo</p></div><div class="plan"><h3>Max</h3><p>$9/mo</p></div></div>`;
  // the own column's header is empty: no plan is read from the table
  expect(
    plansOf(
      `${cards}<table><tr><th></th><th></th><th>OtherCo</th></tr><tr><td>Monthly cost</td><td>$5</td><td>$20</td></tr></table>`,
    ).map((p) => p.name),
  ).toEqual(["Lite", "Max"]);
  // a card group under "X vs the alternatives" beside the plans
  expect(
    plansOf(
      `${cards}<h2>Lite vs the alternatives</h2><div class="v"><div class="x"><h3>OtherCo</h3><p>$20/mo</p></div><div class="x"><h3>ThirdCo</h3><p>$30/mo</p></div></div>`,
    ).map((p) => p.name),
  ).toEqual(["Lite", "Max"]);
  // "Compare plans" is about the page's own plans: a table there is still read
  expect(
    plansOf(
      `<h1>Pricing</h1><h2>Compare plans</h2><table><tr><th>Plan</th><th>Price</th></tr><tr><td>Lite</td><td>$5/mo</td></tr><tr><td>Max</td><td>$9/mo</td></tr></table>`,
    ).map((p) => p.name),
  ).toEqual(["Lite", "Max"]);
});

test("billing terms in words, sale and regular prices, financing", () => {
  const [a] = plansOf(
    `<h1>Pricing</h1><div class="t"><div class="c"><h3>Basic</h3><p>$12/mo billed annually, or $15/mo billed monthly</p></div><div class="c"><h3>Pro</h3><p>$20/mo</p></div></div>`,
  );
  expect(a).toEqual({
    name: "Basic",
    price: 15,
    currency: "USD",
    period: "month",
    annual: { price: 12, amount: 144 },
  });
  // a yearly-billed figure with no monthly-billed one stated stays yearly
  const [y] = plansOf(
    `<h1>Pricing</h1><div class="t"><div class="c"><h3>Basic</h3><p>$12/mo billed annually</p></div><div class="c"><h3>Pro</h3><p>$20/mo</p></div></div>`,
  );
  expect(y).toEqual({ name: "Basic", price: 12, currency: "USD", period: "year", amount: 144 });
  const [s] = plansOf(
    `<h1>Pricing</h1><div class="t"><div class="c"><h3>Home</h3><div>Usually $25/mo</div><div><span>Now</span> <span>$</span><span>3</span><span>.75</span><span>/mo</span></div><div>for 3 months</div></div><div class="c"><h3>Pro</h3><p>$20/mo</p></div></div>`,
  );
  expect(s).toEqual({
    name: "Home",
    price: 3.75,
    currency: "USD",
    period: "month",
    regular: 25,
    sale_term: "for 3 months",
  });
  const [f] = plansOf(
    `<h1>Plans</h1><div class="g"><div class="c"><h3>Solo</h3><div>$4,990</div><div>Monthly financing available</div></div><div class="c"><h3>Duo</h3><div>$8,990</div><div>Monthly financing available</div></div></div>`,
  );
  expect(f).toEqual({ name: "Solo", price: 4990, currency: "USD", financing: true });
});

test("outside a pricing page, a card group is plans only when it offers them", () => {
  const home = "https://example.com/";
  // tiles that say "Free" are no plans
  expect(
    plansOf(
      `<h1>Work together</h1><h2>Connect your tools</h2><div class="t"><div class="c"><h3>Slack</h3><p>Free</p></div><div class="c"><h3>Zapier</h3><p>Free</p></div></div>`,
      home,
    ),
  ).toEqual([]);
  // a plan section on the home page, or recurring prices, are
  expect(
    plansOf(
      `<h1>Work together</h1><h2>Simple pricing</h2><div class="t"><div class="c"><h3>Free</h3><p>$0</p></div><div class="c"><h3>Pro</h3><p>$8</p></div></div>`,
      home,
    ).map((p) => [p.name, p.price]),
  ).toEqual([
    ["Free", 0],
    ["Pro", 8],
  ]);
  expect(
    plansOf(
      `<h1>Scheduler</h1><div class="t"><div class="c"><h3>Basic</h3><p>Starts at $20/mo</p></div><div class="c"><h3>Enterprise</h3><p>Custom pricing</p></div></div>`,
      "https://example.com/products/scheduler",
    ).map((p) => p.name),
  ).toEqual(["Basic", "Enterprise"]);
});
