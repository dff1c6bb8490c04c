// docs/layout.md is a map a newcomer checks against the tree: every path it names exists.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");

test("every path docs/layout.md names exists", () => {
  const doc = readFileSync(join(ROOT, "docs/layout.md"), "utf8");
  const named = [...doc.matchAll(/`((?:src|test|events|projections|docs)\/[^`\s]*)`/g)].map((m) => m[1]);
  expect(named.length).toBeGreaterThan(30);
  expect(named.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
});
