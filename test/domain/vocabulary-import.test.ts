// Imported history reads in the one vocabulary: a signal line's names are mapped when it is imported, and an
// exported event recorded under other names (appended as it was) is read in the vocabulary by its projection.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let orgId: number;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.org("acme")).id;
});
afterAll(() => t.close());

async function doc(key: string) {
  const r = await t.services.database.client.execute({
    sql: "SELECT doc FROM signals WHERE org_id = ? AND key = ?",
    args: [orgId, key],
  });
  return JSON.parse(String(r.rows[0].doc));
}

test("an imported signal line is stored in the vocabulary; importing it again changes nothing", async () => {
  const line = {
    kind: "signal",
    org: "acme",
    key: "lumen-price",
    title: "Lumen Metrics cuts its entry price to €290",
    category: "pricing",
    type: "price_change",
  };
  expect((await t.load([line])).errors).toEqual([]);
  expect(await doc("lumen-price")).toMatchObject({ category: "pricing", type: "price_decrease" });
  expect((await t.load([line])).applied).toBe(0);
});

test("an exported event with other names is projected in the vocabulary", async () => {
  const report = await t.load([
    {
      type: "SignalRecorded",
      org_id: orgId,
      stream_type: "signal",
      stream_id: "9001",
      stream_version: 1,
      data: {
        id: 9001,
        key: "old-round",
        competitor_id: null,
        record: {
          title: "Tally HQ announces a pre-seed round",
          category: "funding",
          type: "funding_round",
          status: "open",
          evidence: [],
        },
      },
      metadata: { source: "import" },
      recorded_at: "2026-11-01T00:00:00.000Z",
    },
  ]);
  expect(report.errors).toEqual([]);
  expect(await doc("old-round")).toMatchObject({ category: "company", type: "funding" });
});
