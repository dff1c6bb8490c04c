// severityRank: the one order of severities every ranking reads (classification's dedup, signal detection,
// the digest's materiality and watch rules, the delivery message's order).
import { expect, test } from "bun:test";
import { SEVERITY, SEVERITY_HIGH_FIRST, severityRank } from "../../src/domain/records.ts";

test("severityRank: high > medium > low > none or unknown", () => {
  expect(SEVERITY.map(severityRank)).toEqual([1, 2, 3]);
  expect([undefined, null, "", "critical"].map(severityRank)).toEqual([0, 0, 0, 0]);
  const sorted = ["low", undefined, "high", "medium"].sort((a, b) => severityRank(b) - severityRank(a));
  expect(sorted).toEqual(["high", "medium", "low", undefined]);
});

test("SEVERITY_HIGH_FIRST is the same order, most severe first", () => {
  expect([...SEVERITY_HIGH_FIRST]).toEqual([...SEVERITY].sort((a, b) => severityRank(b) - severityRank(a)));
});
