// docs/engine/classify.md's classification rules table is the rules' own declarations: every rule the classifier runs
// is listed, none that it does not, with the change kinds it reads and the signals it gives.
import { expect, test } from "bun:test";
import { cells, documentedTable, rulesTable } from "../../../scripts/rules-table.ts";
import { RULES } from "../../../src/engine/classify/registry.ts";

test("the rules table in docs/engine/classify.md lists exactly the rules in the code (else: bun scripts/rules-table.ts)", () => {
  expect(cells(documentedTable() ?? "")).toEqual(cells(rulesTable()));
  const listed = [...(documentedTable() ?? "").matchAll(/^\| `(\w+)`/gm)].map((m) => m[1]);
  expect(listed).toEqual(RULES.map((r) => r.id));
});

test("every rule declares what it reads, what it gives and when, and ids are unique", () => {
  expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
  for (const r of RULES) {
    expect([r.id, r.reads.length > 0]).toEqual([r.id, true]);
    expect([r.id, Object.values(r.gives).flat().length > 0]).toEqual([r.id, true]);
    expect([r.id, r.when.length > 10 && r.severity.length > 0]).toEqual([r.id, true]);
  }
});
