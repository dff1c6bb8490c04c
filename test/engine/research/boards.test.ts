// Research on the sites whose hiring is on the other job boards (fixtures/web: fernway on Workable, kestrel
// on SmartRecruiters named by its careers widget's inline settings, lumora on Recruitee, ostara on Personio's EU
// host in an iframe, driftwood on Lever's EU host): the board the careers page names is read through its public
// API, the `hiring` read comes from it, and it is the source the cycle watches. A board that answers with a
// maintenance page stays a source, gives no hiring read, and is listed as failed. Real fetcher over loopback,
// real extraction pool.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type FixtureWeb, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { loadConfig } from "../../../src/config.ts";
import { createFetcher, fetcherOptions } from "../../../src/engine/fetch/index.ts";
import { researchSite } from "../../../src/engine/research/index.ts";
import { extractPool } from "../../../src/engine/workers/extract.ts";

let web: FixtureWeb;
beforeAll(() => {
  web = startFixtureWeb({ version: 1 });
});
afterAll(() => web.stop());

async function research(site: string) {
  const config = loadConfig({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  const r = await researchSite(`https://${site}`, {
    fetcher: createFetcher(fetcherOptions(config)),
    extractor: extractPool(config),
    now: () => new Date("2026-11-24T12:00:00Z"),
  });
  if (!r.ok) throw new Error(r.reason);
  return r;
}

test("each provider's board is found on the careers page, read, and watched", async () => {
  const cases: [string, string, string, number][] = [
    ["fernway.example", "workable", "https://apply.workable.com/api/v1/widget/accounts/fernway", 4],
    [
      "kestrel.example",
      "smartrecruiters",
      "https://api.smartrecruiters.com/v1/companies/KestrelSystems/postings",
      4,
    ],
    ["lumora.example", "recruitee", "https://lumora.recruitee.com/api/offers/", 3],
    ["ostara.example", "personio", "https://ostara.jobs.personio.de/xml", 3],
    ["driftwood.example", "lever", "https://api.eu.lever.co/v0/postings/driftwood?mode=json", 4],
  ];
  for (const [site, provider, api, roles] of cases) {
    const r = await research(site);
    const hiring = r.dossier.reads.hiring as { open_roles: number; board: string; source: string };
    expect([site, hiring.board, hiring.source, hiring.open_roles]).toEqual([site, provider, api, roles]);
    expect(r.summary.job_board).toBe(provider);
    expect(r.dossier.sources).toContainEqual({ url: api, kind: `job_board:${provider}` });
  }
  const ostara = (await research("ostara.example")).dossier.reads.hiring as Record<string, unknown>;
  expect(ostara.by_department).toEqual({ "Customer Success": 1, Engineering: 1, Operations: 1 });
  expect(ostara.locations).toEqual(["Munich", "Vienna"]);
});

test("a board that answers with a maintenance page: no hiring read, still a source, listed as failed", async () => {
  web.setVersion(2);
  try {
    const r = await research("lumora.example");
    expect(r.dossier.reads.hiring).toBeUndefined();
    expect(r.summary.job_board).toBeUndefined();
    expect(r.summary.failed).toContainEqual({
      url: "https://lumora.recruitee.com/api/offers/",
      error: "not_board_response",
    });
    expect(r.dossier.sources).toContainEqual({
      url: "https://lumora.recruitee.com/api/offers/",
      kind: "job_board:recruitee",
    });
  } finally {
    web.setVersion(1);
  }
});
