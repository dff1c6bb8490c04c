// Free-form values on pages read as prose: a timestamp as people write it (the machine form kept in the
// datetime attribute), a slug by its label.
import { expect, test } from "bun:test";
import { Value } from "../../src/web/components.tsx";
import { proseProblems, visibleText } from "../support/prose-check.ts";

test("a timestamp and a slug inside a free-form value are written for a person", async () => {
  const html = String(
    await Value({
      value: { first_seen_at: "2026-11-27T12:00:37.867Z", type: "price_increase", note: "kept as written" },
    }),
  );
  expect(html).toContain('<time datetime="2026-11-27T12:00:37.867Z">27 Nov 2026, 12:00 UTC</time>');
  expect(visibleText(html)).toContain("Price increase");
  expect(visibleText(html)).toContain("kept as written");
  expect(proseProblems(visibleText(html))).toEqual([]);
});
