import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestServer } from "../support/helpers.ts";
import {
  expectProblem,
  fixtureLines,
  getJson,
  type Ids,
  startFixtureServer,
} from "../support/read-api-fixture.ts";

let t: TestServer;
let key: string;
let ids: Ids;
beforeAll(async () => ({ t, key, ids } = await startFixtureServer()));
afterAll(() => t.close());

type Sig = { id: number; title: string; competitor_id?: number };
const titles = (body: { data: Sig[] }) => body.data.map((s) => s.title);
const list = async (qs: string) => {
  const r = await getJson(t, `/api/v1/signals${qs}`, key);
  expect(r.status).toBe(200);
  return r.body;
};

/** GET /api/v1/signals with one query parameter, its value URL-encoded; any status. */
const getSignalsWith = (name: string, value: string) =>
  getJson(t, `/api/v1/signals?${name}=${encodeURIComponent(value)}`, key);

// The open signals of tracked competitors, newest first (same first_seen_at: higher id first).
const FEED = [
  "Alpha raises prices",
  "Alpha hires a CRO",
  "Alpha launches AI assistant",
  "Beta opens a Berlin office",
  'Beta: "quoted" AND NOT launch*',
  "Gamma AI pivot",
  "Gamma undated note",
];

/** The expected `q` result, computed from the fixture itself: case-insensitive substring on title or summary. */
function oracle(q: string): string[] {
  const lines = fixtureLines().filter((l) => l.kind === "signal");
  const byTitle = new Map(lines.map((l) => [l.title as string, l]));
  return FEED.filter((title) => {
    const l = byTitle.get(title)!;
    const hay = [l.title, l.summary ?? ""].map((x) => (x as string).toLowerCase());
    return hay.some((h) => h.includes(q.toLowerCase()));
  });
}

describe("GET /api/v1/signals", () => {
  test("open signals of tracked competitors only, newest first, with defaults echoed", async () => {
    const body = await list("");
    expect(Object.keys(body).sort()).toEqual(["data", "page", "per_page"]);
    expect(body.page).toBe(1);
    expect(body.per_page).toBe(50);
    expect(titles(body)).toEqual(FEED);
    // Ties on first_seen_at break by id, descending.
    expect(ids.signals.a3).toBeGreaterThan(ids.signals.a2);
    for (const s of body.data) expect(s.status).toBe("open");
  });

  test("every signal carries evidence (even empty) and its app link; blank fields omitted", async () => {
    const body = await list("");
    for (const s of body.data) {
      expect(Array.isArray(s.evidence)).toBe(true);
      expect(s.url).toBe(`${t.base}/app/signals/${s.id}`);
    }
    const a3 = body.data.find((s: Sig) => s.title === "Alpha hires a CRO");
    expect(a3).toEqual({
      id: ids.signals.a3,
      competitor_id: ids.competitors.alpha,
      competitor_name: "Alpha Corp",
      title: "Alpha hires a CRO",
      severity: "low",
      status: "open",
      first_seen_at: "2026-11-05T00:00:00.000Z",
      evidence: [],
      url: `${t.base}/app/signals/${ids.signals.a3}`,
    });
  });

  test("filter competitor_id", async () => {
    expect(titles(await list(`?competitor_id=${ids.competitors.alpha}`))).toEqual(FEED.slice(0, 3));
    expect(titles(await list(`?competitor_id=${ids.competitors.gamma}`))).toEqual(FEED.slice(5));
    // Untracked or unknown competitors give an empty list, not their signals.
    for (const k of ["paused", "removed", "pending"])
      expect((await list(`?competitor_id=${ids.competitors[k]}`)).data).toEqual([]);
    expect((await list("?competitor_id=424242")).data).toEqual([]);
  });

  test("filter severity", async () => {
    expect(titles(await list("?severity=high"))).toEqual([
      "Alpha raises prices",
      'Beta: "quoted" AND NOT launch*',
    ]);
    expect(titles(await list("?severity=medium"))).toEqual([
      "Alpha launches AI assistant",
      "Beta opens a Berlin office",
    ]);
    expect(titles(await list("?severity=low"))).toEqual(["Alpha hires a CRO"]);
  });

  test("filter since is inclusive and accepts dates, offsets and fractions", async () => {
    const onOrAfterNov5 = FEED.slice(0, 3);
    for (const since of [
      "2026-11-05T00:00:00Z",
      "2026-11-05",
      "2026-11-05T01:00:00%2B01:00",
      "2026-11-05T00:00:00.000Z",
      "2026-11-04T19:00:00-05:00",
    ])
      expect(titles(await list(`?since=${since}`))).toEqual(onOrAfterNov5);
    expect(titles(await list("?since=2026-11-05T00:00:00.001Z"))).toEqual(["Alpha raises prices"]);
    expect((await list("?since=2027-01-01T00:00:00Z")).data).toEqual([]);
    // Undated signals never pass a since filter.
    expect(titles(await list("?since=1970-01-01"))).toEqual(FEED.slice(0, 6));
  });

  test.each([
    "yesterday",
    "",
    "2026-13-01",
    "2026-02-30",
    "2026-11-05T25:00:00Z",
    "1730000000",
    "2026-11-05T00:00:00Zjunk",
  ])("since=%p is 400 invalid_request naming since", async (since) => {
    const r = await getSignalsWith("since", since);
    expectProblem(r, t.base, "invalid_request", 400);
    expect(r.body.detail).toContain("since");
  });

  test("q matches title or summary, case-insensitively, through FTS and the short-term fallback", async () => {
    expect(titles(await list("?q=RAISES"))).toEqual(["Alpha raises prices"]);
    expect(titles(await list("?q=writes%20sql"))).toEqual(["Alpha launches AI assistant"]);
    expect(titles(await list("?q=ai"))).toEqual(oracle("ai"));
    expect(oracle("ai").length).toBeGreaterThan(1);
    expect(titles(await list("?q=AI"))).toEqual(oracle("ai"));
    expect(titles(await list("?q=e"))).toEqual(oracle("e"));
    expect(titles(await list("?q=nothing-like-this"))).toEqual([]);
    // Hidden signals are never found.
    expect((await list("?q=secret")).data).toEqual([]);
    expect((await list("?q=old%20rumour")).data).toEqual([]);
  });

  test.each([
    '"',
    '""',
    '"""',
    '"quoted"',
    "AND",
    "and not",
    "NOT",
    "OR",
    "*",
    "launch*",
    "%",
    "_",
    "100%",
    "y_i",
    "\\",
    "NEAR(",
    "( )",
    "^",
    "-",
    "+",
    "' OR 1=1 --",
    "title:alpha",
    "{title}",
    "é",
    "Berlin office",
    "  ",
  ])("q=%p never breaks and matches literally", async (q) => {
    const r = await getSignalsWith("q", q);
    expect(r.status).toBe(200);
    // An all-blank q matches everything containing it; the oracle says what that is.
    expect(titles(r.body)).toEqual(oracle(q));
  });

  test("combined filters", async () => {
    const alpha = ids.competitors.alpha;
    expect(titles(await list(`?competitor_id=${alpha}&severity=low&since=2026-11-01`))).toEqual([
      "Alpha hires a CRO",
    ]);
    expect(titles(await list("?q=alpha&severity=high"))).toEqual(["Alpha raises prices"]);
    expect(titles(await list(`?q=beta&competitor_id=${alpha}`))).toEqual([]);
    expect(titles(await list("?q=be&since=2026-10-15"))).toEqual(["Beta opens a Berlin office"]);
    expect(titles(await list(`?q=pri&competitor_id=${alpha}&severity=high&per_page=1&page=1`))).toEqual([
      "Alpha raises prices",
    ]);
  });

  test("pagination slices the feed and echoes page and per_page", async () => {
    const pages: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const body = await list(`?per_page=2&page=${page}`);
      expect(body.page).toBe(page);
      expect(body.per_page).toBe(2);
      expect(body.data.length).toBe(page < 4 ? 2 : 1);
      pages.push(...titles(body));
    }
    expect(pages).toEqual(FEED);
    const past = await list("?per_page=2&page=5");
    expect(past).toEqual({ data: [], page: 5, per_page: 2 });
  });

  test("per_page above 50 is clamped and echoed as 50", async () => {
    for (const n of [51, 1000, 999999999]) {
      const body = await list(`?per_page=${n}`);
      expect(body.per_page).toBe(50);
      expect(body.data.length).toBe(FEED.length);
    }
  });

  test.each([
    ["page", "0"],
    ["page", "-1"],
    ["page", "abc"],
    ["page", "1.5"],
    ["page", ""],
    ["per_page", "0"],
    ["per_page", "-5"],
    ["per_page", "ten"],
    ["per_page", "2.0"],
    ["competitor_id", "abc"],
    ["competitor_id", "1.5"],
    ["severity", "HIGH"],
    ["severity", "critical"],
    ["severity", ""],
  ])("%s=%p is 400 invalid_request naming the parameter", async (name, value) => {
    const r = await getSignalsWith(name, value);
    expectProblem(r, t.base, "invalid_request", 400);
    expect(r.body.detail).toContain(name);
  });

  test("unknown query parameters are ignored", async () => {
    expect(titles(await list("?foo=bar&sort=asc"))).toEqual(FEED);
  });
});

describe("GET /api/v1/signals/{id}", () => {
  test("returns the full signal with evidence", async () => {
    const r = await getJson(t, `/api/v1/signals/${ids.signals.a1}`, key);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: {
        id: ids.signals.a1,
        competitor_id: ids.competitors.alpha,
        competitor_name: "Alpha Corp",
        title: "Alpha raises prices",
        summary: "Team plan up 20 percent.",
        category: "pricing",
        // imported as price_change; the title says it rose (docs/import.md, one vocabulary)
        type: "price_increase",
        severity: "high",
        status: "open",
        first_seen_at: "2026-11-10T08:00:00.000Z",
        last_seen_at: "2026-11-12T08:00:00.000Z",
        confidence: 0.92,
        topics: ["pricing", "plans"],
        evidence: [
          {
            text: "Team — $59",
            source_title: "Alpha pricing",
            source_url: "https://alpha.example/pricing",
            observed_at: "2026-11-10T08:00:00.000Z",
          },
        ],
        url: `${t.base}/app/signals/${ids.signals.a1}`,
      },
    });
  });

  test("a closed signal is readable by id", async () => {
    const r = await getJson(t, `/api/v1/signals/${ids.signals["a-closed"]}`, key);
    expect(r.status).toBe(200);
    expect(r.body.data.status).toBe("closed");
    expect(r.body.data.evidence).toEqual([]);
  });

  test.each(["p1", "r1", "pe1"])("signal %s of an untracked competitor is 404", async (k) => {
    const r = await getJson(t, `/api/v1/signals/${ids.signals[k]}`, key);
    expectProblem(r, t.base, "not_found", 404);
    expect(r.body.detail).toContain("signal");
  });

  test("ids of other record kinds and junk are 404", async () => {
    for (const p of [String(ids.competitors.alpha), String(ids.digests["d-weekly-1"]), "x", "99999999"]) {
      const r = await getJson(t, `/api/v1/signals/${p}`, key);
      expectProblem(r, t.base, "not_found", 404);
    }
  });
});
