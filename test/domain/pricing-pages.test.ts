// Plans stated on several pages (the pricing page, product pages, the home page) as one pricing read: a plan on
// two pages is one plan, one from another page than the read's names its page, and a cycle that reads one of those
// pages again changes only that page's plans (domain/pricingRead.ts pagePlans, domain/observation.ts).
import { expect, test } from "bun:test";
import { decideObservation } from "../../src/domain/observation.ts";
import { pagePlans, planRead } from "../../src/domain/pricingRead.ts";
import type { CompetitorRecord } from "../../src/domain/records.ts";
import { plansAcross } from "../../src/engine/research/reads.ts";

const PRICING = "https://acme.example/pricing";
const PRODUCT = "https://acme.example/products/scheduler";
const plan = (name: string, price: number) => ({ name, price, period: "month" as const, features: [] });

test("research: the pricing page's plans, then those only a product page states, named with their page", () => {
  const read = plansAcross([
    { url: PRICING, extract: { plans: [plan("Team", 20), plan("Business", 40)] } },
    { url: PRODUCT, extract: { plans: [plan("team", 20), plan("Scheduler Pro", 12)] } },
  ]);
  expect(read.plans.map((p) => [p.name, p.page])).toEqual([
    ["Team", undefined],
    ["Business", undefined],
    ["Scheduler Pro", PRODUCT],
  ]);
});

test("a cycle reads the product page again: its plans change, the pricing page's stay; and the other way round", () => {
  const record: CompetitorRecord = {
    name: "Acme",
    watch: "core",
    tracking: "active",
    reads: {
      pricing: {
        page: PRICING,
        plans: [
          { name: "Team", price: 20, amount: 20, period: "month" },
          { name: "Scheduler Pro", price: 12, amount: 12, period: "month", page: PRODUCT },
        ],
      },
    },
  } as CompetitorRecord;
  const decide = (url: string, kind: string, plans: ReturnType<typeof plan>[]) => {
    const [e] = decideObservation(record, {
      orgId: 1,
      competitorId: 7,
      observed: [{ url, kind, pricing: { page: url, plans } }],
      signalsSeen: false,
      now: "2026-11-27T12:00:00.000Z",
    });
    const reads = (e!.data as { reads?: { pricing?: { plans: Record<string, unknown>[] } } }).reads;
    return reads?.pricing?.plans.map((p) => [p.name, p.price, p.page]);
  };
  expect(decide(PRODUCT, "product", [plan("Scheduler Pro", 15)])).toEqual([
    ["Team", 20, undefined],
    ["Scheduler Pro", 15, PRODUCT],
  ]);
  expect(decide(PRICING, "pricing", [plan("Team", 25)])).toEqual([
    ["Team", 25, undefined],
    ["Scheduler Pro", 12, PRODUCT],
  ]);
  // a product page now naming a plan the pricing page states adds nothing
  expect(pagePlans(record.reads!.pricing, PRODUCT, { plans: [plan("Team", 20)] }).map((p) => p.name)).toEqual(
    ["Team"],
  );
});

test("a sale price's regular price, term and financing are kept in the read; a yearly plan's regular is a year too", () => {
  expect(
    planRead({ name: "Home", price: 3.75, period: "month", regular: 25, sale_term: "for 3 months" }),
  ).toEqual({
    name: "Home",
    price: 3.75,
    amount: 3.75,
    period: "month",
    regular: 25,
    sale_term: "for 3 months",
  });
  expect(planRead({ name: "Core", price: 40, period: "year", amount: 480, regular: 50 })).toMatchObject({
    price: 480,
    monthly_equivalent: 40,
    regular: 600,
  });
  expect(planRead({ name: "Solo", price: 4990, financing: true })).toEqual({
    name: "Solo",
    price: 4990,
    amount: 4990,
    financing: true,
  });
});
