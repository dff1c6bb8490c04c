// Rules route themselves: classify() offers each change to the rules whose declared `reads` name its kind, so
// every rule is reached either by classify() or with its source kind, and a source kind's own rules are rules
// of the table.
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { classify, ROUTED } from "../../../src/engine/classify/classify.ts";
import { RULES } from "../../../src/engine/classify/registry.ts";
import type { Change } from "../../../src/engine/compare/types.ts";
import { classifyAsOf, SOURCE_KINDS } from "../../../src/engine/sources/kinds/index.ts";

const ownRules = SOURCE_KINDS.flatMap((k) => (k.rules ?? []).map((r) => r.info.id));

test("every rule of the table is reached: by classify(), with its source kind, or by the cycle (a failed check)", () => {
  const reached = new Set([...ROUTED, ...ownRules, "pageGone"]);
  expect(RULES.map((r) => r.id).filter((id) => !reached.has(id))).toEqual([]);
  expect([...reached].filter((id) => !RULES.some((r) => r.id === id))).toEqual([]);
  // a source kind's own rule is not also one classify() offers every source's changes to
  expect(ownRules.filter((id) => ROUTED.includes(id))).toEqual([]);
});

test("every rule a module declares is in the registry: none is declared and left unrouted", async () => {
  const src = join(import.meta.dir, "../../../src/engine");
  const declared: string[] = [];
  for (const dir of ["classify", "sources/kinds"])
    for (const file of readdirSync(join(src, dir)).filter((f) => f.endsWith(".ts")))
      for (const value of Object.values(await import(join(src, dir, file))))
        if (typeof value === "function" && "info" in value) declared.push((value.info as { id: string }).id);
  expect(declared.length).toBeGreaterThan(20);
  expect(declared.filter((id) => !RULES.some((r) => r.id === id))).toEqual([]);
});

test("a change goes to the source kind's own rule reading its kind, not to the general rule", () => {
  const item: Change = {
    kind: "feed_item_added",
    source: "feed",
    url: "https://api.github.com/orgs/globex/repos",
    subject: "globex/flows-sdk",
    before: null,
    after: "globex/flows-sdk",
    excerpt: "globex/flows-sdk",
    context: "Introducing Flows: build automations visually.",
    link: "https://github.com/globex/flows-sdk",
  };
  const ctx = { competitor: { id: 1, name: "Globex" }, observedAt: "2026-11-24T12:00:00.000Z" };
  const asOrg = classify([item], { ...ctx, ...classifyAsOf("github_org", item.url) });
  expect(asOrg.map((d) => d.type)).toEqual(["open_source"]);
  // the same item on a blog's feed is read by the announcement rules
  const asFeed = classify(
    [{ ...item, url: "https://globex.example/blog/rss.xml", subject: "Introducing Flows" }],
    {
      ...ctx,
      pageKind: "feed",
    },
  );
  expect(asFeed.map((d) => d.type)).toEqual(["feature_launch"]);
});
