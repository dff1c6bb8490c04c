// The read API's response objects and its problem body, declared once as TypeBox schemas, and the OpenAPI
// details of each route. `required` lists the fields the contract requires (the first argument of `fields`);
// every other field is omitted when blank. api/openapi.ts turns these into the served document: a schema with
// an `$id` is named under components.schemas and becomes a `$ref` wherever it is used. The tests validate real
// responses against that document.
//
// Every string, integer and array carries the bound the implementation holds it to (domain/limits.ts): the
// importer refuses longer input and contract/fit.ts fits every projected object to these schemas.
import { Type as T, type TObject, type TProperties, type TSchema } from "@sinclair/typebox";
import {
  LIST,
  MAX_COMPANY_SIZE,
  MAX_ID,
  PRIORITY,
  PROBLEM_TEXT,
  REQUEST_ID_MAX,
  TEXT,
} from "../domain/limits.ts";
import { MAX_PAGE, MAX_PER_PAGE } from "./pagination.ts";
import { PROBLEM_CODES, type ProblemCode } from "./problem.ts";

const opts = (description?: string) => (description ? { description } : {});
/** A string of at most `max` characters. */
const text = (max: number, description?: string) => T.String({ maxLength: max, ...opts(description) });
const str = (description?: string) => text(TEXT.label, description);
const para = (description?: string) => text(TEXT.text, description);
const title = (description?: string) => text(TEXT.title, description);
/** A record id. */
const id = (description?: string) =>
  T.Integer({ format: "int64", minimum: 1, maximum: MAX_ID, ...opts(description) });
/** ts: ISO 8601 date-time string. */
const ts = (description?: string) =>
  T.String({ format: "date-time", maxLength: TEXT.timestamp, ...opts(description) });
/** url: string in URI format. */
const url = (description?: string) => T.String({ format: "uri", maxLength: TEXT.url, ...opts(description) });
const list = (item: TSchema, max: number, description?: string) =>
  T.Array(item, { maxItems: max, ...opts(description) });

/** The properties, each optional except the `required` ones. */
function fields<P extends TProperties>(required: (keyof P & string)[], props: P): P {
  return Object.fromEntries(
    Object.entries(props).map(([k, v]) => [k, required.includes(k) ? v : T.Optional(v)]),
  ) as P;
}
/** An object whose fields are all optional (omitted when blank). */
const optionalObject = (props: TProperties, description?: string): TObject =>
  T.Object(fields([], props), opts(description));
/** A free-form object: clients must tolerate keys added over time (docs/decisions.md). */
const freeForm = (description: string, props: TProperties = {}): TObject =>
  T.Object(fields([], props), { additionalProperties: true, description });
const watch = T.Union([T.Literal("core"), T.Literal("horizon")], {
  description: "core (the watchlist) or horizon (kept in view).",
});

export const CompetitorSummary = T.Object(
  fields(["id", "name", "watch"], {
    id: id("Competitor id."),
    name: text(TEXT.name),
    website_url: url(),
    category: str(),
    watch,
    tracked_since: ts(),
    url: url("Link to the competitor page in the app."),
  }),
  { $id: "CompetitorSummary", description: "A tracked competitor, as listed." },
);

const figure = (description: string) => T.Number({ minimum: 0, description });
const PERIOD = T.Union([T.Literal("month"), T.Literal("year"), T.Literal("one_time")], {
  description:
    "The period `amount` is billed for: month, year or one_time; absent when the page states none.",
});

/** One plan of the pricing read (domain/pricingRead.ts names its price fields). */
export const PricingPlan = freeForm(
  "One plan, in the order the pricing page lists it. Its price cannot be misread: `amount` is what is billed each `period`, as the page states it; a yearly amount's `monthly_equivalent` stands beside it and is no price the page states.",
  {
    name: str("The plan's name as the page writes it."),
    price: T.Union([T.Number({ minimum: 0 }), T.Null()], {
      description:
        "The same figure as `amount`, for clients that read `price`; null or absent for a custom tier.",
    }),
    amount: figure(
      'The amount billed each `period`: 5000 for "$5k/yr", 59 for "$59/mo", 0 for a free plan; absent for a custom tier.',
    ),
    currency: str("ISO 4217 currency code of the amounts."),
    period: PERIOD,
    monthly_equivalent: figure(
      "For a yearly `period`: `amount` divided by 12, rounded to cents (416.67 for 5000 a year).",
    ),
    unit: str("What one price buys, when the page says: seat, user …"),
    starting: T.Boolean({ description: 'The page says "From" or "Starting at": the plan\'s lowest price.' }),
    custom: T.Boolean({ description: "Priced on request (Contact sales, Custom)." }),
    annual: optionalObject(
      {
        amount: figure("The amount billed each year."),
        period: T.Literal("year"),
        monthly_equivalent: figure("`amount` divided by 12, rounded to cents."),
      },
      "The same plan billed yearly, when the page offers monthly and yearly billing.",
    ),
    regular: figure(
      'Beside a sale or introductory price (`amount`): the regular price it replaces, billed each `period` (struck through, "Usually $25", "Renews at …").',
    ),
    sale_term: str('The term of the sale or introductory price as the page states it ("for 3 months").'),
    financing: T.Boolean({ description: "A purchase price the page offers with monthly financing." }),
    page: url("The page the plan was read from, when it is another page than the read's (a product page)."),
    features: list(para(), LIST.planFeatures, "What the page lists under the plan."),
  },
);

export const CompetitorReads = T.Object(
  fields([], {
    positioning: para("How the competitor positions itself."),
    product: freeForm("Product read."),
    pricing: freeForm("Pricing read: the pricing page's plans as it lists them now.", {
      plans: list(PricingPlan, LIST.pricingPlans, "The plans in the page's order."),
      free_tier: T.Boolean({ description: "A free plan is listed." }),
      has_enterprise: T.Boolean({ description: "A custom or Enterprise tier is listed." }),
      page: url("The pricing page the plans were read from."),
    }),
    ai: freeForm("AI read."),
    traffic: freeForm("Traffic read."),
    market: freeForm("Market read."),
    regulation: freeForm("Regulation read.", {
      sec: freeForm(
        "The company's SEC Central Index Key (`cik`, ten digits) as its Wikidata item states it, its filings on EDGAR (`filings`) and the item (`source`).",
      ),
    }),
    apps: freeForm(
      "Apps read: the App Store apps the competitor's site links, each with its version, rating, rating count and its most recent customer reviews (reviews: rating, title, written_at, version).",
    ),
    packages: freeForm(
      "Packages read: the npm packages the competitor's site links that are its own (repository or homepage), each with its latest version and last week's downloads (weekly_downloads).",
    ),
    tech_stack: freeForm("Technology stack read."),
    integrations: freeForm("Integrations read."),
    release_cadence: freeForm("Release cadence read."),
    hiring: freeForm("Hiring read; includes estimated_headcount when known.", {
      estimated_headcount: T.Unknown({ description: "Estimated headcount, when known." }),
    }),
    funding: freeForm("Funding read; includes estimated_revenue_text and ownership_summary when known.", {
      estimated_revenue_text: para("Estimated revenue, as text."),
      ownership_summary: T.Unknown({ description: "Summary of the ownership, when known." }),
      chief_executive: freeForm(
        "The chief executive (`name`) as the Wikidata item the site declares as itself states it, with the item (`source`, `source_title`).",
      ),
      conflicts: list(
        freeForm("A round the sources size differently.", {
          round: str('The round ("Series B").'),
          text: para("The sentence a reader is shown."),
        }),
        20,
        "Rounds the sources size differently, each once; `claims` holds each size with the sentence and the page (`source`) or signal (`signal_id`) that states it.",
      ),
    }),
    fortnight: optionalObject(
      {
        written_at: ts(),
        sentences: list(
          freeForm("One sentence of the fortnight read.", { text: para(), kind: str() }),
          LIST.fortnightSentences,
        ),
      },
      "The fortnight read.",
    ),
  }),
  {
    $id: "CompetitorReads",
    additionalProperties: true,
    description:
      "Domain summaries built from stored competitor state. A domain key appears only when something is stored; nested empty values are pruned. The free-form objects may gain keys over time.",
  },
);

export const CompetitorDetail = T.Object(
  fields(["id", "name", "watch"], {
    id: id("Competitor id."),
    name: text(TEXT.name),
    description: para(),
    website_url: url(),
    category: str(),
    industry: str(),
    company_type: str(),
    business_model: str(),
    company_size: T.Integer({ format: "int64", minimum: 0, maximum: MAX_COMPANY_SIZE }),
    founding_year: T.Integer({ format: "int32", minimum: 1000, maximum: 3000 }),
    headquarters: optionalObject({ city: str(), country: str() }),
    target_customer: para(),
    ownership: optionalObject({
      type: str(),
      parent_company_name: str(),
      public: T.Boolean(),
      ticker: str(),
    }),
    urls: optionalObject(
      {
        pricing: url(),
        docs: url(),
        changelog: url(),
        careers: url(),
        linkedin: url(),
        github: url(),
        x: url(),
        youtube: url(),
        facebook: url(),
        instagram: url(),
        tiktok: url(),
      },
      "Map of name to URL.",
    ),
    watch,
    priority: T.Integer({
      format: "int32",
      minimum: PRIORITY.min,
      maximum: PRIORITY.max,
      description: "Lower comes first in the list.",
    }),
    tracked_since: ts(),
    workspace: optionalObject({
      relative_risk: str(),
      relative_opportunity: str(),
      icp_overlap: freeForm("Overlap with the workspace's ideal customer profile."),
    }),
    reads: CompetitorReads,
    freshness: optionalObject({
      state_updated_at: ts(),
      last_signal_at: ts(),
      last_snapshot_at: ts(),
      research_state: T.Union([T.Literal("running"), T.Literal("finished"), T.Literal("failed")], {
        description: "State of the newest research run (research_competitor, refresh_watchlist).",
      }),
      research_started_at: ts("When the newest research run started."),
      research_finished_at: ts("When the newest research run ended."),
      research_error: para("Why the newest research run failed."),
    }),
    links: optionalObject(
      {
        signals: T.String({
          pattern: "^/api/v1/signals\\?competitor_id=[0-9]+$",
          maxLength: 64,
          description: "Relative path of the competitor's signal list.",
        }),
        battlecard_id: id("Present when a generated battlecard exists."),
        url: url("Link to the competitor page in the app."),
      },
      "Where the competitor's signals and battlecard are; they are not embedded.",
    ),
  }),
  {
    $id: "CompetitorDetail",
    description: "The dossier of one tracked competitor: company record and current reads.",
  },
);

export const EvidenceItem = T.Object(
  fields([], { text: para(), source_title: title(), source_url: url(), observed_at: ts() }),
  { $id: "EvidenceItem", description: "One excerpt behind a signal." },
);

export const Signal = T.Object(
  fields(["id", "title", "evidence", "url"], {
    id: id("Signal id."),
    competitor_id: id(),
    competitor_name: text(TEXT.name),
    title: title(),
    summary: para(),
    category: str(
      "One of pricing, product, marketing, hiring, company, legal_security (imported history mapped onto them).",
    ),
    type: str(
      "The kind of move, in the engine's vocabulary (price_increase, plan_added, feature_launch, funding …); imported names are mapped onto it.",
    ),
    severity: T.Union([T.Literal("low"), T.Literal("medium"), T.Literal("high")]),
    status: T.Union([T.Literal("open"), T.Literal("closed")], {
      description: "open for listed signals; a closed signal can be fetched by id.",
    }),
    first_seen_at: ts(),
    last_seen_at: ts(),
    confidence: T.Number({ description: "Fractional number." }),
    topics: list(text(TEXT.label), LIST.topics),
    evidence: list(EvidenceItem, LIST.evidence, "Always present on a signal."),
    url: url("Link to the signal page in the app."),
  }),
  { $id: "Signal", description: "An evidence-backed competitor move." },
);

export const Digest = T.Object(
  fields(["id", "type", "status", "url"], {
    id: id("Digest id."),
    slug: text(TEXT.slug),
    type: text(100, "Debrief type, for example daily_digest or weekly_tldr."),
    status: T.Union([T.Literal("generated")], { description: "generated for every digest the API returns." }),
    title: title(),
    headline: title(),
    tldr: para(),
    what_to_watch: para(),
    coverage_period_start: ts(),
    coverage_period_end: ts(),
    generated_at: ts(),
    items: list(freeForm("One item of the digest."), LIST.digestItems),
    signal_ids: list(id(), LIST.digestSignals, "Ids of the signals the digest covers."),
    markdown: text(TEXT.document),
    url: url("Link to the digest page in the app."),
  }),
  { $id: "Digest", description: "A generated brief over a period. The list may omit items and markdown." },
);

export const Battlecard = T.Object(
  fields(["id", "competitor_id", "status", "url"], {
    id: id("Battlecard id."),
    competitor_id: id(),
    competitor_name: text(TEXT.name),
    status: T.Union([T.Literal("generated")], {
      description: "generated for every battlecard the API returns.",
    }),
    generated_at: ts(),
    sections: freeForm("Battlecard sections; keys beyond the observed ones may appear.", {
      overview: para(),
      strengths: list(para(), LIST.sectionItems),
      weaknesses: list(para(), LIST.sectionItems),
      talk_tracks: list(para(), LIST.sectionItems),
    }),
    evidence: freeForm("Evidence behind the battlecard."),
    url: url("Link to the battlecard page in the app."),
  }),
  { $id: "Battlecard", description: "Generated sales-call material for one competitor." },
);

export const Problem = T.Object(
  fields(["type", "title", "status", "detail", "code", "hint"], {
    type: url("Documentation address of the form {base_url}/developers#errors-<code>."),
    title: str("Short summary, identical for every problem with the same code."),
    status: T.Integer({ format: "int32", minimum: 400, maximum: 599, description: "The HTTP status." }),
    detail: text(PROBLEM_TEXT, "What went wrong with this request."),
    code: T.Union(
      PROBLEM_CODES.map((c) => T.Literal(c)),
      { description: "Stable code; clients branch on it, not on detail or title." },
    ),
    hint: text(PROBLEM_TEXT, "What the client can do next."),
    instance: text(TEXT.url, "The request path."),
    request_id: text(REQUEST_ID_MAX, "Request identifier, to quote to support."),
    error: T.String({
      maxLength: PROBLEM_TEXT,
      deprecated: true,
      description: "Deprecated; same text as detail.",
    }),
  }),
  { $id: "Problem", description: "RFC 9457 problem details." },
);

const listOf = ($id: string, item: TSchema, description: string) =>
  T.Object({ data: list(item, LIST.trackedCompetitors) }, { $id, description });
const pageOf = ($id: string, item: TSchema, description: string) =>
  T.Object(
    {
      data: list(item, MAX_PER_PAGE),
      page: T.Integer({
        format: "int32",
        minimum: 1,
        maximum: MAX_PAGE,
        description: "The page number sent (default 1).",
      }),
      per_page: T.Integer({
        format: "int32",
        minimum: 1,
        maximum: MAX_PER_PAGE,
        description: `The page size used, at most ${MAX_PER_PAGE}.`,
      }),
    },
    { $id, description },
  );
const oneOf = ($id: string, item: TSchema, description: string) =>
  T.Object({ data: item }, { $id, description });

export const CompetitorList = listOf(
  "CompetitorList",
  CompetitorSummary,
  "Every actively monitored competitor.",
);
export const CompetitorResponse = oneOf("CompetitorResponse", CompetitorDetail, "One competitor dossier.");
export const SignalPage = pageOf("SignalPage", Signal, "One page of open signals.");
export const SignalResponse = oneOf("SignalResponse", Signal, "One signal.");
export const DigestPage = pageOf("DigestPage", Digest, "One page of generated digests.");
export const DigestResponse = oneOf("DigestResponse", Digest, "One digest.");
export const BattlecardList = listOf("BattlecardList", Battlecard, "Every generated battlecard.");
export const BattlecardResponse = oneOf("BattlecardResponse", Battlecard, "One battlecard.");

/** The schemas the OpenAPI document names under components.schemas (by their `$id`), in this order. */
export const namedSchemas: TSchema[] = [
  CompetitorSummary,
  CompetitorDetail,
  CompetitorReads,
  Signal,
  EvidenceItem,
  Digest,
  Battlecard,
  Problem,
  CompetitorList,
  CompetitorResponse,
  SignalPage,
  SignalResponse,
  DigestPage,
  DigestResponse,
  BattlecardList,
  BattlecardResponse,
];

/** The error responses, by status, named under components.responses (built in api/openapi.ts). */
export const errorResponses = {
  400: { name: "BadRequest", code: "invalid_request" },
  401: { name: "Unauthorized", code: "invalid_api_key" },
  402: { name: "PaymentRequired", code: "paid_plan_required" },
  404: { name: "NotFound", code: "not_found" },
  429: { name: "TooManyRequests", code: "rate_limited" },
  500: { name: "InternalError", code: "internal_error" },
} as const satisfies Record<number, { name: string; code: ProblemCode }>;
type ErrorStatus = keyof typeof errorResponses;

/** Headers every successful read carries (named under components.headers). */
export const successHeaders = [
  "ETag",
  "Cache-Control",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "X-Request-Id",
  "Access-Control-Allow-Origin",
] as const;

/** An OpenAPI operation: a 200 with `schema`, and the errors every read endpoint can return (401, 402, 429,
 * 500) plus the route's own. */
function operation(
  o: { operationId: string; tag: string; summary: string; description: string },
  schema: TSchema,
  errors: ErrorStatus[] = [],
) {
  const statuses = [...errors, 401, 402, 429, 500].sort((a, b) => a - b) as ErrorStatus[];
  return {
    detail: {
      operationId: o.operationId,
      tags: [o.tag],
      summary: o.summary,
      description: o.description,
      responses: {
        200: {
          description: schema.description ?? "OK",
          headers: Object.fromEntries(successHeaders.map((h) => [h, { $ref: `#/components/headers/${h}` }])),
          content: { "application/json": { schema } },
        },
        304: {
          description:
            "Not modified: `If-None-Match` names the current `ETag`, so what the client has is still current. No body.",
          headers: Object.fromEntries(successHeaders.map((h) => [h, { $ref: `#/components/headers/${h}` }])),
        },
        ...Object.fromEntries(
          statuses.map((s) => [s, { $ref: `#/components/responses/${errorResponses[s].name}` }]),
        ),
      },
    },
  };
}

// Route details, spread into each route's declaration in api/routes.ts (one per endpoint).
export const docs = {
  listCompetitors: operation(
    {
      operationId: "listCompetitors",
      tag: "Competitors",
      summary: "List tracked competitors",
      description:
        "Every competitor the workspace actively monitors, ordered by priority, then tracked date. Not paginated.",
    },
    CompetitorList,
  ),
  getCompetitor: operation(
    {
      operationId: "getCompetitor",
      tag: "Competitors",
      summary: "Get a competitor dossier",
      description:
        "The company record and current reads of one tracked competitor. Signals and the battlecard are not embedded; `links` names them.",
    },
    CompetitorResponse,
    [404],
  ),
  listSignals: operation(
    {
      operationId: "listSignals",
      tag: "Signals",
      summary: "List open signals",
      description:
        "Open signals of tracked competitors, newest first, each with its evidence. A `since` that is not an ISO 8601 time, an unknown `severity`, or a `page`/`per_page` that is not an integer of at least 1 gives 400 `invalid_request`.",
    },
    SignalPage,
    [400],
  ),
  getSignal: operation(
    {
      operationId: "getSignal",
      tag: "Signals",
      summary: "Get a signal",
      description: "One signal by id; can be a closed signal. An unknown or not visible id gives 404.",
    },
    SignalResponse,
    [404],
  ),
  listDigests: operation(
    {
      operationId: "listDigests",
      tag: "Digests",
      summary: "List generated digests",
      description:
        "Generated digests, newest coverage period first. The list may omit `items` and `markdown`. A `page`/`per_page` that is not an integer of at least 1 gives 400 `invalid_request`.",
    },
    DigestPage,
    [400],
  ),
  getDigest: operation(
    {
      operationId: "getDigest",
      tag: "Digests",
      summary: "Get a digest by slug or id",
      description: "The path value is looked up as a slug first, then as a numeric id. No match gives 404.",
    },
    DigestResponse,
    [404],
  ),
  listBattlecards: operation(
    {
      operationId: "listBattlecards",
      tag: "Battlecards",
      summary: "List generated battlecards",
      description: "Generated battlecards, ordered by competitor id. Not paginated.",
    },
    BattlecardList,
  ),
  getBattlecard: operation(
    {
      operationId: "getBattlecard",
      tag: "Battlecards",
      summary: "Get a battlecard by id or competitor id",
      description:
        "The path value is looked up as a battlecard id first, then as a competitor id. No match gives 404.",
    },
    BattlecardResponse,
    [404],
  ),
};
