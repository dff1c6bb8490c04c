// /developers: the API reference people read. Errors come from PROBLEMS (one section per code, the
// anchor every problem's `type` points at); limits from the config and the pagination module.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { API_KEY_PREFIX } from "../auth/tokens.ts";
import { MAX_PER_PAGE } from "../contract/pagination.ts";
import { PROBLEM_CODES, PROBLEMS, type ProblemCode } from "../contract/problem.ts";
import type { Services } from "../services.ts";
import { ConnectAssistants } from "./connectAssistants.tsx";
import { Html, Layout } from "./layout.tsx";
import { publicPage, viewer } from "./public.tsx";

interface Param {
  name: string;
  in: "path" | "query";
  type: string;
  doc: string;
}

interface Endpoint {
  id: string;
  path: string;
  summary: string;
  params: Param[];
  notes: string[];
  example: string;
  response: string;
  errors: ProblemCode[];
}

const PAGE_PARAMS: Param[] = [
  { name: "page", in: "query", type: "integer ≥ 1", doc: "Page number; default 1." },
  {
    name: "per_page",
    in: "query",
    type: `integer 1–${MAX_PER_PAGE}`,
    doc: `Items per page; default ${MAX_PER_PAGE}; larger values are clamped to ${MAX_PER_PAGE}.`,
  },
];

const ENDPOINTS: Endpoint[] = [
  {
    id: "list-competitors",
    path: "/api/v1/competitors",
    summary:
      "Every competitor the workspace actively monitors, by priority, then tracked date. Not paginated.",
    params: [],
    notes: ["Paused, removed and pending-approval competitors are not listed."],
    example: "/api/v1/competitors",
    response: `{"data":[{"id":1042,"name":"Globex Insights","website_url":"https://globex.example/","category":"Product analytics","watch":"core","tracked_since":"2026-03-02T09:00:00.000Z","url":"{base}/app/competitors/1042"}]}`,
    errors: [],
  },
  {
    id: "get-competitor",
    path: "/api/v1/competitors/{id}",
    summary: "The dossier of one tracked competitor: company record, current reads, freshness and links.",
    params: [{ name: "id", in: "path", type: "integer", doc: "Competitor id." }],
    notes: [
      "Signals and the battlecard are not embedded: `links.signals` and `links.battlecard_id` name them.",
    ],
    example: "/api/v1/competitors/1042",
    response: `{"data":{"id":1042,"name":"Globex Insights","watch":"core","reads":{"positioning":"…"},"links":{"signals":"/api/v1/signals?competitor_id=1042","battlecard_id":1201,"url":"{base}/app/competitors/1042"}}}`,
    errors: ["not_found"],
  },
  {
    id: "list-signals",
    path: "/api/v1/signals",
    summary: "Open signals of tracked competitors, newest first, each with its evidence.",
    params: [
      { name: "competitor_id", in: "query", type: "integer", doc: "Only this tracked competitor's signals." },
      { name: "severity", in: "query", type: "low | medium | high", doc: "Only signals of this severity." },
      {
        name: "since",
        in: "query",
        type: "ISO 8601 time",
        doc: "Signals first seen on or after this time. Not a time: 400 invalid_request.",
      },
      {
        name: "q",
        in: "query",
        type: "string",
        doc: "Case-insensitive match on title or summary, the text taken literally (FTS syntax such as quotes, * or NEAR is just characters); empty matches all; at most 500 characters. Control characters (U+0000–U+001F, U+007F–U+009F) are refused: 400 invalid_request.",
      },
      ...PAGE_PARAMS,
    ],
    notes: ["The response echoes `page` and `per_page`."],
    example: "/api/v1/signals?severity=high&since=2026-11-01T00:00:00Z&per_page=10",
    response: `{"data":[{"id":1101,"competitor_id":1042,"competitor_name":"Globex Insights","title":"Globex raises Team plan price by 20%","severity":"high","status":"open","first_seen_at":"2026-11-18T08:12:00.000Z","evidence":[{"text":"Team — $59 per seat","source_title":"Globex pricing","source_url":"https://globex.example/pricing","observed_at":"2026-11-18T08:12:00.000Z"}],"url":"{base}/app/signals/1101"}],"page":1,"per_page":10}`,
    errors: ["invalid_request"],
  },
  {
    id: "get-signal",
    path: "/api/v1/signals/{id}",
    summary: "One signal by id, open or closed.",
    params: [{ name: "id", in: "path", type: "integer", doc: "Signal id." }],
    notes: [],
    example: "/api/v1/signals/1101",
    response: `{"data":{"id":1101,"title":"Globex raises Team plan price by 20%","status":"open","evidence":[…],"url":"{base}/app/signals/1101"}}`,
    errors: ["not_found"],
  },
  {
    id: "list-digests",
    path: "/api/v1/digests",
    summary:
      "Generated digests, newest coverage period first. `items` and `markdown` may be left out of the list.",
    params: [
      {
        name: "type",
        in: "query",
        type: "string",
        doc: "Only this debrief type, e.g. weekly_tldr; empty matches all.",
      },
      ...PAGE_PARAMS,
    ],
    notes: [],
    example: "/api/v1/digests?type=weekly_tldr",
    response: `{"data":[{"id":1301,"slug":"weekly-2026-w46","type":"weekly_tldr","status":"generated","title":"Weekly TL;DR","signal_ids":[1101,1102],"url":"{base}/app/digests/weekly-2026-w46"}],"page":1,"per_page":50}`,
    errors: [],
  },
  {
    id: "get-digest",
    path: "/api/v1/digests/{id}",
    summary: "One digest, looked up as a slug first, then as a numeric id.",
    params: [{ name: "id", in: "path", type: "string", doc: "Digest slug or numeric id." }],
    notes: [],
    example: "/api/v1/digests/weekly-2026-w46",
    response: `{"data":{"id":1301,"slug":"weekly-2026-w46","type":"weekly_tldr","status":"generated","markdown":"# Weekly TL;DR …","url":"{base}/app/digests/weekly-2026-w46"}}`,
    errors: ["not_found"],
  },
  {
    id: "list-battlecards",
    path: "/api/v1/battlecards",
    summary: "Generated battlecards, ordered by competitor id. Not paginated.",
    params: [],
    notes: [],
    example: "/api/v1/battlecards",
    response: `{"data":[{"id":1201,"competitor_id":1042,"competitor_name":"Globex Insights","status":"generated","sections":{"overview":"…","strengths":["…"]},"url":"{base}/app/battlecards/1201"}]}`,
    errors: [],
  },
  {
    id: "get-battlecard",
    path: "/api/v1/battlecards/{id}",
    summary: "One battlecard, looked up as a battlecard id first, then as a competitor id.",
    params: [{ name: "id", in: "path", type: "integer", doc: "Battlecard id or competitor id." }],
    notes: [],
    example: "/api/v1/battlecards/1201",
    response: `{"data":{"id":1201,"competitor_id":1042,"status":"generated","sections":{…},"evidence":{…},"url":"{base}/app/battlecards/1201"}}`,
    errors: ["not_found"],
  },
];

/** When each problem is sent, beyond its title and hint. */
const WHEN: Record<ProblemCode, string> = {
  invalid_request:
    "A query parameter is invalid: `since` not an ISO 8601 time, `severity` not low/medium/high, `page` or `per_page` below 1, or `page`/`per_page` not an integer. `detail` names the parameter.",
  invalid_api_key:
    "The key is missing, malformed, unknown or revoked. The response carries `WWW-Authenticate: Bearer`.",
  paid_plan_required:
    "The key's workspace is on the free trial week or the free plan, which do not include the read API.",
  forbidden: "Reserved: the read API does not send it currently.",
  not_found:
    "No such record in this workspace (another workspace's ids look the same as ids that do not exist), a non-numeric id, or no page at this address. `detail` names the record kind.",
  unprocessable_content: "Reserved: the read API does not send it currently.",
  rate_limited:
    "More requests from one address in one minute than the limit. `Retry-After` gives the whole seconds to wait.",
  internal_error: "The server failed. The body holds no internal detail; quote `request_id` to support.",
};

const md = (s: string) => Html.escapeHtml(s).replace(/`([^`]+)`/g, "<code>$1</code>");

function EndpointDoc({ e, base }: { e: Endpoint; base: string }): JSX.Element {
  return (
    <section id={e.id} class="card">
      <h3>
        <code safe>{`GET ${e.path}`}</code>
      </h3>
      <p>{md(e.summary) as "safe"}</p>
      {e.params.length ? (
        <div class="scroll" tabindex="0">
          <table class="stack">
            <thead>
              <tr>
                <th>Parameter</th>
                <th>In</th>
                <th>Type</th>
                <th>Meaning</th>
              </tr>
            </thead>
            <tbody>
              {e.params.map((p) => (
                <tr>
                  <td data-label="Parameter">
                    <code safe>{p.name}</code>
                  </td>
                  <td data-label="In" safe>
                    {p.in}
                  </td>
                  <td data-label="Type" safe>
                    {p.type}
                  </td>
                  <td data-label="Meaning">{md(p.doc) as "safe"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted small">No parameters.</p>
      )}
      {e.notes.map((n) => (
        <p>{md(n) as "safe"}</p>
      ))}
      <p class="small">Example:</p>
      <pre class="wrap">
        <code safe>{`curl -H "Authorization: Bearer $RIVALS_API_KEY" "${base}${e.example}"`}</code>
      </pre>
      <pre class="wrap">
        <code safe>{e.response.replaceAll("{base}", base)}</code>
      </pre>
      <p class="small">
        Errors:{" "}
        {[...e.errors, "invalid_api_key", "paid_plan_required", "rate_limited", "internal_error"].map(
          (c, i) => (
            <>
              {i ? ", " : ""}
              <a href={`#errors-${c}`}>{Html.escapeHtml(`${PROBLEMS[c as ProblemCode].status} ${c}`)}</a>
            </>
          ),
        )}
      </p>
    </section>
  );
}

function Developers({ base, rate, user }: { base: string; rate: number; user?: string }): JSX.Element {
  const problemExample = JSON.stringify(
    {
      type: `${base}/developers#errors-not_found`,
      title: PROBLEMS.not_found.title,
      status: 404,
      detail: "No signal with that id in this workspace.",
      code: "not_found",
      hint: PROBLEMS.not_found.hint,
      instance: "/api/v1/signals/999999",
      request_id: "0b6f6c1e-…",
      error: "No signal with that id in this workspace.",
    },
    null,
    2,
  );
  return (
    <Layout title="Developers: API reference" user={user}>
      <h1>API reference</h1>
      <nav class="toc" aria-label="Contents">
        <a href="#overview">Overview</a> · <a href="#authentication">Authentication</a> ·{" "}
        <a href="#endpoints">Endpoints</a> · <a href="#pagination">Pagination</a> ·{" "}
        <a href="#conditional-requests">Conditional requests</a> · <a href="#rate-limits">Rate limits</a> ·{" "}
        <a href="#errors">Errors</a> · <a href="#openapi">OpenAPI</a> · <a href="#mcp">MCP and OAuth</a> ·{" "}
        <a href="#connect">Connect an AI assistant</a>
      </nav>

      <section id="overview">
        <h2>Overview</h2>
        <p>
          A read-only JSON API over one workspace: its competitors, signals, digests and battlecards. Base
          URL:
        </p>
        <pre tabindex="0">
          <code safe>{`${base}/api/v1`}</code>
        </pre>
        <ul>
          <li>
            Every request is <code>GET</code>, needs an API key and reads only the key's workspace. The API
            needs a paid plan (see <a href="/pricing">pricing</a>).
          </li>
          <li>
            Successful bodies are JSON objects with the payload under <code>data</code>.
          </li>
          <li>Blank fields are left out of the objects; clients must tolerate keys added over time.</li>
          <li>Timestamps are ISO 8601 date-time strings (UTC).</li>
          <li>
            Every 4xx and 5xx body is <code>application/problem+json</code> (see <a href="#errors">Errors</a>
            ).
          </li>
          <li>
            Each record carries a <code>url</code> to its page in the app.
          </li>
        </ul>
      </section>

      <section id="authentication">
        <h2>Authentication</h2>
        <p>
          A workspace admin creates keys under{" "}
          <a href="/app/settings/integrations">Settings › Integrations</a> (or <code>rivals key create</code>{" "}
          on the server). The key is shown once; only its SHA-256 digest is stored. Keys start with{" "}
          <code safe>{API_KEY_PREFIX}</code> and carry a checksum. Send the key in either header:
        </p>
        <pre tabindex="0">
          <code safe>{`Authorization: Bearer ${API_KEY_PREFIX}…\nX-API-Key: ${API_KEY_PREFIX}…`}</code>
        </pre>
        <p>
          When both are sent, <code>Authorization</code> is used. A missing, wrong or revoked key gets{" "}
          <a href="#errors-invalid_api_key">401 invalid_api_key</a> with <code>WWW-Authenticate: Bearer</code>
          ; a key of a workspace without a paid plan gets{" "}
          <a href="#errors-paid_plan_required">402 paid_plan_required</a>.
        </p>
        <pre tabindex="0">
          <code safe>{`curl -H "X-API-Key: $RIVALS_API_KEY" ${base}/api/v1/competitors`}</code>
        </pre>
      </section>

      <section id="endpoints">
        <h2>Endpoints</h2>
        <div class="scroll" tabindex="0">
          <table>
            <thead>
              <tr>
                <th>Request</th>
                <th>Returns</th>
              </tr>
            </thead>
            <tbody>
              {ENDPOINTS.map((e) => (
                <tr>
                  <td>
                    <a href={`#${e.id}`}>
                      <code safe>{`GET ${e.path}`}</code>
                    </a>
                  </td>
                  <td>{md(e.summary) as "safe"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {ENDPOINTS.map((e) => (
          <EndpointDoc e={e} base={base} />
        ))}
      </section>

      <section id="pagination">
        <h2>Pagination</h2>
        <p>
          The signal and digest lists take <code>page</code> (from 1, default 1) and <code>per_page</code> (1
          to {Html.escapeHtml(String(MAX_PER_PAGE))}, default {Html.escapeHtml(String(MAX_PER_PAGE))}; larger
          values are clamped to {Html.escapeHtml(String(MAX_PER_PAGE))}) and echo both in the body:{" "}
          <code>{`{"data": […], "page": 2, "per_page": 50}`}</code>. A page past the end has an empty{" "}
          <code>data</code>. A <code>page</code> below 1 or a non-integer value is{" "}
          <a href="#errors-invalid_request">400 invalid_request</a>. The competitor and battlecard lists are
          returned whole.
        </p>
      </section>

      <section id="conditional-requests">
        <h2>Conditional requests</h2>
        <p>
          Every successful response carries an <code>ETag</code> of its exact body and{" "}
          <code>Cache-Control: private, no-cache</code>. Send the tag back in <code>If-None-Match</code> and,
          while nothing the request reads has changed, the answer is <code>304 Not Modified</code> with no
          body: a cheap way to poll for new signals. Each page of a list has its own tag. A 304 still needs a
          valid key and counts toward the rate limit.
        </p>
      </section>

      <section id="rate-limits">
        <h2>Rate limits</h2>
        <p>
          At most <strong>{Html.escapeHtml(String(rate))}</strong> requests per minute from one address (a
          sliding window). Every successful response carries <code>RateLimit-Limit</code>,{" "}
          <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code> (seconds). Over the limit:{" "}
          <a href="#errors-rate_limited">429 rate_limited</a> with <code>Retry-After</code> in whole seconds.
        </p>
      </section>

      <section id="errors">
        <h2>Errors</h2>
        <p>
          Errors are RFC 9457 problem details with media type <code>application/problem+json</code>. Branch on{" "}
          <code>code</code>, never on <code>title</code> or <code>detail</code>. <code>type</code> links to
          the section of this page for the code. The <code>error</code> field is deprecated and repeats{" "}
          <code>detail</code>. A JSON request for a missing page anywhere on the site gets{" "}
          <code>not_found</code> in this shape too.
        </p>
        <pre tabindex="0">
          <code safe>{problemExample}</code>
        </pre>
        <div class="scroll" tabindex="0">
          <table>
            <thead>
              <tr>
                <th>Field</th>
                <th>Meaning</th>
              </tr>
            </thead>
            <tbody>
              {(
                [
                  ["type", "Documentation address of the form {base}/developers#errors-<code>."],
                  ["title", "Short summary, the same for every problem with the code."],
                  ["status", "The HTTP status."],
                  ["detail", "What went wrong with this request."],
                  ["code", "Stable machine-readable code (below)."],
                  ["hint", "What the client can do next."],
                  ["instance", "The request path (optional)."],
                  ["request_id", "Request identifier to quote to support (optional)."],
                  ["error", "Deprecated: the same text as detail."],
                ] as const
              ).map(([f, d]) => (
                <tr>
                  <td>
                    <code>{f}</code>
                  </td>
                  <td safe>{d}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {PROBLEM_CODES.map((code) => {
          const p = PROBLEMS[code];
          return (
            <section id={`errors-${code}`} class="card">
              <h3>
                <code>{Html.escapeHtml(code)}</code>{" "}
                <span class="muted">— {Html.escapeHtml(String(p.status))}</span>
              </h3>
              <p>
                <strong safe>{p.title}</strong>
              </p>
              <p>{md(WHEN[code]) as "safe"}</p>
              <p>
                <em>What to do:</em> <span safe>{p.hint}</span>
              </p>
            </section>
          );
        })}
      </section>

      <section id="openapi">
        <h2>OpenAPI</h2>
        <p>The machine-readable description (OpenAPI 3.1.0), served without a key:</p>
        <ul>
          <li>
            <a href="/openapi.json">
              <code safe>{`${base}/openapi.json`}</code>
            </a>{" "}
            (JSON)
          </li>
          <li>
            <a href="/developers/openapi.yaml">
              <code safe>{`${base}/developers/openapi.yaml`}</code>
            </a>{" "}
            (YAML)
          </li>
        </ul>
      </section>

      <section id="mcp">
        <h2>MCP tool endpoint and OAuth</h2>
        <p>
          AI assistants connect to the Model Context Protocol endpoint (Streamable HTTP, JSON responses) with
          the same API key in the same headers, or with an OAuth 2.1 access token (authorization code with
          PKCE S256; scopes <code>read</code>, <code>write</code>, <code>spend</code>). Four public tools —{" "}
          <code>search_public_briefs</code>, <code>get_public_brief</code>, <code>search_guides</code>,{" "}
          <code>get_free_brief_link</code> — need no credential; any other <code>tools/call</code> without one
          gets 401 with a <code>WWW-Authenticate</code> header pointing at the protected-resource metadata,
          where discovery starts.
        </p>
        <div class="scroll" tabindex="0">
          <table>
            <thead>
              <tr>
                <th>Purpose</th>
                <th>Address</th>
              </tr>
            </thead>
            <tbody>
              {(
                [
                  ["Tool endpoint (POST)", "/mcp"],
                  ["Tool server card", "/.well-known/mcp/server-card.json"],
                  ["Protected resource metadata", "/.well-known/oauth-protected-resource"],
                  ["Authorization server metadata", "/.well-known/oauth-authorization-server"],
                  ["Authorization endpoint", "/oauth/authorize"],
                  ["Token endpoint", "/oauth/token"],
                  ["Dynamic client registration", "/oauth/register"],
                  ["Token revocation", "/oauth/revoke"],
                ] as const
              ).map(([purpose, path]) => (
                <tr>
                  <td safe>{purpose}</td>
                  <td>
                    <code safe>{`${base}${path}`}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <pre tabindex="0">
          <code safe>{`curl -X POST ${base}/mcp \\
  -H "Authorization: Bearer $RIVALS_API_KEY" \\
  -H "Content-Type: application/json" -H "Accept: application/json, text/event-stream" \\
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_competitors","arguments":{}}}'`}</code>
        </pre>
      </section>
      <ConnectAssistants base={base} />
    </Layout>
  );
}

export function developerPages(s: Services) {
  return new Elysia({ name: "web-developers" }).get("/developers", async ({ request }) =>
    publicPage(
      <Developers
        base={s.config.baseUrl}
        rate={s.config.rateLimitPerMinute}
        user={await viewer(s, request)}
      />,
    ),
  );
}
