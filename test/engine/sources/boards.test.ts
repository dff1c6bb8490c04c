// Job boards beyond Greenhouse, Lever and Ashby (Workable, SmartRecruiters, Recruitee, Personio): detection from
// URLs and from a careers page's raw HTML (links, iframes, embed scripts, inline widget settings), the public API
// URLs of ENGINE.md (EU boards at EU hosts), each provider's answer as the fixture web serves it, and reading a
// board through the real fetcher over loopback: pages of a paged list, and every answer that is not the
// provider's list (a maintenance page with status 200, an empty, cut-short or oversized body) a failed read.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR } from "../../../fixtures/web/files.ts";
import { createFetcher, type Fetcher } from "../../../src/engine/fetch/index.ts";
import { boardsInHtml } from "../../../src/engine/sources/boards/detect.ts";
import { readJobBoard } from "../../../src/engine/sources/boards/read.ts";
import {
  detectJobBoard,
  hiringPageUrl,
  type JobBoard,
  jobBoardApiUrl,
  parseJobBoard,
} from "../../../src/engine/sources/jobBoards.ts";

const fixture = (path: string) => readFileSync(join(SITES_DIR, path), "utf8");

describe("detection from URLs and the API URLs", () => {
  test("Workable: apply.workable.com/{account}, its jobs, {account}.workable.com and the widget API", () => {
    const wk: JobBoard = { provider: "workable", token: "fernway" };
    expect(detectJobBoard("https://apply.workable.com/fernway/")).toEqual(wk);
    expect(detectJobBoard("https://apply.workable.com/fernway/j/8C41F0D2A7/apply")).toEqual(wk);
    expect(detectJobBoard("https://fernway.workable.com/")).toEqual(wk);
    expect(detectJobBoard("https://apply.workable.com/api/v1/widget/accounts/fernway")).toEqual(wk);
    expect(detectJobBoard("https://apply.workable.com/api/v3/accounts/fernway/jobs")).toEqual(wk);
    for (const url of [
      "https://apply.workable.com/j/8C41F0D2A7",
      "https://www.workable.com/pricing",
      "https://apply.workable.com/",
    ])
      expect(detectJobBoard(url)).toBeNull();
    expect(jobBoardApiUrl(wk)).toBe("https://apply.workable.com/api/v1/widget/accounts/fernway");
  });

  test("SmartRecruiters: jobs./careers.smartrecruiters.com/{company} and the Posting API", () => {
    const sr: JobBoard = { provider: "smartrecruiters", token: "KestrelSystems" };
    expect(detectJobBoard("https://jobs.smartrecruiters.com/KestrelSystems")).toEqual(sr);
    expect(
      detectJobBoard("https://jobs.smartrecruiters.com/KestrelSystems/744000091230411-robotics"),
    ).toEqual(sr);
    expect(detectJobBoard("https://careers.smartrecruiters.com/KestrelSystems")).toEqual(sr);
    expect(detectJobBoard("https://api.smartrecruiters.com/v1/companies/KestrelSystems/postings")).toEqual(
      sr,
    );
    expect(detectJobBoard("https://jobs.smartrecruiters.com/oneclick-ui/company/x")).toBeNull();
    expect(detectJobBoard("https://www.smartrecruiters.com/")).toBeNull();
    expect(jobBoardApiUrl(sr)).toBe("https://api.smartrecruiters.com/v1/companies/KestrelSystems/postings");
  });

  test("Recruitee: {company}.recruitee.com and its offers API", () => {
    const rc: JobBoard = { provider: "recruitee", token: "lumora" };
    expect(detectJobBoard("https://lumora.recruitee.com/")).toEqual(rc);
    expect(detectJobBoard("https://lumora.recruitee.com/o/qa-engineer")).toEqual(rc);
    expect(detectJobBoard("https://lumora.recruitee.com/api/offers/")).toEqual(rc);
    expect(detectJobBoard("https://www.recruitee.com/")).toBeNull();
    expect(detectJobBoard("https://lumora.recruitee.com.evil.example/")).toBeNull();
    expect(jobBoardApiUrl(rc)).toBe("https://lumora.recruitee.com/api/offers/");
  });

  test("Personio: the EU host (.de) stays EU, .com stays .com, both read at /xml", () => {
    expect(detectJobBoard("https://ostara.jobs.personio.de/?language=en")).toEqual({
      provider: "personio",
      token: "ostara",
      region: "eu",
    });
    expect(detectJobBoard("https://ostara.jobs.personio.de/job/1482210")).toEqual({
      provider: "personio",
      token: "ostara",
      region: "eu",
    });
    expect(detectJobBoard("https://acme.jobs.personio.com/")).toEqual({
      provider: "personio",
      token: "acme",
    });
    expect(detectJobBoard("https://www.personio.de/")).toBeNull();
    expect(jobBoardApiUrl({ provider: "personio", token: "ostara", region: "eu" })).toBe(
      "https://ostara.jobs.personio.de/xml",
    );
    expect(jobBoardApiUrl({ provider: "personio", token: "acme" })).toBe(
      "https://acme.jobs.personio.com/xml",
    );
  });

  test("EU Greenhouse and Lever boards are read from the EU API hosts", () => {
    const lv = detectJobBoard("https://jobs.eu.lever.co/driftwood");
    expect(lv).toEqual({ provider: "lever", token: "driftwood", region: "eu" });
    expect(jobBoardApiUrl(lv!)).toBe("https://api.eu.lever.co/v0/postings/driftwood?mode=json");
    const gh = detectJobBoard("https://job-boards.eu.greenhouse.io/acme");
    expect(jobBoardApiUrl(gh!)).toBe("https://boards-api.eu.greenhouse.io/v1/boards/acme/jobs?content=true");
    expect(detectJobBoard("https://api.eu.lever.co/v0/postings/driftwood?mode=json")).toEqual(lv);
  });
});

describe("each provider's answer", () => {
  test("Workable's widget answer: title, department, city and country, remote roles, job URL, date", () => {
    const jobs = parseJobBoard(
      "workable",
      fixture("apply.workable.com/v1/api/v1/widget/accounts/fernway.json"),
    );
    expect(jobs.length).toBe(4);
    expect(jobs[0]).toEqual({
      title: "Senior Frontend Engineer",
      department: "Engineering",
      location: "Berlin, Germany",
      url: "https://apply.workable.com/fernway/j/8C41F0D2A7/",
      posted_at: "2026-10-28T00:00:00.000Z",
    });
    expect(jobs.find((j) => j.title === "Product Designer")?.location).toBe("Remote (Germany)");
  });

  test("SmartRecruiters' postings page: name, department label, fullLocation, the public job URL", () => {
    const jobs = parseJobBoard(
      "smartrecruiters",
      fixture("api.smartrecruiters.com/v1/v1/companies/KestrelSystems/postings.json"),
    );
    expect(jobs.length).toBe(4);
    expect(jobs[0]).toEqual({
      title: "Robotics Software Engineer",
      department: "Engineering",
      location: "Pittsburgh, PA, United States",
      url: "https://jobs.smartrecruiters.com/KestrelSystems/744000091230411",
      posted_at: "2026-10-20T14:02:11.000Z",
    });
  });

  test("Recruitee's offers: title, department, location, careers_url, its UTC date format", () => {
    const jobs = parseJobBoard("recruitee", fixture("lumora.recruitee.com/v1/api/offers.json"));
    expect(jobs.map((j) => j.title)).toEqual([
      "Backend Engineer (Elixir)",
      "Sales Development Representative, Benelux",
      "QA Engineer",
    ]);
    expect(jobs[0]).toEqual({
      title: "Backend Engineer (Elixir)",
      department: "Engineering",
      location: "Amsterdam, Netherlands",
      url: "https://lumora.recruitee.com/o/backend-engineer-elixir",
      posted_at: "2026-10-30T09:12:44.000Z",
    });
  });

  test("Personio's XML feed: name, department, office, /job/{id} on the board's host, createdAt", () => {
    const jobs = parseJobBoard("personio", fixture("ostara.jobs.personio.de/v1/xml"), {
      provider: "personio",
      token: "ostara",
      region: "eu",
    });
    expect(jobs.length).toBe(3);
    expect(jobs[0]).toEqual({
      title: "Senior Software Engineer (m/w/d)",
      department: "Engineering",
      location: "Munich",
      url: "https://ostara.jobs.personio.de/job/1482210",
      posted_at: "2026-10-12T09:30:00.000Z",
    });
  });

  test("an answer that is not the provider's gives no jobs", () => {
    const html = fixture("lumora.recruitee.com/v2/api/offers.html");
    for (const p of ["workable", "smartrecruiters", "recruitee", "personio"] as const) {
      expect(parseJobBoard(p, html)).toEqual([]);
      expect(parseJobBoard(p, "")).toEqual([]);
    }
    const xml = fixture("ostara.jobs.personio.de/v1/xml");
    expect(parseJobBoard("personio", xml.slice(0, xml.length - 200))).toEqual([]);
  });
});

describe("the board a careers page names", () => {
  test("links, iframes, embed scripts, escaped URLs in inline JSON, inline widget settings", () => {
    expect(boardsInHtml(fixture("fernway.example/v1/careers.html"))).toEqual([
      { provider: "workable", token: "fernway" },
    ]);
    expect(boardsInHtml(fixture("kestrel.example/v1/careers.html"))).toEqual([
      { provider: "smartrecruiters", token: "KestrelSystems" },
    ]);
    expect(boardsInHtml(fixture("ostara.example/v1/careers.html"))).toEqual([
      { provider: "personio", token: "ostara", region: "eu" },
    ]);
    expect(boardsInHtml(fixture("driftwood.example/v1/careers.html"))).toEqual([
      { provider: "lever", token: "driftwood", region: "eu" },
    ]);
    expect(boardsInHtml(fixture("driftwood.example/v2/careers.html"))).toEqual([
      { provider: "workable", token: "driftwood" },
    ]);
    const inline = `<div id="jobs"></div><script>window.__NEXT_DATA__={"careers":{"board":"https:\\/\\/jobs.ashbyhq.com\\/hooli"}}</script>
      <script src="//boards.greenhouse.io/embed/job_board/js?for=initech&amp;b=https%3A%2F%2Finitech.example"></script>
      <script>window.leverJobsOptions = { accountName: 'globo', includeCss: true };</script>`;
    expect(boardsInHtml(inline)).toEqual([
      { provider: "ashby", token: "hooli" },
      { provider: "greenhouse", token: "initech" },
      { provider: "lever", token: "globo" },
    ]);
  });

  test("the most named board first; commented-out embeds and widget settings without the script do not count", () => {
    const html = `<!-- <iframe src="https://old.recruitee.com/"></iframe> -->
      <a href="https://jobs.lever.co/acme">Jobs</a>
      <a href="https://apply.workable.com/acme/">All roles</a><a href="https://apply.workable.com/acme/j/ABC123/">Engineer</a>
      <script>cfg = {"company_code":"Nope"}</script>`;
    expect(boardsInHtml(html)).toEqual([
      { provider: "workable", token: "acme" },
      { provider: "lever", token: "acme" },
    ]);
    expect(boardsInHtml("<p>No board here</p>")).toEqual([]);
  });
});

// A board API on loopback whose answers the tests set per path; the fetcher sends every origin there.
let server: ReturnType<typeof Bun.serve>;
let fetcher: Fetcher;
const answers = new Map<string, { status?: number; type: string; body: string | (() => string) }>();
const requested: string[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const u = new URL(req.url);
      requested.push(u.pathname + u.search);
      const a = answers.get(u.pathname + u.search) ?? answers.get(u.pathname);
      if (!a) return new Response("not found", { status: 404 });
      const body = typeof a.body === "function" ? a.body() : a.body;
      return new Response(body, { status: a.status ?? 200, headers: { "content-type": a.type } });
    },
  });
  fetcher = createFetcher({
    userAgent: "RivalsBot/1.0 (+https://rivals.test/bot)",
    delayMs: 0,
    maxBytes: 200_000,
    rewrite: [{ from: "*", to: `http://127.0.0.1:${server.port}` }],
  });
});
afterAll(() => server.stop(true));

const JSON_TYPE = "application/json; charset=utf-8";

function srPage(company: string, offset: number, total: number) {
  const n = Math.max(0, Math.min(100, total - offset));
  return JSON.stringify({
    offset,
    limit: 100,
    totalFound: total,
    content: Array.from({ length: n }, (_, i) => ({
      id: String(744000090000000 + offset + i),
      name: `Engineer ${offset + i + 1}`,
      company: { identifier: company, name: company },
      releasedDate: "2026-11-01T00:00:00.000Z",
      location: { city: "Munich", country: "de", remote: false, fullLocation: "Munich, Bavaria, Germany" },
      department: { label: "Engineering" },
    })),
  });
}

describe("reading a board through the fetcher", () => {
  test("every provider's board over loopback, from the fixture web's answers", async () => {
    answers.set("/api/v1/widget/accounts/fernway", {
      type: JSON_TYPE,
      body: fixture("apply.workable.com/v1/api/v1/widget/accounts/fernway.json"),
    });
    answers.set("/xml", { type: "text/xml; charset=utf-8", body: fixture("ostara.jobs.personio.de/v1/xml") });
    answers.set("/api/offers/", {
      type: JSON_TYPE,
      body: fixture("lumora.recruitee.com/v1/api/offers.json"),
    });
    const wk = await readJobBoard(fetcher, { provider: "workable", token: "fernway" });
    const ps = await readJobBoard(fetcher, { provider: "personio", token: "ostara", region: "eu" });
    const rc = await readJobBoard(fetcher, { provider: "recruitee", token: "lumora" });
    expect([wk, ps, rc].map((r) => (r.ok ? r.jobs.length : r.error))).toEqual([4, 3, 3]);
    expect(ps.ok && ps.url).toBe("https://ostara.jobs.personio.de/xml");
  });

  test("a paged list is read page by page (SmartRecruiters' offset/limit, 230 postings in 3 pages)", async () => {
    const base = "/v1/companies/Big/postings";
    for (const offset of [0, 100, 200])
      answers.set(`${base}?limit=100&offset=${offset}`, {
        type: JSON_TYPE,
        body: srPage("Big", offset, 230),
      });
    requested.length = 0;
    const r = await readJobBoard(fetcher, { provider: "smartrecruiters", token: "Big" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.jobs.length).toBe(230);
    expect(r.pages).toBe(3);
    expect(new Set(r.jobs.map((j) => j.title)).size).toBe(230);
    expect(requested.filter((p) => p !== "/robots.txt")).toEqual([
      `${base}?limit=100&offset=0`,
      `${base}?limit=100&offset=100`,
      `${base}?limit=100&offset=200`,
    ]);
    expect(r.etag).toBeUndefined(); // a paged list has no one validator
  });

  test("a page that fails fails the whole read: a partial list never reads as roles closing", async () => {
    const base = "/v1/companies/Half/postings";
    answers.set(`${base}?limit=100&offset=0`, { type: JSON_TYPE, body: srPage("Half", 0, 150) });
    answers.set(`${base}?limit=100&offset=100`, {
      type: "text/html",
      body: "<!doctype html><title>Service Unavailable</title><h1>Down for maintenance</h1>",
    });
    const r = await readJobBoard(fetcher, { provider: "smartrecruiters", token: "Half" });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toBe("not_board_response");
      expect(r.message).toContain("Service Unavailable");
    }
  });

  test("a maintenance page with status 200, an empty body, a cut-short body, an oversized body: failed reads", async () => {
    const read = (token: string) => readJobBoard(fetcher, { provider: "ashby", token });
    answers.set("/posting-api/job-board/maint", {
      type: "text/html; charset=utf-8",
      body: fixture("lumora.recruitee.com/v2/api/offers.html"),
    });
    answers.set("/posting-api/job-board/empty", { type: JSON_TYPE, body: "" });
    answers.set("/posting-api/job-board/cut", {
      type: JSON_TYPE,
      body: '{"jobs":[{"title":"Senior Data Engineer","department":"Engineering"},{"title":"Develo',
    });
    answers.set("/posting-api/job-board/huge", {
      type: JSON_TYPE,
      body: () => JSON.stringify({ jobs: [{ title: "x", descriptionHtml: "y".repeat(300_000) }] }),
    });
    answers.set("/posting-api/job-board/none", { type: JSON_TYPE, body: '{"jobs":[]}' });
    const errors = await Promise.all(
      ["maint", "empty", "cut", "huge"].map(async (t) => {
        const r = await read(t);
        return r.ok ? "ok" : r.error;
      }),
    );
    expect(errors).toEqual(["not_board_response", "empty_response", "truncated_response", "too_large"]);
    // A board that lists no role is an answer: zero open roles, read.
    const none = await read("none");
    expect(none.ok && none.jobs).toEqual([]);
  });

  test("Greenhouse's list with descriptions over the cap: its department list (no descriptions) is read", async () => {
    answers.set("/v1/boards/largeco/jobs", {
      type: JSON_TYPE,
      body: () =>
        JSON.stringify({
          jobs: [{ id: 1, title: "Engineer", content: "z".repeat(300_000), location: { name: "Berlin" } }],
        }),
    });
    answers.set("/v1/boards/largeco/departments", {
      type: JSON_TYPE,
      body: JSON.stringify({
        departments: [
          {
            id: 11,
            name: "Engineering",
            parent_id: null,
            child_ids: [],
            jobs: [
              {
                id: 1,
                title: "Engineer",
                location: { name: "Berlin" },
                absolute_url: "https://boards.greenhouse.io/largeco/jobs/1",
                updated_at: "2026-11-02T10:00:00-05:00",
              },
            ],
          },
          {
            id: 0,
            name: "No Department",
            jobs: [{ id: 2, title: "Office Manager", location: { name: "Berlin" } }],
          },
        ],
      }),
    });
    const r = await readJobBoard(fetcher, { provider: "greenhouse", token: "largeco" });
    expect(r.ok && r.jobs).toEqual([
      {
        title: "Engineer",
        department: "Engineering",
        location: "Berlin",
        url: "https://boards.greenhouse.io/largeco/jobs/1",
        posted_at: "2026-11-02T15:00:00.000Z",
      },
      { title: "Office Manager", location: "Berlin" },
    ]);
  });
});

test("a reader opens a board's page, never its API", () => {
  expect(hiringPageUrl("https://boards-api.greenhouse.io/v1/boards/globex/jobs?content=true")).toBe(
    "https://boards.greenhouse.io/globex",
  );
  expect(hiringPageUrl("https://api.eu.lever.co/v0/postings/brightloop?mode=json")).toBe(
    "https://jobs.eu.lever.co/brightloop",
  );
  expect(
    hiringPageUrl("https://api.ashbyhq.com/posting-api/job-board/quantive?includeCompensation=true"),
  ).toBe("https://jobs.ashbyhq.com/quantive");
  expect(hiringPageUrl("https://acme.jobs.personio.de/xml")).toBe("https://acme.jobs.personio.de/");
  expect(hiringPageUrl("https://globex.example/careers")).toBe("https://globex.example/careers");
});
