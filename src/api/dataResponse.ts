// The body of every successful read-API response, and its ETag.
//
// The body is built from the value's memoized JSON text (cache.ts `jsonOf`): a cached record or list is
// serialized once per data version, not once per request (bench/read-api.ts: it lifts the list endpoints from
// about 0.5 to over 0.6 of a bare server's throughput). The ETag is a hash of that text, memoized the same
// way, plus the page: a client polling with If-None-Match gets 304 with no body while nothing it reads has
// changed. The encoded body and the ETag are kept per value and page: a cached read costs no serialization,
// hash or UTF-8 encoding. Responses are `private, no-cache`: a shared cache must not keep one workspace's data (a key in
// X-API-Key is not the Authorization header caches already know to keep private), and a private one revalidates
// with the ETag. The request id and RateLimit-* headers that hooks put in `set.headers` go into the one
// Response built here (takeHeaders).

import type { Page } from "../contract/pagination.ts";
import { jsonOf } from "../db/queries/cache.ts";

const JSON_TYPE = "application/json;charset=utf-8";
const CACHE_CONTROL = "private, no-cache";
const encoder = new TextEncoder();

/** A value's response body, encoded once, and its entity tag: per value and page. A Blob, because a Response
 * made from one shares its bytes (one made from a Uint8Array copies them, from a string encodes it). */
interface Rendered {
  body: Blob;
  etag: string;
}
const rendered = new WeakMap<object, Map<string, Rendered>>();

function renderedOf(data: object, page?: Page): Rendered {
  const key = page ? `-${page.page}-${page.perPage}` : "";
  let byPage = rendered.get(data);
  if (byPage === undefined) {
    byPage = new Map();
    rendered.set(data, byPage);
  }
  let r = byPage.get(key);
  if (r === undefined) {
    const tail = page ? `,"page":${page.page},"per_page":${page.perPage}}` : "}";
    // One encoding of the whole body, and a Blob of that one part: a Blob of several parts costs about 15 µs
    // more for a 30 KB list (bench/cold-path.ts), on every cache miss.
    const bytes = encoder.encode(`{"data":${jsonOf(data)}${tail}`);
    r = { body: new Blob([bytes]), etag: `"${Bun.hash(bytes).toString(36)}${key}"` };
    byPage.set(key, r);
  }
  return r;
}

/** Longest entity tag made here: a 64-bit hash in base 36, the page and its size, quoted. */
export const ETAG_MAX = 64;
/** Longest If-None-Match read; a longer one is ignored (a server may ignore a precondition, RFC 9110 13.2.1). */
export const IF_NONE_MATCH_MAX = 1024;

/** Whether an If-None-Match header names this entity tag (weak comparison, RFC 9110 13.1.2). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null || ifNoneMatch.length > IF_NONE_MATCH_MAX) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** The context's `set`, whose headers (request id, RateLimit-*) Elysia would merge into a returned Response. */
export interface HeaderSet {
  headers: Record<string, unknown>;
}

/** Takes the headers other hooks put in `set.headers` into this response's own: with `set.headers` left
 * empty, Elysia sends the Response as it is instead of building a second one to merge them into. */
function takeHeaders(own: Record<string, string>, set: HeaderSet): Record<string, string> {
  const extra = set.headers;
  for (const k in extra) own[k] = String(extra[k]);
  set.headers = {};
  return own;
}

/** `{"data":…}` (with `page` and `per_page` when paginated) or 304 Not Modified when the client has it. */
export function dataResponse(request: Request, set: HeaderSet, data: object, page?: Page): Response {
  const { body, etag } = renderedOf(data, page);
  if (matchesEtag(request.headers.get("if-none-match"), etag))
    return new Response(null, {
      status: 304,
      headers: takeHeaders({ etag, "cache-control": CACHE_CONTROL }, set),
    });
  return new Response(body, {
    headers: takeHeaders({ "content-type": JSON_TYPE, etag, "cache-control": CACHE_CONTROL }, set),
  });
}
