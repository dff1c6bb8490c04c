// What research read is the monitoring baseline: right after a competitor's research is recorded, every
// source it found that has no snapshot yet is snapshotted from the bodies research already fetched, with
// their HTTP validators (ETag, Last-Modified). The first cycle then sends conditional requests and reports
// whatever changed since research like any other change; nothing is downloaded twice. A source research
// did not fetch itself (a monitored page, a board's later pages) is fetched now.
import type { Services } from "../../services.ts";
import { checkCompetitor } from "../cycle/competitor.ts";
import { competitorSources } from "../cycle/sources.ts";
import { type Fetcher, type FetchResult, workspaceFetcher } from "../fetch/index.ts";
import { snapshotStoreFor } from "../snapshots/index.ts";

/** A fetcher that answers a plain GET research made from research's own answer, and anything else live. */
export function replaying(read: ReadonlyMap<string, FetchResult>, live: Fetcher): Fetcher {
  return {
    fetch(req) {
      const plain = (req.method ?? "GET") === "GET" && !req.etag && !req.lastModified && !req.body;
      const r = plain ? read.get(req.url) : undefined;
      return r?.ok ? Promise.resolve(r) : live.fetch(req);
    },
  };
}

/** Takes the first snapshots of a researched competitor's sources that have none. Returns how many. */
export async function baselineFromResearch(
  s: Services,
  orgId: number,
  competitor: { id: number; name: string },
  read: ReadonlyMap<string, FetchResult>,
): Promise<number> {
  const kept = new Set(
    (await snapshotStoreFor(s).sources(orgId, competitor.id))
      .filter((st) => st.latestHash)
      .map((st) => st.url),
  );
  const sources = (await competitorSources(s, orgId, competitor.id)).filter((src) => !kept.has(src.url));
  if (sources.length === 0) return 0;
  const r = await checkCompetitor(
    s,
    orgId,
    null,
    competitor,
    sources,
    replaying(read, (await workspaceFetcher(s, orgId)).fetcher),
  );
  return r.baseline;
}
