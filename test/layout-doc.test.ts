// docs/layout.md is a map a newcomer checks against the tree: every path it names exists.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");

test("every path docs/layout.md names exists", () => {
  const doc = readFileSync(join(ROOT, "docs/layout.md"), "utf8");
  const named = [...doc.matchAll(/`((?:src|test|events|projections|docs)\/[^`\s]*)`/g)].map((m) => m[1]);
  expect(named.length).toBeGreaterThan(30);
  expect(named.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
});

test("tests mirror src/: only the repository-wide checks sit at the top of test/", () => {
  const top = readdirSync(join(ROOT, "test")).filter((f) => f.endsWith(".ts"));
  expect(top.sort()).toEqual(["config-env.test.ts", "layers.test.ts", "layout-doc.test.ts", "smoke.test.ts"]);
  // Every folder of tests is a part of src/ (engine rooms under test/engine/), or support, fixtures, e2e.
  const src = new Set(readdirSync(join(ROOT, "src")));
  const own = new Set(["support", "fixtures", "e2e", "artifacts"]);
  const dirs = readdirSync(join(ROOT, "test"), { withFileTypes: true }).filter((d) => d.isDirectory());
  expect(dirs.map((d) => d.name).filter((d) => !src.has(d) && !own.has(d))).toEqual([]);
  const rooms = readdirSync(join(ROOT, "test", "engine"), { withFileTypes: true }).filter((d) =>
    d.isDirectory(),
  );
  const engine = new Set(readdirSync(join(ROOT, "src", "engine")));
  expect(rooms.map((d) => d.name).filter((d) => !engine.has(d))).toEqual([]);
});
