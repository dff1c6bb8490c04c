// The served OpenAPI document: lint-clean (redocly), JSON and YAML alike, and true to the API: every response
// the running API sends, success and each error kind, validates against the document's schema for that path
// and status (Ajv, JSON Schema 2020-12), with its media type and documented headers. Every documented
// (operation, status) pair must be exercised here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "../../src/api/openapi.ts";
import { createApp } from "../../src/app.ts";
import { PROBLEM_CODES, PROBLEMS } from "../../src/contract/problem.ts";
import { READ_API_PATHS, startTestServer, type TestServer } from "../support/helpers.ts";

type Obj = Record<string, any>;

let main: TestServer;
let limited: TestServer;
let broken: TestServer;
let doc: Obj;
let yamlText: string;
let key: string;
let freeKey: string;
let brokenKey: string;
const ids: Record<string, number> = {};

function fixture(org: string): object[] {
  return [
    {
      kind: "competitor",
      org,
      key: "globex",
      name: "Globex",
      description: "Globex sells analytics to product teams.",
      website_url: "https://globex.example",
      category: "Analytics",
      industry: "Software",
      company_type: "scale-up",
      business_model: "SaaS",
      company_size: 420,
      founding_year: 2012,
      headquarters: { city: "Lisbon", country: "PT" },
      target_customer: "Mid-market product teams",
      ownership: { type: "subsidiary", parent_company_name: "Globex Holdings", public: true, ticker: "GLBX" },
      urls: {
        pricing: "https://globex.example/pricing",
        docs: "https://docs.globex.example/",
        changelog: "https://globex.example/changelog",
        careers: "https://globex.example/careers",
        linkedin: "https://www.linkedin.com/company/globex",
        github: "https://github.com/globex",
        x: "https://x.com/globex",
      },
      watch: "core",
      tracking: "active",
      priority: 1,
      tracked_since: "2026-01-05T09:00:00Z",
      workspace: {
        relative_risk: "high",
        relative_opportunity: "medium",
        icp_overlap: { industries: ["saas"], score: 0.7 },
      },
      reads: {
        positioning: "The analytics platform for product teams.",
        product: { launches: ["AI assistant"], maturity: "established" },
        pricing: { model: "per seat", plans: [{ name: "Team", price: 59 }] },
        ai: { features: ["SQL assistant"] },
        traffic: { monthly_visits: 1200000 },
        market: { segment: "mid-market" },
        regulation: { certifications: ["SOC 2"] },
        tech_stack: { frontend: ["React"] },
        integrations: { count: 40 },
        release_cadence: { per_month: 6 },
        hiring: { estimated_headcount: 420, open_roles: 12 },
        funding: { estimated_revenue_text: "$40M ARR", ownership_summary: "Owned by Globex Holdings" },
        fortnight: {
          written_at: "2026-11-15T10:00:00Z",
          sentences: [{ text: "Globex raised prices.", kind: "pricing" }, { text: "It shipped AI." }],
        },
      },
      freshness: {
        state_updated_at: "2026-11-19T00:00:00Z",
        last_signal_at: "2026-11-18T00:00:00Z",
        last_snapshot_at: "2026-11-17T00:00:00Z",
      },
      internal: { discovery_source: "crawler", team_notes: "do not leak" },
    },
    { kind: "competitor", org, key: "initech", name: "Initech", watch: "horizon" },
    { kind: "competitor", org, key: "paused", name: "Paused Co", tracking: "paused" },
    {
      kind: "signal",
      org,
      key: "s-price",
      competitor: "globex",
      title: "Globex raises prices",
      summary: "Team plan up 20 percent.",
      category: "pricing",
      type: "price_change",
      severity: "high",
      first_seen_at: "2026-11-10T08:00:00Z",
      last_seen_at: "2026-11-12T08:00:00Z",
      confidence: 0.92,
      topics: ["pricing", "plans"],
      evidence: [
        {
          text: "Team — $59",
          source_title: "Globex pricing",
          source_url: "https://globex.example/pricing",
          observed_at: "2026-11-10T08:00:00Z",
        },
        { text: "Announced on the blog." },
      ],
    },
    { kind: "signal", org, key: "s-bare", competitor: "initech", title: "Initech hires a CRO" },
    {
      kind: "signal",
      org,
      key: "s-closed",
      competitor: "globex",
      title: "Globex old rumour",
      status: "closed",
      severity: "low",
      first_seen_at: "2026-10-01T00:00:00Z",
    },
    { kind: "signal", org, key: "s-paused", competitor: "paused", title: "Paused Co moves" },
    {
      kind: "digest",
      org,
      key: "d-week",
      slug: "week-46",
      type: "weekly_tldr",
      status: "generated",
      title: "Week 46",
      headline: "Globex moves on price",
      tldr: "Prices up.",
      what_to_watch: "Initech sales hires",
      coverage_period_start: "2026-11-09T00:00:00Z",
      coverage_period_end: "2026-11-16T00:00:00Z",
      generated_at: "2026-11-16T06:00:00Z",
      items: [{ title: "Globex raises prices", severity: "high" }],
      markdown: "# Week 46\n\nPrices up.",
      signals: ["s-price", "s-bare"],
    },
    {
      kind: "digest",
      org,
      key: "d-day",
      type: "daily_digest",
      coverage_period_start: "2026-11-18T00:00:00Z",
      coverage_period_end: "2026-11-19T00:00:00Z",
    },
    { kind: "digest", org, key: "d-draft", slug: "draft-1", type: "weekly_tldr", status: "draft" },
    {
      kind: "battlecard",
      org,
      key: "b-globex",
      competitor: "globex",
      status: "generated",
      generated_at: "2026-11-18T12:00:00Z",
      sections: {
        overview: "Globex is the incumbent.",
        strengths: ["Brand"],
        weaknesses: ["Price"],
        talk_tracks: ["Lead with total cost."],
        objections: ["We already use Globex."],
      },
      evidence: { sources: [{ url: "https://globex.example/pricing" }] },
    },
    { kind: "battlecard", org, key: "b-initech", competitor: "initech", status: "generating" },
  ];
}

async function idOf(table: string, keyName: string): Promise<number> {
  const r = await main.services.database.client.execute({
    sql: `SELECT id FROM ${table} WHERE key = ?`,
    args: [keyName],
  });
  return Number(r.rows[0].id);
}

beforeAll(async () => {
  [main, limited, broken] = await Promise.all([
    startTestServer(),
    startTestServer({ RIVALS_RATE_LIMIT: "2" }),
    startTestServer(),
  ]);
  await main.org("acme");
  await main.org("freeco", "free");
  key = await main.key("acme");
  freeKey = await main.key("freeco");
  const report = await main.load(fixture("acme"));
  expect(report.errors).toEqual([]);
  for (const [name, table, k] of [
    ["globex", "competitors", "globex"],
    ["initech", "competitors", "initech"],
    ["paused", "competitors", "paused"],
    ["sPrice", "signals", "s-price"],
    ["sClosed", "signals", "s-closed"],
    ["sPaused", "signals", "s-paused"],
    ["dWeek", "digests", "d-week"],
    ["dDay", "digests", "d-day"],
    ["bGlobex", "battlecards", "b-globex"],
    ["bInitech", "battlecards", "b-initech"],
  ] as const)
    ids[name] = await idOf(table, k);
  await broken.org("acme");
  brokenKey = await broken.key("acme");
  doc = await (await main.get("/openapi.json")).json();
  yamlText = await (await main.get("/developers/openapi.yaml")).text();
});

afterAll(async () => {
  await Promise.all([main?.close(), limited?.close(), broken?.close().catch(() => {})]);
});

// ---- validation against the served document ----

const BASE_ID = "https://rivals.test/openapi.json";
const REDOCLY = join(import.meta.dir, "..", "..", "node_modules", ".bin", "redocly");
const SPECTRAL = join(import.meta.dir, "..", "..", "node_modules", ".bin", "spectral");
let ajv: Ajv2020 | undefined;

/** Closed objects: a property the document does not name fails the test (free-form objects stay open). */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== "object") return schema;
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema as Obj))
    out[k] =
      k === "properties"
        ? Object.fromEntries(Object.entries(v as Obj).map(([p, s]) => [p, strict(s)]))
        : strict(v);
  if (out.type === "object" && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function validator() {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    ajv.addKeyword("components");
    ajv.addSchema({ $id: BASE_ID, components: { schemas: strict(doc.components.schemas) } });
  }
  return ajv;
}

function resolve(o: Obj): Obj {
  if (typeof o.$ref !== "string") return o;
  const parts = o.$ref.replace(/^#\//, "").split("/");
  return resolve(parts.reduce((x: Obj, p: string) => x[p], doc));
}

const exercised = new Set<string>();

/** Checks one real response against the document for the route `template` (an /api/v1 path with `{id}`). */
/** Every documented header of the response is there when required, and matches its schema. */
function expectDocumentedHeaders(res: Response, response: Obj) {
  for (const [name, h] of Object.entries((response.headers as Obj | undefined) ?? {})) {
    const header = resolve(h as Obj);
    const value = res.headers.get(name);
    if (header.required)
      expect({ header: name, present: value !== null }).toEqual({ header: name, present: true });
    if (value === null) continue;
    const v = header.schema.type === "integer" ? Number(value) : value;
    const check = validator().compile(header.schema);
    expect({ header: name, value, ok: check(v) }).toEqual({ header: name, value, ok: true });
  }
}

async function expectDocumented(
  res: Response,
  template: string,
  status: number,
  base = main.base,
): Promise<Obj> {
  const text = await res.text();
  expect({ template, status: res.status, body: text.slice(0, 300) }).toMatchObject({ status });
  const op = doc.paths[template]?.get;
  expect(op).toBeDefined();
  const documented = op.responses[String(status)];
  expect(documented).toBeDefined();
  exercised.add(`${template} ${status}`);
  const response = resolve(documented);
  const mediaType = (res.headers.get("content-type") ?? "").split(";")[0].trim();
  if (response.content === undefined) {
    // A documented response without content (304): no body at all, and its documented headers.
    expect({ template, status, text }).toEqual({ template, status, text: "" });
    expectDocumentedHeaders(res, response);
    return {};
  }
  expect(Object.keys(response.content)).toEqual([mediaType]);
  const body = JSON.parse(text);
  const schema = response.content[mediaType].schema;
  const validate = validator().getSchema(`${BASE_ID}${schema.$ref}`);
  expect(validate).toBeDefined();
  const ok = validate!(body);
  expect({ template, status, errors: ok ? null : validate!.errors, body: ok ? null : body }).toEqual({
    template,
    status,
    errors: null,
    body: null,
  });
  expectDocumentedHeaders(res, response);
  if (mediaType === "application/problem+json") {
    expect(body.status).toBe(status);
    expect(PROBLEMS[body.code as keyof typeof PROBLEMS].status as number).toBe(status);
    expect(body.type).toBe(`${base}/developers#errors-${body.code}`);
  }
  return body;
}

const bearer = () => ({ authorization: `Bearer ${key}` });

// ---- the document itself ----

describe("document", () => {
  test("is OpenAPI 3.1.0, version 1.0.0, served at the configured base URL", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers).toEqual([
      { url: main.base, description: expect.any(String), "x-internal": expect.any(Boolean) },
    ]);
  });

  test("the YAML document is the JSON document", async () => {
    const r = await main.get("/developers/openapi.yaml");
    expect(r.headers.get("content-type")).toStartWith("application/yaml");
    expect(Bun.YAML.parse(yamlText)).toEqual(doc);
  });

  test("needs no key and is not rate limited", async () => {
    for (let i = 0; i < 4; i++) await limited.get("/api/v1/competitors");
    for (const path of ["/openapi.json", "/developers/openapi.yaml"]) {
      const r = await limited.get(path);
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit-limit")).toBeNull();
    }
  });

  test("describes exactly the eight read endpoints, each with both security schemes", () => {
    expect(Object.keys(doc.paths)).toEqual(READ_API_PATHS);
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
      apiKeyAuth: { type: "apiKey", in: "header", name: "X-API-Key" },
    });
  });

  test("declares the path and query parameters", () => {
    const params = (p: string) =>
      doc.paths[p].get.parameters
        ?.map((x: Obj) => resolve(x))
        .map((x: Obj) => [x.name, x.in, x.required, x.schema.type]) ?? [];
    // Every operation takes If-None-Match (conditional GET, 304).
    const conditional = ["If-None-Match", "header", false, "string"];
    for (const p of ["/api/v1/competitors/{id}", "/api/v1/signals/{id}", "/api/v1/battlecards/{id}"])
      expect(params(p)).toEqual([["id", "path", true, "integer"], conditional]);
    expect(params("/api/v1/digests/{id}")).toEqual([["id", "path", true, "string"], conditional]);
    expect(params("/api/v1/competitors")).toEqual([conditional]);
    expect(params("/api/v1/battlecards")).toEqual([conditional]);
    expect(params("/api/v1/signals")).toEqual([
      ["competitor_id", "query", false, "integer"],
      ["severity", "query", false, "string"],
      ["since", "query", false, "string"],
      ["q", "query", false, "string"],
      ["page", "query", false, "integer"],
      ["per_page", "query", false, "integer"],
      conditional,
    ]);
    expect(params("/api/v1/digests")).toEqual([
      ["type", "query", false, "string"],
      ["page", "query", false, "integer"],
      ["per_page", "query", false, "integer"],
      conditional,
    ]);
    const severity = doc.paths["/api/v1/signals"].get.parameters[1];
    expect(severity.schema.enum).toEqual(["low", "medium", "high"]);
    const page = doc.paths["/api/v1/signals"].get.parameters[4];
    expect(page.schema).toMatchObject({ minimum: 1, default: 1 });
  });

  test("lists the error statuses of each endpoint as the spec does", () => {
    const statuses = (p: string) => Object.keys(doc.paths[p].get.responses);
    const common = ["200", "304", "401", "402", "429", "500"];
    expect(statuses("/api/v1/competitors")).toEqual(common);
    expect(statuses("/api/v1/battlecards")).toEqual(common);
    expect(statuses("/api/v1/signals")).toEqual(["200", "304", "400", "401", "402", "429", "500"]);
    // page/per_page are validated on the digest list too (DESIGN: 400 invalid_request).
    expect(statuses("/api/v1/digests")).toEqual(["200", "304", "400", "401", "402", "429", "500"]);
    for (const p of ["competitors", "signals", "digests", "battlecards"])
      expect(statuses(`/api/v1/${p}/{id}`)).toEqual(["200", "304", "401", "402", "404", "429", "500"]);
    const problems = Object.values(doc.components.responses) as Obj[];
    for (const r of problems) expect(Object.keys(r.content)).toEqual(["application/problem+json"]);
    expect(Object.keys(doc.components.responses.Unauthorized.headers)).toContain("WWW-Authenticate");
    expect(Object.keys(doc.components.responses.TooManyRequests.headers)).toContain("Retry-After");
    const ok = doc.paths["/api/v1/signals"].get.responses["200"];
    expect(Object.keys(ok.headers)).toEqual([
      "ETag",
      "Cache-Control",
      "RateLimit-Limit",
      "RateLimit-Remaining",
      "RateLimit-Reset",
      "X-Request-Id",
      "Access-Control-Allow-Origin",
    ]);
    // Every counted request carries the RateLimit-* headers, refused or not.
    for (const name of ["BadRequest", "Unauthorized", "PaymentRequired", "NotFound", "TooManyRequests"])
      expect(Object.keys(doc.components.responses[name].headers)).toEqual(
        expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
      );
  });

  test("schemas require exactly the spec's 'Req' fields; Problem.code is the spec's eight codes", () => {
    const s = doc.components.schemas;
    const req = (name: string) => s[name].required ?? [];
    expect(req("CompetitorSummary")).toEqual(["id", "name", "watch"]);
    expect(req("CompetitorDetail")).toEqual(["id", "name", "watch"]);
    expect(req("CompetitorReads")).toEqual([]);
    expect(req("Signal")).toEqual(["id", "title", "evidence", "url"]);
    expect(req("EvidenceItem")).toEqual([]);
    expect(req("Digest")).toEqual(["id", "type", "status", "url"]);
    expect(req("Battlecard")).toEqual(["id", "competitor_id", "status", "url"]);
    expect(req("Problem")).toEqual(["type", "title", "status", "detail", "code", "hint"]);
    expect(req("SignalPage")).toEqual(["data", "page", "per_page"]);
    expect(req("CompetitorList")).toEqual(["data"]);
    expect(s.Problem.properties.code.enum).toEqual(PROBLEM_CODES);
    expect(PROBLEM_CODES).toHaveLength(8);
    expect(s.Problem.properties.error.deprecated).toBe(true);
    expect(s.CompetitorDetail.properties.reads).toEqual({ $ref: "#/components/schemas/CompetitorReads" });
    expect(s.Signal.properties.evidence.items).toEqual({ $ref: "#/components/schemas/EvidenceItem" });
    expect(Object.keys(s.CompetitorDetail.properties)).toEqual([
      "id",
      "name",
      "description",
      "website_url",
      "category",
      "industry",
      "company_type",
      "business_model",
      "company_size",
      "founding_year",
      "headquarters",
      "target_customer",
      "ownership",
      "urls",
      "watch",
      "priority",
      "tracked_since",
      "workspace",
      "reads",
      "freshness",
      "links",
    ]);
  });

  test("passes redocly lint with no errors (JSON and YAML)", () => {
    const dir = mkdtempSync(join(tmpdir(), "rivals-openapi-"));
    try {
      const files = [join(dir, "openapi.json"), join(dir, "openapi.yaml")];
      writeFileSync(files[0], JSON.stringify(doc));
      writeFileSync(files[1], yamlText);
      for (const file of files) {
        const run = Bun.spawnSync([REDOCLY, "lint", file, "--format=json"], {
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        });
        const out = run.stdout.toString();
        const report = JSON.parse(out.slice(out.indexOf("{")));
        const errors = report.problems.filter((p: Obj) => p.severity === "error");
        expect({ file, errors }).toEqual({ file, errors: [] });
        expect(run.exitCode).toBe(0);
        // The only warning left: no license is declared for a self-hosted installation's API.
        expect(report.problems.map((p: Obj) => p.ruleId)).toEqual(["info-license"]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});

describe("OWASP API Security review (Spectral)", () => {
  test("the document of an https installation has zero errors against the checked-in ruleset", () => {
    const dir = mkdtempSync(join(tmpdir(), "rivals-spectral-"));
    try {
      const file = join(dir, "openapi.json");
      const routes = createApp(main.services).app.routes;
      writeFileSync(file, JSON.stringify(openApiDocument(routes, "https://rivals.example")));
      const run = Bun.spawnSync(
        [
          SPECTRAL,
          "lint",
          "-r",
          join(import.meta.dir, "..", "..", ".spectral.yaml"),
          file,
          "-f",
          "json",
          "-q",
        ],
        { env: { ...process.env, NO_COLOR: "1" } },
      );
      const out = run.stdout.toString();
      const problems = JSON.parse(out.slice(out.indexOf("["))) as Obj[];
      const errors = problems.filter((p) => p.severity === 0);
      expect(errors).toEqual([]);
      // Only the two warnings the ruleset explains (free text has no pattern; no 400 where nothing is parsed).
      expect([...new Set(problems.map((p) => p.code))].sort()).toEqual([
        "owasp:api4:2023-string-restricted",
        "owasp:api8:2023-define-error-validation",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  test("a local installation says so; every server states its audience", () => {
    expect(doc.servers).toEqual([
      { url: main.base, description: "This installation (local).", "x-internal": false },
    ]);
  });
});

// ---- real responses ----

describe("real responses validate against the document", () => {
  test("200 from every endpoint, with full and minimal records", async () => {
    const g = (path: string, headers: Record<string, string> = bearer()) => main.get(path, headers);
    const list = await expectDocumented(await g("/api/v1/competitors"), "/api/v1/competitors", 200);
    expect(list.data.map((c: Obj) => c.name)).toEqual(["Globex", "Initech"]);

    const full = await expectDocumented(
      await g(`/api/v1/competitors/${ids.globex}`, { "x-api-key": key }),
      "/api/v1/competitors/{id}",
      200,
    );
    expect(Object.keys(full.data)).toEqual(Object.keys(doc.components.schemas.CompetitorDetail.properties));
    expect(full.data.links).toEqual({
      signals: `/api/v1/signals?competitor_id=${ids.globex}`,
      battlecard_id: ids.bGlobex,
      url: `${main.base}/app/competitors/${ids.globex}`,
    });
    const minimal = await expectDocumented(
      await g(`/api/v1/competitors/${ids.initech}`),
      "/api/v1/competitors/{id}",
      200,
    );
    expect(minimal.data.reads).toBeUndefined();

    for (const query of [
      "",
      `?competitor_id=${ids.globex}&severity=high&since=2026-11-01T00:00:00Z&q=PRICES&page=1&per_page=10`,
      "?per_page=100",
      "?page=5",
      "?q=cr",
    ]) {
      const page = await expectDocumented(await g(`/api/v1/signals${query}`), "/api/v1/signals", 200);
      if (query === "?per_page=100") expect(page.per_page).toBe(50);
    }
    const signal = await expectDocumented(
      await g(`/api/v1/signals/${ids.sPrice}`),
      "/api/v1/signals/{id}",
      200,
    );
    expect(signal.data.evidence).toHaveLength(2);
    const closed = await expectDocumented(
      await g(`/api/v1/signals/${ids.sClosed}`),
      "/api/v1/signals/{id}",
      200,
    );
    expect(closed.data.status).toBe("closed");

    const digests = await expectDocumented(await g("/api/v1/digests"), "/api/v1/digests", 200);
    expect(digests.data.map((d: Obj) => d.id)).toEqual([ids.dDay, ids.dWeek]);
    await expectDocumented(await g("/api/v1/digests?type=weekly_tldr&per_page=1"), "/api/v1/digests", 200);
    const bySlug = await expectDocumented(await g("/api/v1/digests/week-46"), "/api/v1/digests/{id}", 200);
    expect(bySlug.data.items).toHaveLength(1);
    await expectDocumented(await g(`/api/v1/digests/${ids.dDay}`), "/api/v1/digests/{id}", 200);

    const cards = await expectDocumented(await g("/api/v1/battlecards"), "/api/v1/battlecards", 200);
    expect(cards.data.map((b: Obj) => b.id)).toEqual([ids.bGlobex]);
    await expectDocumented(await g(`/api/v1/battlecards/${ids.bGlobex}`), "/api/v1/battlecards/{id}", 200);
    await expectDocumented(await g(`/api/v1/battlecards/${ids.globex}`), "/api/v1/battlecards/{id}", 200);
  });

  test("304 on every endpoint when If-None-Match names the current ETag", async () => {
    const paths: [string, string][] = [
      ["/api/v1/competitors", "/api/v1/competitors"],
      [`/api/v1/competitors/${ids.globex}`, "/api/v1/competitors/{id}"],
      ["/api/v1/signals?per_page=10", "/api/v1/signals"],
      [`/api/v1/signals/${ids.sPrice}`, "/api/v1/signals/{id}"],
      ["/api/v1/digests", "/api/v1/digests"],
      ["/api/v1/digests/week-46", "/api/v1/digests/{id}"],
      ["/api/v1/battlecards", "/api/v1/battlecards"],
      [`/api/v1/battlecards/${ids.bGlobex}`, "/api/v1/battlecards/{id}"],
    ];
    for (const [path, template] of paths) {
      const first = await main.get(path, bearer());
      await first.arrayBuffer();
      const etag = first.headers.get("etag")!;
      await expectDocumented(await main.get(path, { ...bearer(), "if-none-match": etag }), template, 304);
    }
  });

  test("400 invalid_request", async () => {
    for (const [path, template] of [
      ["/api/v1/signals?since=yesterday", "/api/v1/signals"],
      ["/api/v1/signals?severity=urgent", "/api/v1/signals"],
      ["/api/v1/signals?page=0", "/api/v1/signals"],
      ["/api/v1/signals?per_page=abc", "/api/v1/signals"],
      ["/api/v1/signals?competitor_id=x", "/api/v1/signals"],
      ["/api/v1/digests?page=0", "/api/v1/digests"],
      ["/api/v1/digests?per_page=0", "/api/v1/digests"],
    ]) {
      const body = await expectDocumented(await main.get(path, bearer()), template, 400);
      expect(body.code).toBe("invalid_request");
    }
  });

  test("401 invalid_api_key (missing, wrong) and 402 paid_plan_required on every endpoint", async () => {
    for (const template of Object.keys(doc.paths)) {
      const path = template.replace("{id}", "1");
      const missing = await expectDocumented(await main.get(path), template, 401);
      expect(missing.code).toBe("invalid_api_key");
      const wrong = await main.get(path, { authorization: "Bearer rvl_notarealkey" });
      expect(wrong.headers.get("www-authenticate")).toStartWith("Bearer");
      await expectDocumented(wrong, template, 401);
      const paid = await expectDocumented(await main.get(path, { "x-api-key": freeKey }), template, 402);
      expect(paid.code).toBe("paid_plan_required");
    }
  });

  test("404 not_found: unknown, not visible, other kind and non-numeric ids", async () => {
    const cases: [string, string][] = [
      ["/api/v1/competitors/999999", "/api/v1/competitors/{id}"],
      [`/api/v1/competitors/${ids.paused}`, "/api/v1/competitors/{id}"],
      ["/api/v1/competitors/abc", "/api/v1/competitors/{id}"],
      ["/api/v1/signals/999999", "/api/v1/signals/{id}"],
      [`/api/v1/signals/${ids.sPaused}`, "/api/v1/signals/{id}"],
      ["/api/v1/signals/1e3", "/api/v1/signals/{id}"],
      ["/api/v1/digests/no-such-digest", "/api/v1/digests/{id}"],
      ["/api/v1/digests/draft-1", "/api/v1/digests/{id}"],
      ["/api/v1/battlecards/999999", "/api/v1/battlecards/{id}"],
      [`/api/v1/battlecards/${ids.bInitech}`, "/api/v1/battlecards/{id}"],
    ];
    for (const [path, template] of cases) {
      const body = await expectDocumented(await main.get(path, bearer()), template, 404);
      expect(body.code).toBe("not_found");
    }
  });

  test("429 rate_limited with Retry-After on every endpoint", async () => {
    for (const template of Object.keys(doc.paths)) {
      const path = template.replace("{id}", "1");
      let r = await limited.get(path);
      while (r.status !== 429) {
        await r.arrayBuffer();
        r = await limited.get(path);
      }
      const body = await expectDocumented(r, template, 429, limited.base);
      expect(body.code).toBe("rate_limited");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });

  test("500 internal_error on every endpoint when storage fails", async () => {
    broken.services.database.client.close();
    const error = console.error;
    console.error = () => {};
    try {
      for (const template of Object.keys(doc.paths)) {
        const path = template.replace("{id}", "1");
        const res = await broken.get(path, { "x-api-key": brokenKey });
        const body = await expectDocumented(res, template, 500, broken.base);
        expect(body.code).toBe("internal_error");
        expect(JSON.stringify(body)).not.toContain("client");
      }
    } finally {
      console.error = error;
    }
  });

  test("every documented (operation, status) was exercised above", () => {
    const documented = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys((item as Obj).get.responses).map((s) => `${p} ${s}`),
    );
    expect(documented.filter((d) => !exercised.has(d))).toEqual([]);
  });
});
