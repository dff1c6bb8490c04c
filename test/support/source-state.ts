// What a test's check of one page starts from: the page's stored state as the snapshot store reads it (checked
// once on 20 Nov 2026, never failing), its competitor, and a fetcher that reads the page's origin from a local
// server.
import { createFetcher, type Fetcher } from "../../src/engine/fetch/index.ts";
import type { SourceState } from "../../src/engine/snapshots/store.ts";

export function pageState(
  url: string,
  state: Pick<SourceState, "etag" | "bodyHash" | "rendered">,
): SourceState {
  return {
    id: 1,
    orgId: 1,
    competitorId: 1,
    key: `page:${url}`,
    url,
    kind: "page",
    lastModified: null,
    firstSeenAt: "2026-11-20T12:00:00.000Z",
    lastCheckedAt: "2026-11-20T12:00:00.000Z",
    lastChangedAt: null,
    latestHash: "abc",
    failures: 0,
    lastError: null,
    lastErrorAt: null,
    failingSince: null,
    ...state,
  };
}

/** The competitor those pages are of, and when its check began. */
export const COMPETITOR = { id: 1, name: "Plain" };
export const AT = "2026-11-21T12:00:00.000Z";

/** A fetcher (no pause between requests) that reads `origin` from the local server on `port`. */
export const fetcherTo = (origin: string, port: number | undefined): Fetcher =>
  createFetcher({
    userAgent: "RivalsBot/1.0 (+http://rivals.test/bot)",
    delayMs: 0,
    rewrite: [{ from: origin, to: `http://127.0.0.1:${port}` }],
  });
