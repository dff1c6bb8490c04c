// formatAmount: the one way an amount is written — in signal titles and evidence (via formatPrice) and on the
// price chart, which used to have its own variant (a "$" for prices read without a currency, "JPY 1000").
import { expect, test } from "bun:test";
import { currencyPrefix, formatAmount } from "../../src/domain/money.ts";
import { formatPrice } from "../../src/engine/compare/compare.ts";
import { PriceChart } from "../../src/web/charts.tsx";

test("formatAmount: symbol or ISO code, whole amounts bare, others with two decimals", () => {
  expect(formatAmount(1200, "USD")).toBe("$1,200");
  expect(formatAmount(9.5, "EUR")).toBe("€9.50");
  expect(formatAmount(49, "CHF")).toBe("CHF 49");
  expect(formatAmount(3000, "JPY")).toBe("¥3,000");
  expect(formatAmount(12)).toBe("12");
  expect(currencyPrefix(null)).toBe("");
});

test("formatPrice builds on it: unit, period and custom pricing", () => {
  expect(formatPrice({ price: 59, currency: "USD", unit: "seat" })).toBe("$59 per seat/month");
  expect(formatPrice({ price: 490, currency: "GBP", period: "year" })).toBe("£490/month, billed yearly");
  expect(formatPrice({ price: null, custom: true })).toBe("custom pricing");
});

test("the price chart writes amounts the same way (decided: no invented dollar sign, ¥ for yen)", () => {
  const at = "2026-11-01T00:00:00.000Z";
  const now = new Date("2026-11-20T00:00:00.000Z");
  const chart = (currency?: string) =>
    String(PriceChart({ series: [{ plan: "Team", currency, points: [{ at, price: 9.5 }] }], now }));
  expect(chart()).toContain("Plan prices per month over time: Team 9.50");
  expect(chart("JPY")).toContain("Team ¥9.50");
  expect(chart("USD")).toContain("Team $9.50");
});
