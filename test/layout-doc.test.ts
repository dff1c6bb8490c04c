// docs/layout.md is a map a newcomer checks against the tree: every path it names exists.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

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
  // Every folder of tests is a part of src/ (engine rooms under test/engine/), the event log's or the
  // projections' (top-level events/, projections/), or support, e2e.
  const src = new Set([...readdirSync(join(ROOT, "src")), "events", "projections"]);
  const own = new Set(["support", "e2e", "artifacts"]);
  const dirs = readdirSync(join(ROOT, "test"), { withFileTypes: true }).filter((d) => d.isDirectory());
  expect(dirs.map((d) => d.name).filter((d) => !src.has(d) && !own.has(d))).toEqual([]);
  const rooms = readdirSync(join(ROOT, "test", "engine"), { withFileTypes: true }).filter((d) =>
    d.isDirectory(),
  );
  const engine = new Set(readdirSync(join(ROOT, "src", "engine")));
  expect(rooms.map((d) => d.name).filter((d) => !engine.has(d))).toEqual([]);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

test("the README's code map names paths that exist, and every link of the README and docs/ resolves", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const named = [...readme.matchAll(/`((?:src|test|events|projections|docs)\/[^`\s]*)`/g)].map((m) => m[1]);
  expect(named.length).toBeGreaterThan(15);
  expect(named.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);

  const pages = [
    "README.md",
    ...readdirSync(join(ROOT, "docs"), { recursive: true }).map((f) => `docs/${f}`),
  ].filter((f) => f.endsWith(".md"));
  const anchors = (file: string) =>
    new Set(
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => anchorOf(l.replace(/^#+ /, ""))),
    );
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [path, anchor] = target!.split("#");
      const file = path ? join(dirname(page), path) : page;
      if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target}`);
      else if (anchor && file.endsWith(".md") && !anchors(file).has(anchor))
        broken.push(`${page}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
});
