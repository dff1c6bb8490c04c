// What the open sources a competitor's site declares say for its dossier, at research and after the cycles of
// the fixture web: the chief executive and SEC CIK of Quantive's Wikidata item (v2 names a new chief executive),
// Northwind's app with its rating and most recent reviews, Globex's npm packages with last week's downloads (v2
// changes both, v3 only moves what is not compared) — in REST, get_competitor, the competitor page and the
// compare CSV.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type FixtureWeb, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { researchIdle } from "../../../src/engine/research/runner.ts";
import { researchSites } from "../../support/fixture-workspace.ts";
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

/** The compare CSV's row of a competitor, by column: each value and its evidence (`<column> evidence`). */
async function compareRow(name: string): Promise<Record<string, string>> {
  const csv = await (await browser.request("/app/compare.csv")).text();
  const fields = (line: string) =>
    line
      .slice(1, -1)
      .split('","')
      .map((f) => f.replaceAll('""', '"'));
  const [header, ...rows] = csv.trimEnd().split("\r\n").map(fields);
  const row = rows.find((r) => r[0] === name);
  expect(row).toBeDefined();
  return Object.fromEntries(header.map((h, i) => [h, row![i]]));
}

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
  for (const [site, id] of await researchSites(t.services, orgId, SITES)) ids.set(site, id);
});

afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

describe("what the open sources say in the dossier", () => {
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
    const q = await compareRow("Quantive");
    expect([q["Chief executive"], q["Chief executive evidence"]]).toEqual(["Priya Raman", ITEM]);
    expect([q["Files with the SEC"], q["Files with the SEC evidence"]]).toEqual([
      "yes",
      d.reads.regulation.sec.filings,
    ]);
    // A site with no Wikidata item has neither.
    const g = await dossier("globex.example");
    expect(g.reads.funding?.chief_executive).toBeUndefined();
    expect(g.reads.regulation?.sec).toBeUndefined();
    const gc = await compareRow("Globex");
    expect([gc["Chief executive"], gc["Files with the SEC"]]).toEqual(["", ""]);
  });

  test("research: the app's rating and most recent reviews, the packages' downloads", async () => {
    const n = await dossier("northwind.example");
    const app = n.reads.apps.apps[0];
    expect(app).toMatchObject({
      name: "Northwind Renewals",
      version: "3.4.0",
      rating: 4.62,
      rating_count: 1287,
    });
    expect(app.reviews.length).toBe(5);
    expect(app.reviews[0]).toEqual({
      rating: 5,
      title: "Our renewal standup runs on it",
      written_at: "2026-11-08T13:41:22.000Z",
      version: "3.4.0",
    });
    expect((await tool("northwind.example")).reads.apps).toEqual(n.reads.apps);
    const html = await page("northwind.example");
    expect(html).toContain("rated 4.6 out of 5 from 1,287 ratings");
    expect(html).toContain("5 of 5 stars: “Our renewal standup runs on it”");
    expect(html).toContain("8 Nov 2026");
    const nc = await compareRow("Northwind");
    expect([nc["App Store rating"], nc["App Store rating evidence"]]).toEqual([
      "4.6 of 5 (1,287 ratings)",
      app.page,
    ]);
    const g = await dossier("globex.example");
    const js = g.reads.packages.packages.find((p: Obj) => p.name === "globex-js");
    expect(js).toMatchObject({
      weekly_downloads: 18412,
      downloads_week: { start: "2026-11-12", end: "2026-11-18" },
    });
    const gc = await compareRow("Globex");
    // The release cadence research read from the changelog, as a day and a typical gap.
    expect([gc["Latest release"], gc["Release cadence"], gc["Release cadence evidence"]]).toEqual([
      "12 Nov 2026",
      `every ${g.reads.release_cadence.median_days_between} days`,
      g.reads.release_cadence.source,
    ]);
    expect([gc["npm downloads (last week)"], gc["npm downloads (last week) evidence"]]).toEqual([
      "18,412 (globex-js)",
      "https://www.npmjs.com/package/globex-js",
    ]);
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
    expect((await compareRow("Quantive"))["Chief executive"]).toBe("Marcus Oyelaran");
  });

  test("v2: the app's new version, rating and reviews, and the packages' versions and downloads, after the cycle", async () => {
    const app = (await dossier("northwind.example")).reads.apps.apps[0];
    expect(app).toMatchObject({
      version: "3.5.0",
      rating: 4.13,
      rating_count: 1412,
      released_at: "2026-11-17T08:00:00Z",
    });
    expect(app.reviews.slice(0, 2).map((r: Obj) => [r.rating, r.title])).toEqual([
      [1, "Crashes since the update"],
      [2, "Reminders arrive twice"],
    ]);
    expect(app.reviews.length).toBe(5);
    expect(await page("northwind.example")).toContain("rated 4.1 out of 5 from 1,412 ratings");
    const packages = (await dossier("globex.example")).reads.packages.packages as Obj[];
    const js = packages.find((p) => p.name === "globex-js")!;
    expect(js).toMatchObject({ latest: "4.3.0", weekly_downloads: 18734 });
    expect(js.downloads_week).toEqual({ start: "2026-11-15", end: "2026-11-21" });
    const legacy = packages.find((p) => p.name === "globex-legacy")!;
    expect(legacy.deprecated).toBeTruthy();
    expect(legacy.weekly_downloads).toBe(889);
    expect((await tool("globex.example")).reads.packages).toEqual({ packages });
    expect((await compareRow("Northwind"))["App Store rating"]).toBe("4.1 of 5 (1,412 ratings)");
    expect((await compareRow("Globex"))["npm downloads (last week)"]).toBe("18,734 (globex-js)");
  });

  test("v3 (a revision that changes no statement): the chief executive stays", async () => {
    web.setVersion(3);
    await cycle();
    expect((await dossier("quantive.example")).reads.funding.chief_executive.name).toBe("Marcus Oyelaran");
    // Nothing compared moved: the app and the packages keep what the v2 cycle read (a new 5-star review and
    // another week's downloads are not read until the app or the package changes).
    const app = (await dossier("northwind.example")).reads.apps.apps[0];
    expect(app.rating_count).toBe(1412);
    expect(app.reviews[0].title).toBe("Crashes since the update");
    const js = (await dossier("globex.example")).reads.packages.packages.find(
      (p: Obj) => p.name === "globex-js",
    );
    expect(js.weekly_downloads).toBe(18734);
  });
});
