// The shipped demo workspace (examples/demo.ndjson) imports cleanly and serves a realistic workspace.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importNdjson } from "../../src/domain/imports.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { getJson } from "../support/read-api-fixture.ts";

const text = readFileSync(join(import.meta.dir, "..", "..", "examples", "demo.ndjson"), "utf8");
let t: TestServer;
let key: string;
beforeAll(async () => {
  t = await startTestServer();
  const r = await importNdjson(t.services.store, text);
  expect(r.errors).toEqual([]);
  key = await t.key("demo");
});
afterAll(() => t.close());

test("every line is a record of the demo org (or of the public library) with .example addresses only", () => {
  const lines = text.trim().split("\n");
  expect(JSON.parse(lines[0])).toEqual({
    kind: "org",
    slug: "demo",
    name: "Northwind Analytics",
    plan: "growth",
    website_url: "https://northwind.example",
  });
  // Public briefs and guides belong to no workspace.
  for (const l of lines.slice(1)) {
    const rec = JSON.parse(l);
    if (rec.kind === "public_brief" || rec.kind === "guide") expect(rec.org).toBeUndefined();
    else expect(rec.org).toBe("demo");
  }
  for (const m of text.matchAll(/https?:\/\/([^/"?#]+)/g)) expect(m[1]).toMatch(/\.example$/);
});

test("importing it again changes nothing", async () => {
  const r = await importNdjson(t.services.store, text);
  expect(r.errors).toEqual([]);
  expect(r.applied).toBe(0);
});

test("the workspace it serves", async () => {
  const competitors = (await getJson(t, "/api/v1/competitors", key)).body.data;
  expect(competitors.length).toBeGreaterThanOrEqual(5);
  expect(competitors.map((c: { name: string }) => c.name)).not.toContain("Pivotry");
  expect(competitors.some((c: { watch: string }) => c.watch === "horizon")).toBe(true);
  for (const c of competitors) {
    const d = (await getJson(t, `/api/v1/competitors/${c.id}`, key)).body.data;
    expect(d.reads).toBeDefined();
  }
  const signals = await getJson(t, "/api/v1/signals", key);
  expect(signals.body.data.length).toBeGreaterThanOrEqual(20);
  for (const s of signals.body.data) expect(s.evidence.length).toBeGreaterThan(0);
  const digests = (await getJson(t, "/api/v1/digests", key)).body.data;
  expect(new Set(digests.map((d: { type: string }) => d.type))).toEqual(
    new Set(["daily_digest", "weekly_tldr"]),
  );
  for (const d of digests) {
    const full = (await getJson(t, `/api/v1/digests/${d.slug ?? d.id}`, key)).body.data;
    expect(full.items.length).toBeGreaterThan(0);
    expect(full.markdown).toBeDefined();
    expect(full.signal_ids.length).toBeGreaterThan(0);
  }
  const cards = (await getJson(t, "/api/v1/battlecards", key)).body.data;
  expect(cards.length).toBeGreaterThanOrEqual(3);
  for (const c of cards)
    for (const s of ["overview", "strengths", "weaknesses", "talk_tracks"])
      expect(c.sections[s]).toBeDefined();
});
