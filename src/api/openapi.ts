// The OpenAPI 3.1.0 description of the read API, served as JSON at /openapi.json and as YAML at
// /developers/openapi.yaml (docs/api.md). No authentication, no rate limit, no docs UI.
//
// Built here from the route declarations (path, `params`, and the `detail` from contract/schemas.ts that each route
// spreads in) and the TypeBox schemas of contract/schemas.ts, rather than by @elysiajs/openapi, because that plugin
// (1.4.16), measured on these routes:
// - describes Elysia's `t.Integer` path id as `anyOf: [{type: string, format: integer, default: 0}, {type:
//   integer}]` (a made-up string format and a default id of 0) instead of an integer;
// - drops an operation's `detail.parameters` whenever the route declares `params`, and knows nothing of the
//   query parameters, which api/query.ts validates itself (so the error names the parameter);
// - gives every response `application/json`, while problems are `application/problem+json` with headers, so
//   every response had to be written in `detail` by hand anyway;
// - serves only the JSON document, while the same document is needed as YAML too.
// What remained for it to do (copy `detail` into `paths`) is the loop below.
import type { Elysia, InternalRoute } from "elysia";
import { MAX_RATE_LIMIT } from "../config.ts";
import { PROBLEMS, type ProblemCode, problemBody } from "../contract/problem.ts";
import { errorResponses, namedSchemas, Problem } from "../contract/schemas.ts";
import { MAX_ID, REQUEST_ID_MAX, TEXT } from "../domain/limits.ts";
import { isLoopbackHost } from "../engine/fetch/guard.ts";
import type { Services } from "../services.ts";
import { ETAG_MAX, IF_NONE_MATCH_MAX } from "./dataResponse.ts";
import type { QuerySpec } from "./query.ts";
import { digestQuery, signalQuery } from "./routes.ts";

export const OPENAPI_JSON_PATH = "/openapi.json";
export const OPENAPI_YAML_PATH = "/developers/openapi.yaml";

type Obj = Record<string, unknown>;

/** Query parameters per operation: the same specs routes.ts parses the query with. */
const queryParameters: Record<string, QuerySpec<any>> = {
  listSignals: signalQuery,
  listDigests: digestQuery,
};

const tags = [
  { name: "Competitors", description: "Tracked competitors and their dossiers." },
  { name: "Signals", description: "Evidence-backed competitor moves." },
  { name: "Digests", description: "Generated briefs over a period." },
  { name: "Battlecards", description: "Generated sales-call material per competitor." },
];

const integerHeader = (description: string, minimum: number, maximum: number) => ({
  description,
  required: true,
  schema: { type: "integer", format: "int32", minimum, maximum },
});

const headers = {
  ETag: {
    description:
      "Entity tag of this representation; send it back in `If-None-Match` to get 304 while nothing changed.",
    required: true,
    schema: { type: "string", maxLength: ETAG_MAX },
    example: '"1l03nogu2gmjl-1-50"',
  },
  "Cache-Control": {
    description:
      "`private, no-cache`: shared caches must not keep it; a private cache revalidates with the ETag.",
    required: true,
    schema: { type: "string", const: "private, no-cache" },
  },
  "RateLimit-Limit": integerHeader("Requests allowed per minute from one client address.", 1, MAX_RATE_LIMIT),
  "RateLimit-Remaining": integerHeader("Requests left in the current one-minute window.", 0, MAX_RATE_LIMIT),
  "RateLimit-Reset": integerHeader("Whole seconds until the window frees a request slot.", 0, 60),
  "Retry-After": integerHeader("Whole seconds to wait before a request would pass.", 1, 60),
  "Access-Control-Allow-Origin": {
    description: `Sent only when the request's \`Origin\` is one the operator allows (${"`RIVALS_CORS_ORIGINS`"}, default none): that origin, exactly. Absent otherwise, so a browser on any other site cannot read the response. Preflights (\`OPTIONS\` with \`Access-Control-Request-Method\`) are answered 204; they allow GET and HEAD with the headers Authorization, X-API-Key and If-None-Match, never credentials (cookies).`,
    required: false,
    schema: { type: "string", format: "uri", maxLength: TEXT.url },
    example: "https://dashboard.example.com",
  },
  "WWW-Authenticate": {
    description: "Bearer challenge.",
    required: true,
    schema: { type: "string", pattern: "^Bearer( |$)", maxLength: 128 },
    example: 'Bearer realm="rivals", error="invalid_token"',
  },
  "X-Request-Id": {
    description: "Identifier of this request, to quote to support (also `request_id` in problems).",
    required: true,
    schema: { type: "string", format: "uuid", maxLength: REQUEST_ID_MAX },
  },
};

/** One example per error response: the body the API sends in that case. */
const examples: Record<ProblemCode, { instance: string; detail: string }> = {
  invalid_request: {
    instance: "/api/v1/signals",
    detail: "since must be an ISO 8601 time, for example 2026-01-31T00:00:00Z.",
  },
  invalid_api_key: {
    instance: "/api/v1/competitors",
    detail: "The API key is malformed, unknown or revoked.",
  },
  paid_plan_required: {
    instance: "/api/v1/competitors",
    detail: "The workspace is on the Free plan, which does not include the API.",
  },
  forbidden: { instance: "/api/v1/competitors", detail: "Not allowed." },
  not_found: { instance: "/api/v1/signals/123", detail: "No signal with that id in this workspace." },
  unprocessable_content: { instance: "/api/v1/competitors", detail: "Not processable." },
  rate_limited: {
    instance: "/api/v1/signals",
    detail: "More than 600 requests in one minute from this address.",
  },
  internal_error: { instance: "/api/v1/competitors", detail: "The server failed to handle this request." },
};

const conditions: Record<keyof typeof errorResponses, string> = {
  400: "A parameter is invalid; `detail` names it.",
  401: "The API key is missing, wrong or revoked.",
  402: "The key's organization has no paid subscription (the free trial week does not include the API).",
  404: "No matching record in this workspace; `detail` names the record kind.",
  429: "Too many requests from one address in one minute (600 unless configured otherwise).",
  500: "Server error; the body holds no internal detail.",
};

function errorResponse(status: keyof typeof errorResponses, baseUrl: string) {
  const { code } = errorResponses[status];
  const ex = examples[code];
  const ref = (h: string) => ({ $ref: `#/components/headers/${h}` });
  // Every request the rate limiter counted carries the RateLimit-* headers, refused or not; a 500 may
  // come before it counted.
  const rate = status === 500 ? [] : ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
  const extra: Record<number, string[]> = { 401: ["WWW-Authenticate"], 429: ["Retry-After"] };
  return {
    description: `${PROBLEMS[code].title} (\`${code}\`). ${conditions[status]}`,
    headers: Object.fromEntries(
      [...(extra[status] ?? []), ...rate, "X-Request-Id", "Access-Control-Allow-Origin"].map((h) => [
        h,
        ref(h),
      ]),
    ),
    content: {
      "application/problem+json": {
        schema: Problem,
        example: problemBody(code, ex.detail, {
          baseUrl,
          instance: ex.instance,
          requestId: "7d0c8f8e-3b1e-4d5a-9a59-2f4c1f0a6b21",
        }),
      },
    },
  };
}

/** Path parameters from a route's `params` schema. Elysia's `t.Integer` accepts the digits of the URL as an
 * integer; the document says integer. */
function pathParameters(params: unknown): Obj[] {
  const props = (params as { properties?: Record<string, Obj> } | undefined)?.properties ?? {};
  return Object.entries(props).map(([name, prop]) => {
    const { description, default: _default, ...rest } = JSON.parse(JSON.stringify(prop)) as Obj;
    const integer = (rest.anyOf as Obj[] | undefined)?.some((s) => s.type === "integer");
    return {
      name,
      in: "path",
      required: true,
      ...(description ? { description } : {}),
      schema: integer ? { type: "integer", format: "int64", minimum: 1, maximum: MAX_ID } : rest,
    };
  });
}

function paths(routes: readonly InternalRoute[]): Obj {
  const out: Record<string, Obj> = {};
  for (const route of routes) {
    if (!route.path.startsWith("/api/v1/") || route.method !== "GET") continue;
    const hooks = route.hooks as { detail?: Obj; params?: unknown };
    const detail = hooks.detail ?? {};
    const query = queryParameters[String(detail.operationId)]?.parameters ?? [];
    const parameters = [
      ...pathParameters(hooks.params),
      ...query,
      { $ref: "#/components/parameters/IfNoneMatch" },
    ];
    const path = route.path.replace(/:([^/]+)/g, "{$1}");
    const { responses, ...rest } = detail;
    out[path] = { get: { ...rest, ...(parameters.length ? { parameters } : {}), responses } };
  }
  return out;
}

/** A union of string literals (how TypeBox declares an enum). */
function literals(o: Obj): string[] | undefined {
  const any = o.anyOf as Obj[] | undefined;
  return any?.length && any.every((x) => typeof x.const === "string")
    ? any.map((x) => x.const as string)
    : undefined;
}

/** Plain JSON of the document: named schemas become `$ref`s, literal unions become enums, TypeBox's symbols
 * and `$id`s go. */
function toJson(value: unknown, named: Set<string>, root = false): unknown {
  if (Array.isArray(value)) return value.map((v) => toJson(v, named));
  if (value === null || typeof value !== "object") return value;
  const o = value as Obj;
  if (!root && typeof o.$id === "string" && named.has(o.$id))
    return { $ref: `#/components/schemas/${o.$id}` };
  const values = literals(o);
  if (values) {
    const { anyOf: _, ...rest } = o;
    return { ...(toJson(rest, named) as Obj), type: "string", enum: values };
  }
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === "$id") continue;
    if (k === "properties" && v && typeof v === "object" && Object.keys(v).length === 0) continue;
    out[k] = toJson(v, named);
  }
  return out;
}

/** The document for the given routes (those under /api/v1) and base URL. */
export function openApiDocument(routes: readonly InternalRoute[], baseUrl: string): Obj {
  const named = new Set(namedSchemas.map((s) => s.$id as string));
  const doc = {
    openapi: "3.1.0",
    info: {
      title: "Rivals read API",
      version: "1.0.0",
      summary: "Read-only JSON API over one workspace's competitive intelligence.",
      description: [
        "Competitors, signals, digests and battlecards of the organization that owns the API key.",
        "A paid plan is required. Send the key as `Authorization: Bearer <API_KEY>` or `X-API-Key: <API_KEY>`.",
        "Successful bodies carry the payload under `data`; blank fields are omitted; timestamps are ISO 8601.",
        "Every 4xx/5xx body is RFC 9457 problem details (`application/problem+json`); branch on `code`.",
        "Clients must tolerate unknown keys in the free-form objects.",
      ].join("\n\n"),
    },
    servers: [
      {
        url: baseUrl,
        description: `This installation (${isLoopbackHost(new URL(baseUrl).hostname.replace(/^\[(.*)\]$/, "$1")) ? "local" : "production"}).`,
        "x-internal": false,
      },
    ],
    security: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
    tags,
    paths: paths(routes),
    components: {
      schemas: Object.fromEntries(namedSchemas.map((s) => [s.$id, toJson(s, named, true)])),
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([status, r]) => [
          r.name,
          errorResponse(Number(status) as keyof typeof errorResponses, baseUrl),
        ]),
      ),
      headers,
      parameters: {
        IfNoneMatch: {
          name: "If-None-Match",
          in: "header",
          required: false,
          description: `The \`ETag\` of a response the client has; the answer is 304 with no body while it is current. At most ${IF_NONE_MATCH_MAX} characters: a longer header is ignored (the full response is sent).`,
          schema: { type: "string", maxLength: IF_NONE_MATCH_MAX },
        },
      },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "The API key as a bearer token: `Authorization: Bearer <API_KEY>`.",
        },
        apiKeyAuth: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description: "The API key in the `X-API-Key` header.",
        },
      },
    },
  };
  return toJson(doc, named) as Obj;
}

/** Adds the two document routes to the app; the document is built on first request, from every route the app
 * has by then. */
export function openApi(s: Pick<Services, "config">) {
  return (app: Elysia) => {
    let cached: { json: string; yaml: string } | undefined;
    const rendered = () => {
      if (!cached) {
        const json = JSON.stringify(openApiDocument(app.routes, s.config.baseUrl));
        cached = { json, yaml: Bun.YAML.stringify(JSON.parse(json), null, 2) };
      }
      return cached;
    };
    return app
      .get(
        OPENAPI_JSON_PATH,
        () =>
          new Response(rendered().json, { headers: { "content-type": "application/json; charset=utf-8" } }),
      )
      .get(
        OPENAPI_YAML_PATH,
        () =>
          new Response(rendered().yaml, { headers: { "content-type": "application/yaml; charset=utf-8" } }),
      );
  };
}
