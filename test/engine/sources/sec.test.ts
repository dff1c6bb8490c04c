// EDGAR's submissions JSON (the fixture web's files, in EDGAR's shape): the recent 8-K, 10-K and 10-Q filings,
// and through the real comparison and classification an 8-K by its items and a periodic report as a low signal.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR } from "../../../fixtures/web/server.ts";
import { classify } from "../../../src/engine/classify/index.ts";
import { compare, normaliseFeed, seenOf, snapshotHash } from "../../../src/engine/compare/index.ts";
import type { Snapshot } from "../../../src/engine/compare/types.ts";
import { classifyAsOf } from "../../../src/engine/sources/kinds/index.ts";
import {
  cikOf,
  parseSubmissions,
  secFilingsSnapshot,
  secSubmissionsUrl,
} from "../../../src/engine/sources/sec.ts";

const URL_ = secSubmissionsUrl("0001987654");
const raw = (v: number) =>
  readFileSync(join(SITES_DIR, "data.sec.gov", `v${v}`, "submissions", "CIK0001987654.json"), "utf8");
const snap = (text: string): Snapshot => secFilingsSnapshot(URL_, parseSubmissions(text)!);
const run = (prev: Snapshot, next: Snapshot) =>
  classify(compare(prev, next, seenOf([prev])), {
    competitor: { id: 2, name: "Quantive" },
    ...classifyAsOf("sec_filings", ""),
    observedAt: "2026-11-20T00:00:00.000Z",
    previous: prev,
    snapshot: next,
  });

test("the recent current and periodic reports, with the 8-K's items and each filing's document", () => {
  expect(cikOf("1987654")).toBe("0001987654");
  expect(URL_).toBe("https://data.sec.gov/submissions/CIK0001987654.json");
  const p = parseSubmissions(raw(2))!;
  expect(p.name).toBe("Quantive Labs Inc.");
  expect(p.filings.map((f) => [f.form, f.items.join(",")])).toEqual([
    ["8-K", "5.02,9.01"],
    ["10-Q", ""],
    ["8-K", "2.02,9.01"],
    ["10-Q", ""],
    ["10-K", ""],
  ]);
  expect(p.filings[0].url).toBe(
    "https://www.sec.gov/Archives/edgar/data/1987654/000198765426000031/q8k-20261117.htm",
  );
  expect(parseSubmissions('{"message":"Undeclared Automated Tool"}')).toBeNull();
  expect(
    parseSubmissions("<html>Your Request Originates from an Undeclared Automated Tool</html>"),
  ).toBeNull();
});

test("an 8-K by its items; a 10-Q a low filing signal; results (2.02) and a rewritten phone number nothing", () => {
  const drafts = run(snap(raw(1)), snap(raw(2)));
  expect(drafts.map((d) => [d.category, d.type, d.severity, d.title])).toEqual([
    [
      "company",
      "leadership_change",
      "high",
      "Quantive reports a change of directors or officers (8-K, item 5.02)",
    ],
  ]);
  expect(drafts[0].evidence[0]).toMatchObject({
    text: "Form 8-K, items 5.02, 9.01, filed on 18 Nov 2026 (accession 0001987654-26-000031)",
    source_url: "https://www.sec.gov/Archives/edgar/data/1987654/000198765426000031/q8k-20261117.htm",
  });
  expect(snapshotHash(snap(raw(3)))).toBe(snapshotHash(snap(raw(2))));
  // the 8-K with results only (2.02) and the periodic reports, as if new
  const first = run(normaliseFeed(URL_, [{ id: "x", title: "x" }]), snap(raw(1)));
  expect(first.map((d) => [d.type, d.severity]).sort()).toEqual([
    ["filing", "low"],
    ["filing", "low"],
    ["filing", "low"],
  ]);
  expect(first.map((d) => d.title)).toContain("Quantive files its annual report (10-K)");
});
