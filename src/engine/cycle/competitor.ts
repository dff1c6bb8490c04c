// Checking one competitor: its own site's sources one at a time (check.ts), those on hosts other competitors share
// too (job boards, public APIs) one at a time beside them, each at its turn when the host is shared by more than
// it can answer in the hour (schedule/rotation.ts); its job board after its careers pages (a company that moved
// to another provider is followed in the same cycle: boards.ts); then what they show recorded (results.ts).
import type { Services } from "../../services.ts";
import { reportedGone } from "../classify/presence.ts";
import type { Fetcher } from "../fetch/index.ts";
import { type PageRead, pageRead, readsTech } from "../research/pageRead.ts";
import { dueInCycle, hostInterval, mainHost, sourceHost } from "../schedule/rotation.ts";
import { snapshotStoreFor } from "../snapshots/index.ts";
import { sourceKind } from "../sources/kinds/index.ts";
import { collectAbove } from "../workers/collect.ts";
import { extractPool, roomForBody } from "../workers/extract.ts";
import { type BoardFollow, boardBefore, boardsOnCareersPage, followBoard } from "./boards.ts";
import { type CheckOptions, checkSource, keyOf, type Outcome } from "./check.ts";
import { type CompetitorResult, type Recorded, recordResults } from "./results.ts";
import type { CompetitorRow, Source } from "./types.ts";

/** The main thread's heap above which a full collection follows a source whose snapshot was made: its body (and,
 * for a kind parsed on the main thread, its snapshots and their comparison) is garbage once it is stored (a first
 * snapshot) or classified (a changed source), and 48 lanes of them outgrow the per-competitor collection (run.ts)
 * between two competitors. A first cycle of 200 competitors × 10 pages peaked at 283 MB at 32 MB, 316 MB
 * at 48 MB, 334 MB without (docs/scale.md, "First snapshots"). Two cycles of 200 × 11 changed pages peaked at
 * 290-308 MB at 40 MB, 299-316 MB at 48, 332-361 MB without, for about a millisecond more of the main thread per
 * page (docs/scale.md, "A changed page's garbage"). */
const COLLECT_AFTER_SNAPSHOT: Partial<Record<Outcome["status"], number>> = {
  baseline: 32 * 1024 * 1024,
  changed: 40 * 1024 * 1024,
};

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
  const r = await checkAndRecord({ s, orgId, cycleId, comp, sources, fetcher }).recorded;
  await r.written;
  return r.result;
}

/** A competitor's check under way. */
export interface Checking {
  /** Its own site's sources checked: true when checks on hosts other competitors share (a job board provider,
   * a public API) are still waiting, where holding a scheduler's lane would only keep other competitors
   * waiting; false once everything is checked and recorded. */
  ownChecked: Promise<boolean>;
  /** Every source due checked, back with its result; `written` when its last writes (a quiet check's wait for
   * its batch) are committed. */
  recorded: Promise<Recorded>;
}

/** What checking a competitor takes: `cycleStart`, when its cycle started (none: research's first snapshots). */
export interface CheckArgs {
  s: Services;
  orgId: number;
  cycleId: number | null;
  comp: CompetitorRow;
  sources: Source[];
  fetcher: Fetcher;
  cycleStart?: string;
}

/** Starts checking a competitor's sources. In a cycle, a source on a host many competitors share is checked at
 * its turn (schedule/rotation.ts) and counted as due later otherwise. */
export function checkAndRecord(args: CheckArgs): Checking {
  let ownDone!: (waiting: boolean) => void;
  const ownChecked = new Promise<boolean>((resolve) => {
    ownDone = resolve;
  });
  const recorded = checkAll(args, ownDone);
  void recorded.then(
    () => ownDone(false),
    () => ownDone(false),
  );
  return { ownChecked, recorded };
}

async function checkAll(args: CheckArgs, ownDone: (waiting: boolean) => void): Promise<Recorded> {
  const { s, orgId, cycleId, comp, sources, fetcher, cycleStart } = args;
  // When the competitor was checked: its signals, snapshots and check record say so.
  const at = s.clock().toISOString();
  const store = snapshotStoreFor(s);
  const states = new Map((await store.sources(orgId, comp.id)).map((st) => [st.key, st]));
  const stateOf = (src: Source) => states.get(keyOf(sourceKind(src.kind).snapshot, src.url));
  const own = mainHost(sources.map((src) => src.url));
  const away = (src: Source) => sourceHost(src.url) !== own;
  // A host other competitors' sources are on too: other instances may be reading it at the same time.
  const awayFetcher: Fetcher = { fetch: (req) => fetcher.fetch({ ...req, sharedHost: true }) };
  const later: Source[] = [];
  const due = async (src: Source): Promise<boolean> => {
    if (cycleId === null || cycleStart === undefined || !away(src)) return true;
    const every = await hostInterval(s, sourceHost(src.url));
    // A failed check moves only the error's time: the source was asked then too.
    const st = stateOf(src);
    const asked = st?.lastErrorAt && st.lastErrorAt > st.lastCheckedAt ? st.lastErrorAt : st?.lastCheckedAt;
    const yes = dueInCycle(`${comp.id} ${src.url}`, every, Date.parse(cycleStart), asked);
    if (!yes) later.push(src);
    return yes;
  };
  // A changed page is read for the dossier as research reads it, from the body just checked (held only until
  // its check ends; the comparison's snapshot is masked and unordered, no read for a reader).
  const reads = new Map<string, PageRead>();
  const checkNow = async (src: Source, more?: CheckOptions) => {
    let body: (() => string) | undefined;
    const state = stateOf(src);
    // A page reported removed is read whole when it answers again (no conditional request): its dossier reads
    // come back from what it shows, even unchanged.
    const page = sourceKind(src.kind).snapshot === "page";
    const gone = page && reportedGone(state);
    const tech = readsTech(src.kind);
    let read: PageRead | undefined;
    const o = await checkSource(
      s,
      orgId,
      comp,
      at,
      src,
      gone && state ? { ...state, etag: null, lastModified: null, bodyHash: null } : state,
      away(src) ? awayFetcher : fetcher,
      {
        ...more,
        onBody: (text) => {
          body = text;
          more?.onBody?.(text);
        },
        // A changed page's read comes from the parse its snapshot was made from.
        ...(page
          ? {
              read: {
                tech,
                onRead: (r) => {
                  read = r;
                },
              },
            }
          : {}),
      },
    );
    if (read) reads.set(o.key, read);
    else if (gone && o.status === "unchanged" && body !== undefined) {
      // A page reported removed answers the same again: no snapshot task extracted it, so it is read here.
      const x = await extractPool(s.config)
        .run({ html: body(), url: src.url, tech, ...(tech ? { headers: {} } : {}) })
        .catch(() => undefined);
      if (x) reads.set(o.key, pageRead(x.page, src.kind, tech ? x.tech : undefined));
    }
    body = undefined;
    const budget = COLLECT_AFTER_SNAPSHOT[o.status];
    if (budget) collectAbove(budget);
    return o;
  };
  // One source at a time per chain, each once the extraction pool has room for a body: most of a competitor's
  // sources are on its own host, which is asked once a second whatever the order, and a cycle whose pool is
  // behind (first snapshots) then holds one body per competitor checked at once, not all their pages. Sources on
  // other hosts have a chain of their own, so a host every competitor shares never holds up its own site.
  const turns = { own: Promise.resolve() as Promise<unknown>, away: Promise.resolve() as Promise<unknown> };
  let awayLeft = 0;
  const check = (src: Source, more?: CheckOptions) => {
    const chain = away(src) ? "away" : "own";
    if (chain === "away") awayLeft++;
    const mine = turns[chain].then(() => roomForBody(s.config)).then(() => checkNow(src, more));
    turns[chain] = mine.catch(() => undefined);
    if (chain === "away") void turns.away.then(() => awayLeft--);
    return mine;
  };
  // The job board is detected again on every careers page read: it is checked once those are.
  const named: ReturnType<typeof boardsOnCareersPage>[] = [];
  const isBoard = (src: Source) => sourceKind(src.kind).name === "job_board";
  const pageSources = await dueOf(
    sources.filter((src) => !isBoard(src)),
    due,
  );
  const pageChecks = pageSources.map((src) =>
    check(
      src,
      src.kind === "careers" ? { onBody: (html) => named.push(boardsOnCareersPage(html())) } : undefined,
    ),
  );
  const careersChecks = pageChecks.filter((_, i) => pageSources[i]?.kind === "careers");
  let follow: BoardFollow = { check: sources.filter(isBoard) };
  const boardsQueued = Promise.all(careersChecks).then(async () => {
    follow = followBoard(follow.check, named.flat());
    // A board the company moved to is new, and checked now; one it still names waits for its turn.
    const boards = follow.moved ? follow.check : await dueOf(follow.check, due);
    return boards.map((src) => {
      const follows = follow.follows ?? boardBefore([...states.values()], src);
      return check(src, follows ? { follows } : undefined);
    });
  });
  // Its own site is done once everything queued on its chain is, boards included (a board on the site itself);
  // with nothing left elsewhere, it is done when recorded.
  const ownSettled = boardsQueued.then(() => turns.own);
  void ownSettled.then(
    () => awayLeft > 0 && ownDone(true),
    () => undefined,
  );
  const outcomes = [...(await Promise.all(pageChecks)), ...(await Promise.all(await boardsQueued))];
  return recordResults(s, orgId, cycleId, comp, outcomes, states, follow, store, reads, later, at);
}

/** The sources `due` says are checked now, in their order. */
async function dueOf(sources: Source[], due: (src: Source) => Promise<boolean>): Promise<Source[]> {
  const out: Source[] = [];
  for (const src of sources) if (await due(src)) out.push(src);
  return out;
}
