// A funding signal a cycle records puts its round into the dossier's funding read in the same command: read from
// the signal's evidence sentence by sentence as research reads a page, naming the company by its name, the
// name's first word or its domain; a sentence about another company's round adds nothing. A real database.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { handle } from "../../../events/command.ts";
import type { SignalDraft } from "../../../src/domain/signalDraft.ts";
import { addCompetitor } from "../../../src/domain/watchlist.ts";
import { recordDrafts } from "../../../src/engine/write/signals.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

let t: TestServer;
let orgId: number;
let id: number;

const draft = (key: string, text: string, url: string): SignalDraft => ({
  key,
  category: "company",
  type: "funding",
  severity: "high",
  severity_reasons: ["funding"],
  confidence: 0.9,
  confidence_reasons: ["announcement"],
  title: text,
  summary: text,
  evidence: [{ text, source_url: url, observed_at: "2026-11-20T09:00:00.000Z" }],
});

async function funding(): Promise<Record<string, any> | undefined> {
  const r = await t.services.database.client.execute({
    sql: "SELECT state FROM competitors WHERE id = ? AND org_id = ?",
    args: [id, orgId],
  });
  return JSON.parse(String(r.rows[0]!.state)).reads?.funding;
}

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.org("acme")).id;
  const { result } = await t.services.store.execute(
    (w) => handle(addCompetitor, w, { orgId, actor: "operator" }, { website_url: "https://globex.example" }),
    { actor: "operator" },
  );
  id = result.id;
  await t.services.database.client.execute({
    sql: "UPDATE competitors SET name = 'Globex Insights' WHERE id = ?",
    args: [id],
  });
});
afterAll(() => t.close());

test("a round the company announces joins the funding read; another company's round does not", async () => {
  expect(await funding()).toBeUndefined();
  await recordDrafts(
    t.services,
    orgId,
    id,
    [
      draft(
        "a",
        "Acme Corp, a Globex customer, raised a $5 million Seed round.",
        "https://globex.example/blog/acme",
      ),
    ],
    "2026-11-20T09:00:00.000Z",
  );
  expect(await funding()).toBeUndefined();
  await recordDrafts(
    t.services,
    orgId,
    id,
    [
      draft(
        "b",
        "Globex closes a $25 million Series C led by Northzone on November 18, 2026.",
        "https://globex.example/press/series-c",
      ),
    ],
    "2026-11-21T09:00:00.000Z",
  );
  expect(await funding()).toEqual({
    rounds: [
      {
        round: "Series C",
        amount_text: "$25 million",
        amount: 25_000_000,
        currency: "USD",
        date: "2026-11-18",
        text: "Globex closes a $25 million Series C led by Northzone on November 18, 2026.",
        source: "https://globex.example/press/series-c",
      },
    ],
    sources: ["https://globex.example/press/series-c"],
  });
});
