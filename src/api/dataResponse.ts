// The body of every successful read-API response, and its ETag.
//
// The body is built from the value's memoized JSON text (cache.ts `jsonOf`): a cached record or list is
// serialized once per data version, not once per request (bench/read-api.ts: it lifts the list endpoints from
// about 0.5 to over 0.6 of a bare server's throughput). The ETag is a hash of that text, memoized the same
// way, plus the page: a client polling with If-None-Match gets 304 with no body while nothing it reads has
// changed. Responses are `private, no-cache`: a shared cache must not keep one workspace's data (a key in
// X-API-Key is not the Authorization header caches already know to keep private), and a private one revalidates
// with the ETag. Elysia merges `set.headers` (request id, RateLimit-*) into the returned Response.
import { jsonOf } from "../db/queries/cache.ts";
import type { Page } from "./pagination.ts";

const JSON_TYPE = "application/json;charset=utf-8";
const CACHE_CONTROL = "private, no-cache";
const hashes = new WeakMap<object, string>();

function hashOf(data: object): string {
  let h = hashes.get(data);
  if (h === undefined) {
    h = Bun.hash(jsonOf(data)).toString(36);
    hashes.set(data, h);
  }
  return h;
}

/** Whether an If-None-Match header names this entity tag (weak comparison, RFC 9110 13.1.2). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** `{"data":…}` (with `page` and `per_page` when paginated) or 304 Not Modified when the client has it. */
export function dataResponse(request: Request, data: object, page?: Page): Response {
  const tail = page ? `,"page":${page.page},"per_page":${page.perPage}}` : "}";
  const etag = `"${hashOf(data)}${page ? `-${page.page}-${page.perPage}` : ""}"`;
  if (matchesEtag(request.headers.get("if-none-match"), etag))
    return new Response(null, { status: 304, headers: { etag, "cache-control": CACHE_CONTROL } });
  return new Response(`{"data":${jsonOf(data)}${tail}`, {
    headers: { "content-type": JSON_TYPE, etag, "cache-control": CACHE_CONTROL },
  });
}
