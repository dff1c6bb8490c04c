// Checking one competitor: its sources one at a time (check.ts), its job board after its careers pages (a company
// that moved to another provider is followed in the same cycle: boards.ts), then what they show recorded
// (results.ts).
import type { Services } from "../../services.ts";
import { reportedGone } from "../classify/presence.ts";
import type { Fetcher } from "../fetch/index.ts";
import { type PageRead, pageRead, readsTech } from "../research/reads.ts";
import { snapshotStoreFor } from "../snapshots/index.ts";
import { sourceKind } from "../sources/kinds/index.ts";
import { extractPool, roomForBody } from "../workers/extract.ts";
import { type BoardFollow, boardBefore, boardsOnCareersPage, followBoard } from "./boards.ts";
import { type CheckOptions, checkSource, keyOf } from "./check.ts";
import { type CompetitorResult, type Recorded, recordResults } from "./results.ts";
import type { CompetitorRow, Source } from "./types.ts";

/** Checks a competitor's sources and records what they show. `cycleId` null: research's first snapshots
 * (research/baseline.ts), which are no cycle and record no CompetitorChecked. */
export async function checkCompetitor(
  s: Services,
  orgId: number,
  cycleId: number | null,
  comp: CompetitorRow,
  sources: Source[],
  fetcher: Fetcher,
): Promise<CompetitorResult> {
  const r = await checkAndRecord(s, orgId, cycleId, comp, sources, fetcher);
  await r.written;
  return r.result;
}

/** checkCompetitor, back once the sources are checked: its result, and `written` when its last writes (a quiet
 * check's wait for its batch) are committed. */
export async function checkAndRecord(
  s: Services,
  orgId: number,
  cycleId: number | null,
  comp: CompetitorRow,
  sources: Source[],
  fetcher: Fetcher,
): Promise<Recorded> {
  const store = snapshotStoreFor(s);
  const states = new Map((await store.sources(orgId, comp.id)).map((st) => [st.key, st]));
  // A changed page is read for the dossier as research reads it, from the body just checked (held only until
  // its check ends; the comparison's snapshot is masked and unordered, no read for a reader).
  const reads = new Map<string, PageRead>();
  const checkNow = async (src: Source, more?: CheckOptions) => {
    let body: (() => string) | undefined;
    const state = states.get(keyOf(sourceKind(src.kind).snapshot, src.url));
    // A page reported removed is read whole when it answers again (no conditional request): its dossier reads
    // come back from what it shows, even unchanged.
    const gone = sourceKind(src.kind).snapshot === "page" && reportedGone(state);
    const o = await checkSource(
      s,
      orgId,
      comp.id,
      src,
      gone && state ? { ...state, etag: null, lastModified: null, bodyHash: null } : state,
      fetcher,
      {
        ...more,
        onBody: (text) => {
          body = text;
          more?.onBody?.(text);
        },
      },
    );
    const changed = o.status === "changed" && o.snapshotKind === "page";
    if ((changed || (gone && o.status === "unchanged")) && body !== undefined) {
      const html = body();
      body = undefined;
      const tech = readsTech(src.kind);
      const fetched = changed ? o.fetched : undefined;
      const x = await extractPool(s.config)
        .run({
          html,
          url: fetched?.finalUrl ?? src.url,
          tech,
          ...(tech ? { headers: fetched?.headers ?? {} } : {}),
        })
        .catch(() => undefined);
      if (x) reads.set(o.key, pageRead(x.page, src.kind, tech ? x.tech : undefined));
    }
    return o;
  };
  // One source at a time, each once the extraction pool has room for a body: most of a competitor's sources are
  // on its own host, which is asked once a second whatever the order, and a cycle whose pool is behind (first
  // snapshots) then holds one body per competitor checked at once, not all their pages.
  let turn: Promise<unknown> = Promise.resolve();
  const check = (src: Source, more?: CheckOptions) => {
    const mine = turn.then(() => roomForBody(s.config)).then(() => checkNow(src, more));
    turn = mine.catch(() => undefined);
    return mine;
  };
  // The job board is detected again on every careers page read: it is checked once those are.
  const named: ReturnType<typeof boardsOnCareersPage>[] = [];
  const isBoard = (src: Source) => sourceKind(src.kind).name === "job_board";
  const pageSources = sources.filter((src) => !isBoard(src));
  const pageChecks = pageSources.map((src) =>
    check(
      src,
      src.kind === "careers" ? { onBody: (html) => named.push(boardsOnCareersPage(html())) } : undefined,
    ),
  );
  const careersChecks = pageChecks.filter((_, i) => pageSources[i]?.kind === "careers");
  let follow: BoardFollow = { check: sources.filter(isBoard) };
  const boardChecks = Promise.all(careersChecks).then(() => {
    follow = followBoard(follow.check, named.flat());
    return Promise.all(
      follow.check.map((src) => {
        const follows = follow.follows ?? boardBefore([...states.values()], src);
        return check(src, follows ? { follows } : undefined);
      }),
    );
  });
  const outcomes = [...(await Promise.all(pageChecks)), ...(await boardChecks)];
  return recordResults(s, orgId, cycleId, comp, outcomes, states, follow, store, reads);
}
