// Rules route themselves: classify() offers each change to the rules whose declared `reads` name its kind, so
// every rule is reached either by classify() or with its source kind, and a source kind's own rules are rules
// of the table.
import { expect, test } from "bun:test";
import { classify, ROUTED, RULES } from "../../../src/engine/classify/classify.ts";
import type { Change } from "../../../src/engine/compare/types.ts";
import { SOURCE_KINDS } from "../../../src/engine/sources/kinds/index.ts";

const ownRules = SOURCE_KINDS.flatMap((k) => (k.classifyAs(k.name, "").rules ?? []).map((r) => r.info.id));

test("every rule of the table is reached: by classify(), with its source kind, or by the cycle (a failed check)", () => {
  const reached = new Set([...ROUTED, ...ownRules, "pageGone"]);
  expect(RULES.map((r) => r.id).filter((id) => !reached.has(id))).toEqual([]);
  expect([...reached].filter((id) => !RULES.some((r) => r.id === id))).toEqual([]);
  // a source kind's own rule is not also one classify() offers every source's changes to
  expect(ownRules.filter((id) => ROUTED.includes(id))).toEqual([]);
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
  const org = SOURCE_KINDS.find((k) => k.name === "github_org")!;
  const asOrg = classify([item], { ...ctx, ...org.classifyAs("github_org", item.url) });
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
