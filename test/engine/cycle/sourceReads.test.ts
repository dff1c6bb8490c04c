// What the open sources a competitor's site declares say for its dossier, at research and after the cycles of
// the fixture web: the chief executive and SEC CIK of Quantive's Wikidata item (v2 names a new chief executive),
// in REST, get_competitor and the competitor page, each with its source.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { handle } from "../../../events/command.ts";
import { type FixtureWeb, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { addCompetitor } from "../../../src/domain/watchlist.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { researchIdle, startResearch } from "../../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { rest } from "../../support/mcp-write-helpers.ts";
import { type Browser, member, signedIn } from "../../support/oauth-helpers.ts";

setDefaultTimeout(120_000);

type Obj = Record<string, any>;
const SITES = ["quantive.example", "globex.example", "northwind.example"];
const ITEM = "https://www.wikidata.org/wiki/Q130512784";

let web: FixtureWeb;
let t: TestServer;
let key: string;
let mcp: Client;
let browser: Browser;
let orgId: number;
const ids = new Map<string, number>();

const dossier = async (site: string): Promise<Obj> =>
  (await rest(t, key, `/api/v1/competitors/${ids.get(site)}`)).json.data;
const tool = async (site: string): Promise<Obj> => {
  const b = body(await mcp.callTool({ name: "get_competitor", arguments: { competitor_id: ids.get(site) } }));
  return b.competitor ?? b;
};
const page = async (site: string) => (await browser.request(`/app/competitors/${ids.get(site)}`)).text();

async function cycle(): Promise<void> {
  t.clock.advance(3_600_000);
  await runCycle(t.services, orgId, { trigger: "operator" });
}

beforeAll(async () => {
  web = startFixtureWeb({ version: 1 });
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  orgId = (await t.org("acme", "growth")).id;
  key = await t.key("acme");
  mcp = await mcpClient(t.base, key);
  browser = await signedIn(t, await member(t, "acme"));
  for (const site of SITES) {
    const { result } = await t.services.store.execute(
      (w) => handle(addCompetitor, w, { orgId, actor: "operator" }, { website_url: `https://${site}` }),
      { actor: "operator" },
    );
    ids.set(site, result.id);
  }
  const started = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "watchlist" },
    "operator",
    { usesAllowance: false },
  );
  expect((await started.done).map((r) => r.status)).toEqual(SITES.map(() => "finished"));
});

afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

describe("Wikidata's chief executive and SEC CIK in the dossier", () => {
  test("research: the item's chief executive and CIK, with the item as their source, on every surface", async () => {
    const d = await dossier("quantive.example");
    expect(d.reads.funding.chief_executive).toEqual({
      name: "Priya Raman",
      source: ITEM,
      source_title: "Wikidata",
    });
    expect(d.reads.regulation.sec).toEqual({
      cik: "0001987654",
      filings:
        "https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0001987654&type=&dateb=&owner=include&count=40",
      source: ITEM,
      source_title: "Wikidata",
    });
    const m = await tool("quantive.example");
    expect(m.reads.funding.chief_executive).toEqual(d.reads.funding.chief_executive);
    expect(m.reads.regulation.sec).toEqual(d.reads.regulation.sec);
    const html = await page("quantive.example");
    expect(html).toContain("Chief executive: Priya Raman");
    expect(html).toContain(`href="${ITEM}"`);
    expect(html).toContain("Files with the SEC (Central Index Key 0001987654)");
    expect(html).toContain("filings on EDGAR");
    // A site with no Wikidata item has neither.
    const g = await dossier("globex.example");
    expect(g.reads.funding?.chief_executive).toBeUndefined();
    expect(g.reads.regulation?.sec).toBeUndefined();
  });

  test("v2: the new chief executive the item names is the dossier's after the cycle that signals it", async () => {
    await cycle();
    expect((await dossier("quantive.example")).reads.funding.chief_executive.name).toBe("Priya Raman");
    web.setVersion(2);
    await cycle();
    const d = await dossier("quantive.example");
    expect(d.reads.funding.chief_executive).toEqual({
      name: "Marcus Oyelaran",
      source: ITEM,
      source_title: "Wikidata",
    });
    expect(d.reads.regulation.sec.cik).toBe("0001987654");
    expect((await tool("quantive.example")).reads.funding.chief_executive.name).toBe("Marcus Oyelaran");
    const html = await page("quantive.example");
    expect(html).toContain("Chief executive: Marcus Oyelaran");
    expect(html).not.toContain("Chief executive: Priya Raman");
  });

  test("v3 (a revision that changes no statement): the chief executive stays", async () => {
    web.setVersion(3);
    await cycle();
    expect((await dossier("quantive.example")).reads.funding.chief_executive.name).toBe("Marcus Oyelaran");
  });
});
