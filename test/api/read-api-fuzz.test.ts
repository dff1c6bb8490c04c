// Property-based: random query strings, path values and credentials at every endpoint. Never a 5xx;
// every 4xx is a complete problem-details body. Bounded and deterministic (fixed seed).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { type Ids, loadFixture } from "../support/read-api-fixture.ts";

const RUNS = 200;
const SEED = 20261120;
const CODES: Record<string, number> = {
  invalid_request: 400,
  invalid_api_key: 401,
  paid_plan_required: 402,
  forbidden: 403,
  not_found: 404,
  unprocessable_content: 422,
  rate_limited: 429,
  internal_error: 500,
};

let t: TestServer;
let key: string;
let ids: Ids;
beforeAll(async () => {
  t = await startTestServer({ RIVALS_RATE_LIMIT: "1000000" });
  ({ key, ids } = await loadFixture(t));
});
afterAll(() => t.close());

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
});
const hexByte = fc
  .integer({ min: 0, max: 255 })
  .map((n) => `%${n.toString(16).padStart(2, "0").toUpperCase()}`);

/** Any text a client might put in a path segment or a query value. */
const anyValue = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary", minLength: 100, maxLength: 400 }),
  fc.string({ unit: "grapheme-ascii", minLength: 1000, maxLength: 4000 }),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
  fc.array(hexByte, { minLength: 1, maxLength: 8 }).map((a) => a.join("")),
  fc.constantFrom(
    "..",
    "%2e%2e",
    "../..",
    ".",
    "%",
    "%%",
    "%zz",
    "%00",
    "0",
    "-1",
    "-0",
    "1e3",
    "0x10",
    "NaN",
    "Infinity",
    "9007199254740993",
    "99999999999999999999999",
    "2026-11-05",
    "week-45",
    "high",
    "' OR 1=1 --",
    '"',
    "*",
    "AND",
    "NEAR(",
    "%2F",
    "a/b",
    "?x=1",
    "#frag",
    " ",
    "\u0000",
    "\uFFFF",
    "\uD800",
    "😀",
  ),
);

const encodeLoose = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return v; // lone surrogates: send as they are
  }
};

/** A path segment: raw or percent-encoded. */
const segment = fc.tuple(anyValue, fc.boolean()).map(([v, enc]) => (enc ? encodeLoose(v) : v));

/** A query string of known and unknown parameters, values raw or encoded, names sometimes repeated. */
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom("competitor_id", "severity", "since", "q", "page", "per_page", "type", "id"),
        printable,
      ),
      fc.oneof(anyValue, fc.integer({ min: -5, max: 100 }).map(String)),
      fc.boolean(),
    ),
    { maxLength: 6 },
  )
  .map((pairs) =>
    pairs.length === 0
      ? ""
      : `?${pairs.map(([n, v, enc]) => `${encodeLoose(n)}=${enc ? encodeLoose(v) : v}`).join("&")}`,
  );

/** Credentials: usually the valid key (to reach the handlers), otherwise every kind of wrong. */
const keyHeaders = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom<Record<string, string>>({ authorization: "" }, { "x-api-key": "" }),
  },
  { weight: 1, arbitrary: fc.constant<Record<string, string>>({}) },
  { weight: 1, arbitrary: printable.map((v) => ({ authorization: v })) },
  { weight: 1, arbitrary: printable.map((v) => ({ authorization: `Bearer ${v}` })) },
  { weight: 1, arbitrary: printable.map((v) => ({ "x-api-key": v })) },
  { weight: 1, arbitrary: printable.map((v) => ({ "x-api-key": "", authorization: `Bearer ${v}` })) },
  { weight: 1, arbitrary: printable.map((v) => ({ authorization: "", "x-api-key": v })) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 52 }).map((i) => ({ authorization: `Bearer mutate:${i}` })),
  },
);

/** Sometimes an If-None-Match too: junk, `*` (304 wherever a 200 would be) or a weak tag. */
const credentials = fc
  .tuple(
    keyHeaders,
    fc.option(
      fc.oneof(
        printable.map((v) => `x${v}`),
        fc.constant("*"),
        fc.constant('W/"1-1-50"'),
      ),
      {
        nil: undefined,
      },
    ),
  )
  .map(([h, inm]) => (inm === undefined ? h : { ...h, "if-none-match": inm }));

/** Fills the placeholders: "" means the valid key; `mutate:i` changes character i of it. */
function resolveHeaders(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === "") out[k] = k === "authorization" ? `Bearer ${key}` : key;
    else if (v.startsWith("Bearer mutate:")) {
      const i = Number(v.slice("Bearer mutate:".length));
      const c = key[i] === "A" ? "B" : "A";
      out[k] = `Bearer ${key.slice(0, i)}${c}${key.slice(i + 1)}`;
    } else out[k] = v;
  }
  return out;
}

function checkProblem(status: number, contentType: string | null, body: Record<string, unknown>) {
  expect(contentType).toStartWith("application/problem+json");
  expect(typeof body.code).toBe("string");
  const code = body.code as string;
  expect(CODES[code]).toBe(status);
  expect(body.type).toBe(`${t.base}/developers#errors-${code}`);
  expect(typeof body.title).toBe("string");
  expect(body.status).toBe(status);
  expect(typeof body.detail).toBe("string");
  expect((body.detail as string).length).toBeGreaterThan(0);
  expect(typeof body.hint).toBe("string");
  if (body.instance !== undefined) expect(typeof body.instance).toBe("string");
  if (body.request_id !== undefined) expect(typeof body.request_id).toBe("string");
  expect(body.error).toBe(body.detail);
}

/** Bun's HTTP parser answers 431 with an empty body for request heads over 16 KiB, before any
 * application code runs; the fuzz stays below that (read-api-problems covers long URLs). */
const MAX_URL = 12_000;

/** What the fuzz reached, per test: status → count ("skipped" for requests never sent). */
let seen: Record<string, number> = {};
const note = (k: string | number) => {
  seen[k] = (seen[k] ?? 0) + 1;
};

async function probe(path: string, headers: Record<string, string>) {
  if (new TextEncoder().encode(new URL(path, t.base).href).length > MAX_URL) return note("skipped");
  // `/api/..` normalizes to a path outside the API (the site's pages answer there, in HTML).
  if (!new URL(path, t.base).pathname.startsWith("/api/")) return note("skipped");
  let r: Response;
  try {
    r = await fetch(t.base + path, { headers: resolveHeaders(headers) });
  } catch (e) {
    // The client refused to send it (an invalid URL or header): nothing reached the server.
    if (e instanceof TypeError) return note("skipped");
    throw e;
  }
  const text = await r.text();
  note(r.status);
  if (r.status >= 500) throw new Error(`${r.status} for GET ${path}: ${text.slice(0, 300)}`);
  if (r.status >= 400) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${r.status} for GET ${path} is not JSON: ${text.slice(0, 200)}`);
    }
    checkProblem(r.status, r.headers.get("content-type"), body);
  } else if (r.status === 304) {
    expect(text).toBe("");
    expect(r.headers.get("etag")).toBeTruthy();
  } else {
    expect(r.status).toBe(200);
    const body = JSON.parse(text);
    expect(body.data).toBeDefined();
  }
}

const params = { numRuns: RUNS, seed: SEED, endOnFailure: true };

/** The fuzz is only worth something if it reaches the handlers and their errors, not just the gate. */
function expectReached(statuses: number[]) {
  const sent = Object.entries(seen)
    .filter(([k]) => k !== "skipped")
    .reduce((n, [, v]) => n + v, 0);
  expect(sent).toBeGreaterThan(RUNS * 0.9);
  for (const s of statuses) expect(seen[s] ?? 0).toBeGreaterThan(0);
  if (process.env.FUZZ_VERBOSE) console.log(JSON.stringify(seen));
}

describe("fuzz: never a 5xx, always a problem body on 4xx", () => {
  const lists = ["/api/v1/competitors", "/api/v1/signals", "/api/v1/digests", "/api/v1/battlecards"];
  for (const path of lists) {
    test(`GET ${path} with random queries and credentials`, async () => {
      seen = {};
      await fc.assert(
        fc.asyncProperty(queryString, credentials, (qs, h) => probe(path + qs, h)),
        params,
      );
      expectReached(
        path.endsWith("signals") || path.endsWith("digests") ? [200, 304, 400, 401] : [200, 304, 401],
      );
    });
  }

  for (const kind of ["competitors", "signals", "digests", "battlecards"] as const) {
    test(`GET /api/v1/${kind}/{id} with random ids, queries and credentials`, async () => {
      const real = () => Object.values(ids[kind]).map(String);
      const idValue = fc.oneof(segment, fc.constantFrom(...real()), fc.constantFrom("week-45", "draft-one"));
      seen = {};
      await fc.assert(
        fc.asyncProperty(idValue, queryString, credentials, (id, qs, h) =>
          probe(`/api/v1/${kind}/${id}${qs}`, h),
        ),
        params,
      );
      expectReached([200, 401, 404]);
    });
  }

  test("GET random paths under /api", async () => {
    const path = fc
      .array(fc.oneof(segment, fc.constantFrom("api", "v1", "v2", "competitors", "signals", "..")), {
        minLength: 0,
        maxLength: 5,
      })
      .map((segs) => `/api/${segs.join("/")}`);
    seen = {};
    await fc.assert(
      fc.asyncProperty(path, queryString, credentials, (p, qs, h) => probe(p + qs, h)),
      params,
    );
    expectReached([404]);
  });
});
