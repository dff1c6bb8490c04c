// The read API, one route per endpoint (docs/api.md; /openapi.json describes each).
import { Type as T } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { ApiKeyResolver } from "../auth/apiKeys.ts";
import { type Page, pageOf, pageQuery } from "../contract/pagination.ts";
import { Problem } from "../contract/problem.ts";
import { docs } from "../contract/schemas.ts";
import { getBattlecard, listBattlecards } from "../db/queries/battlecards.ts";
import { getCompetitor, listCompetitors } from "../db/queries/competitors.ts";
import { getDigest, listDigests } from "../db/queries/digests.ts";
import { getSignal, listSignalsJson, type SignalFilter } from "../db/queries/signals.ts";
import { MAX_ID, TEXT } from "../domain/limits.ts";
import { CONTROL_CHARACTERS_REFUSED, MAX_SEARCH_TEXT, searchText } from "../domain/searchText.ts";
import { parseTimestamp } from "../domain/validate.ts";
import { cors } from "../http/cors.ts";
import { type Limiter, rateLimit } from "../http/rateLimit.ts";
import type { Services } from "../services.ts";
import { keyAccess } from "./access.ts";
import { dataResponse, type HeaderSet } from "./dataResponse.ts";
import { querySpec } from "./query.ts";

const idParam = t.Object({ id: t.Integer({ description: "Numeric id." }) });
/** Integer path ids are plain decimal digits. Runs before Elysia's numeric coercion, which would also
 * accept `0x3e9`, `1e3`, `+1` or ` 1` and find a record under a non-numeric id (docs/decisions.md: 404). */
const idRoute = {
  params: idParam,
  transform({ params }: { params: Record<string, unknown> }) {
    if (!/^\d{1,15}$/.test(String(params.id)))
      throw new Problem("not_found", "No record with that id in this workspace.");
  },
};

export const signalQuery = querySpec({
  competitor_id: T.Integer({
    format: "int64",
    minimum: 1,
    maximum: MAX_ID,
    description: "Only signals of this tracked competitor.",
  }),
  severity: T.Union([T.Literal("low"), T.Literal("medium"), T.Literal("high")], {
    description: "Only signals of this severity.",
  }),
  since: T.String({
    maxLength: 64,
    description: "ISO 8601 time; keeps signals first seen on or after it.",
  }),
  q: T.String({
    maxLength: MAX_SEARCH_TEXT,
    description: `Case-insensitive text matched literally in title or summary; empty matches all; ${CONTROL_CHARACTERS_REFUSED} (400).`,
  }),
  ...pageQuery,
});

export const digestQuery = querySpec({
  type: T.String({
    maxLength: 100,
    description: "Only digests of this debrief type, e.g. weekly_tldr; empty matches all.",
  }),
  ...pageQuery,
});

type SignalQuery = ReturnType<typeof signalQuery.parse>;
const signalFilters = new WeakMap<SignalQuery, { filter: SignalFilter; page: Page }>();

/** The list filter and page of a parsed query: kept with the (shared, frozen) query object, so a repeated
 * query also reuses its filter, and listSignals its cache key. */
function signalFilterOf(query: SignalQuery): { filter: SignalFilter; page: Page } {
  let r = signalFilters.get(query);
  if (r === undefined) {
    const page = pageOf(query);
    let since: string | undefined;
    if (query.since !== undefined) {
      since = parseTimestamp(query.since) ?? undefined;
      if (since === undefined)
        throw new Problem(
          "invalid_request",
          "since must be an ISO 8601 time, for example 2026-01-31T00:00:00Z.",
        );
    }
    let q: string | undefined;
    if (query.q !== undefined) {
      const checked = searchText(query.q);
      if (!checked.ok) throw new Problem("invalid_request", `Query parameter q ${checked.reason}.`);
      q = checked.text;
    }
    const filter: SignalFilter = {
      competitorId: query.competitor_id,
      severity: query.severity,
      since,
      q,
      limit: page.limit,
      offset: page.offset,
    };
    r = { filter: Object.freeze(filter), page };
    signalFilters.set(query, r);
  }
  return r;
}

function found(request: Request, set: HeaderSet, v: object | undefined, kind: string): Response {
  if (v === undefined) throw new Problem("not_found", `No ${kind} with that id in this workspace.`);
  return dataResponse(request, set, v);
}

export function readApi(s: Services, limiter: Limiter, keys: ApiKeyResolver) {
  const db = s.database.db;
  const base = s.config.baseUrl;
  // In this order, before any route: CORS preflights (no key, not counted; any other OPTIONS gets the read
  // API's "GET only" answer) and the CORS headers, then the rate limit, then the key.
  return new Elysia({ prefix: "/api/v1" })
    .use(
      cors(s.config.corsOrigins, (request) => {
        throw new Problem(
          "not_found",
          `The read API answers GET only; nothing is served for OPTIONS ${new URL(request.url).pathname}.`,
          { allow: "GET, HEAD" },
        );
      }),
    )
    .use(rateLimit(limiter, s.config.trustProxy))
    .use(keyAccess(keys))
    .get(
      "/competitors",
      async ({ principal, request, set }) =>
        dataResponse(request, set, await listCompetitors(db, principal.orgId, base)),
      docs.listCompetitors,
    )
    .get(
      "/competitors/:id",
      async ({ principal, params, request, set }) =>
        found(request, set, await getCompetitor(db, principal.orgId, params.id, base), "competitor"),
      { ...idRoute, ...docs.getCompetitor },
    )
    .get(
      "/signals",
      async ({ principal, request, set }) => {
        const { filter, page } = signalFilterOf(signalQuery.parse(request.url));
        const data = await listSignalsJson(db, principal.orgId, filter, base);
        return dataResponse(request, set, data, page);
      },
      docs.listSignals,
    )
    .get(
      "/signals/:id",
      async ({ principal, params, request, set }) =>
        found(request, set, await getSignal(db, principal.orgId, params.id, base), "signal"),
      { ...idRoute, ...docs.getSignal },
    )
    .get(
      "/digests",
      async ({ principal, request, set }) => {
        const query = digestQuery.parse(request.url);
        const p = pageOf(query);
        return dataResponse(
          request,
          set,
          await listDigests(
            db,
            principal.orgId,
            { type: query.type, limit: p.limit, offset: p.offset },
            base,
          ),
          p,
        );
      },
      docs.listDigests,
    )
    .get(
      "/digests/:id",
      async ({ principal, params, request, set }) =>
        found(request, set, await getDigest(db, principal.orgId, params.id, base), "digest"),
      {
        params: t.Object({
          id: t.String({ maxLength: TEXT.slug, description: "Digest slug, or numeric id." }),
        }),
        ...docs.getDigest,
      },
    )
    .get(
      "/battlecards",
      async ({ principal, request, set }) =>
        dataResponse(request, set, await listBattlecards(db, principal.orgId, base)),
      docs.listBattlecards,
    )
    .get(
      "/battlecards/:id",
      async ({ principal, params, request, set }) =>
        found(request, set, await getBattlecard(db, principal.orgId, params.id, base), "battlecard"),
      { ...idRoute, ...docs.getBattlecard },
    );
}
