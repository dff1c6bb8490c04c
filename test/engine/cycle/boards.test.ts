// Following a company's job board across cycles, on the fixture web's driftwood.example (Lever's EU board at v1,
// Workable from v2 on): the careers page is read again each cycle, so the move is followed; while the new board
// answers with a maintenance page the check is a failed one and nothing is signalled (the move is recorded:
// research_sources names the Workable board); once it answers, its first list is compared with the old board's
// last list (one signal: the VP of Sales, not four roles closed and five opened). A Recruitee
// board answering with a maintenance page is a failed check, shown in the summary, the dossier's freshness and the
// competitor page.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { handle } from "../../../events/command.ts";
import { type FixtureWeb, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { addCompetitor } from "../../../src/domain/watchlist.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { createFetcher, type Fetcher, fetcherOptions } from "../../../src/engine/fetch/index.ts";
import { researchIdle, startResearch } from "../../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { member, signedIn } from "../../support/oauth-helpers.ts";

setDefaultTimeout(60_000);

let web: FixtureWeb;
let t: TestServer;
let orgId: number;
const ids: Record<string, number> = {};
const WORKABLE = "https://apply.workable.com/api/v1/widget/accounts/driftwood";
const LEVER = "https://api.eu.lever.co/v0/postings/driftwood?mode=json";

beforeAll(async () => {
  web = startFixtureWeb({ version: 1 });
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  orgId = (await t.org("acme")).id;
  for (const site of ["driftwood.example", "lumora.example"]) {
    const { result } = await t.services.store.execute(
      (w) => handle(addCompetitor, w, { orgId, actor: "operator" }, { website_url: `https://${site}` }),
      { actor: "operator" },
    );
    ids[site] = result.id;
  }
  const started = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "watchlist" },
    "operator",
    { usesAllowance: false },
  );
  await started.done;
});

afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

async function boardSources(site: string): Promise<string[]> {
  const r = await t.services.database.client.execute({
    sql: "SELECT url FROM research_sources WHERE org_id = ? AND competitor_id = ? AND kind LIKE 'job_board:%'",
    args: [orgId, ids[site]!],
  });
  return r.rows.map((row) => String(row.url));
}

async function signalTitles(competitorId: number): Promise<string[]> {
  const r = await t.services.database.client.execute({
    sql: "SELECT title FROM signals WHERE org_id = ? AND competitor_id = ? ORDER BY id",
    args: [orgId, competitorId],
  });
  return r.rows.map((row) => String(row.title));
}

/** The real fetcher, except that Workable answers every request with its maintenance page (status 200). */
function workableDown(): Fetcher {
  const real = createFetcher(fetcherOptions(t.services.config));
  return {
    async fetch(req) {
      const r = await real.fetch(req);
      if (!r.ok || new URL(req.url).hostname !== "apply.workable.com") return r;
      const text = "<!DOCTYPE html><html><head><title>Workable is down for maintenance</title></head></html>";
      return { ...r, contentType: "text/html; charset=utf-8", text, bytes: text.length };
    },
  };
}

test("a board that moved is followed once it answers; the move alone is no change", async () => {
  expect(await boardSources("driftwood.example")).toEqual([LEVER]);
  const first = await runCycle(t.services, orgId, { trigger: "operator" });
  expect(first.signals_created).toBe(0);

  // v2: the careers page names Workable, whose API answers with a maintenance page.
  web.setVersion(2);
  t.clock.advance(86_400_000);
  const down = await runCycle(t.services, orgId, { trigger: "operator", fetcher: workableDown() });
  expect(down.failures).toContainEqual(
    expect.objectContaining({ url: WORKABLE, error: "not_board_response" }),
  );
  // Lumora's Recruitee board answers v2 with its own maintenance page: failed too, and no "zero open roles".
  expect(down.failures).toContainEqual(
    expect.objectContaining({ url: "https://lumora.recruitee.com/api/offers/", error: "not_board_response" }),
  );
  expect(down.signals_created).toBe(0);
  // The careers page names Workable: that is the board watched from now on.
  expect(await boardSources("driftwood.example")).toEqual([WORKABLE]);
  const dossier = await t.services.database.client.execute({
    sql: "SELECT state FROM competitors WHERE id = ?",
    args: [ids["lumora.example"]!],
  });
  const freshness = JSON.parse(String(dossier.rows[0]!.state)).freshness;
  expect(freshness.source_failures).toContainEqual(
    expect.objectContaining({ url: "https://lumora.recruitee.com/api/offers/", error: "not_board_response" }),
  );
  // The competitor page says so in words.
  const admin = await signedIn(t, await member(t, "acme", "admin"));
  const html = await (await admin.request(`/app/competitors/${ids["lumora.example"]}?org=acme`)).text();
  const panel = html.slice(html.indexOf('aria-label="Monitoring"'));
  expect(panel).toContain("https://lumora.recruitee.com/api/offers/");
  expect(panel).toContain("answered with something other than its list of jobs");

  // Workable answers (the careers page now answers 304: nothing to detect again): its first list continues
  // Lever's last one, so only the VP of Sales is new.
  t.clock.advance(86_400_000);
  const up = await runCycle(t.services, orgId, { trigger: "operator" });
  expect(await signalTitles(ids["driftwood.example"]!)).toEqual([
    "Driftwood is hiring a VP of Sales (London, United Kingdom)",
  ]);
  expect(up.failures.filter((f) => f.url === WORKABLE)).toEqual([]);
  expect(await boardSources("driftwood.example")).toEqual([WORKABLE]);
  expect(await signalTitles(ids["lumora.example"]!)).toEqual([]);

  // The next cycle reads the Workable board as the board: nothing new.
  t.clock.advance(86_400_000);
  const again = await runCycle(t.services, orgId, { trigger: "operator" });
  expect(again.signals_created).toBe(0);
  expect(await signalTitles(ids["driftwood.example"]!)).toHaveLength(1);
});
