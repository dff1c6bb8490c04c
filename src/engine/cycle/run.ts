// One monitoring cycle of one workspace (ENGINE.md "Cycles, scheduling, delivery"; docs/engine.md "Cycles and
// scheduling"): every source of every core competitor (research's sources and the monitored pages) is fetched
// with a conditional GET, a page is extracted, normalised and hashed in the Worker pool, compared with the
// source's last snapshot and history, classified, and recorded as signals; then one CompetitorChecked event per
// competitor (its freshness), expired signals closed, the after-cycle steps (after.ts), and the summary on the
// cycle's record (record.ts, outside the log). An unchanged source adds no snapshot bytes, an unchanged cycle one
// event per competitor; a 304 answer is not even extracted.
import type { EventMetadata } from "../../../events/catalog.ts";
import { DomainError } from "../../domain/errors.ts";
import type { Services } from "../../services.ts";
import { classify } from "../classify/classify.ts";
import { pageGone, STRIKES } from "../classify/presence.ts";
import type { SignalDraft } from "../classify/types.ts";
import {
  normaliseFeed,
  normaliseJobs,
  normaliseStructured,
  serialise,
  snapshotHash,
} from "../compare/normalise.ts";
import type { Change, Snapshot, SnapshotKind } from "../compare/types.ts";
import { type Fetcher, type FetchResult, fetcherFor } from "../fetch/index.ts";
import { rendererFor, visibleHtml } from "../render/index.ts";
import { snapshotStoreFor } from "../snapshots/index.ts";
import { compareWithHistory } from "../snapshots/observe.ts";
import type { SourceState } from "../snapshots/store.ts";
import { type BoardRead, readJobBoard } from "../sources/boards/read.ts";
import { classifyUrl, pageKey } from "../sources/discover.ts";
import { notAFeed, parseFeed } from "../sources/feeds.ts";
import { detectJobBoard, type Job } from "../sources/jobBoards.ts";
import { parseSecurityTxt } from "../sources/securityTxt.ts";
import { snapshotPool } from "../workers/extract.ts";
import { closeExpiredSignals, recordDrafts } from "../write/signals.ts";
import { afterCycleSteps } from "./after.ts";
import { type BoardFollow, boardBefore, boardsOnCareersPage, followBoard } from "./boards.ts";
import { finishCycle, type OpenedCycle, openCycle } from "./record.ts";
import type { CycleSummary, CycleTrigger, FinishedCycle } from "./types.ts";

/** The main thread's heap size above which the cycle collects garbage after a competitor whose bodies were read
 * (a size check, about 10 µs): the process stays under the 400 MB a cycle may peak at (ENGINE.md "Targets"). */
const COLLECT_ABOVE_HEAP_BYTES = 64 * 1024 * 1024;

export type { CycleSummary, CycleTrigger, FinishedCycle } from "./types.ts";

export interface CycleOptions {
  competitorId?: number;
  trigger: CycleTrigger;
  /** The scheduler's due slot (ISO start), recorded on CycleStarted. */
  slot?: string;
  /** Competitors checked at once (default 4). */
  concurrency?: number;
  /** The fetcher (default: the process-wide one for the services' config). */
  fetcher?: Fetcher;
}

const MAX_FAILURES_LISTED = 20;
const HTML = /html|xhtml/i;
const META: EventMetadata = { actor: "engine", source: "engine" };

interface Source {
  url: string;
  /** Research's kind (home, pricing …, feed, releases_feed, job_board:greenhouse, security_txt) or the
   * monitored page's kind from its URL. */
  kind: string;
  monitored: boolean;
  /** Always read in the browser (a monitored page added with render: true). */
  render?: boolean;
}

export interface CompetitorRow {
  id: number;
  name: string;
  researchState?: string;
}

type Outcome =
  | {
      status: "not_modified" | "unchanged";
      source: Source;
      key: string;
      etag?: string;
      lastModified?: string;
      bodyHash?: string;
    }
  | {
      status: "changed" | "baseline";
      source: Source;
      key: string;
      snapshotKind: SnapshotKind;
      snapshot: Snapshot;
      previous?: Snapshot;
      changes: Change[];
      /** What the store keeps of the answer (not its body: a competitor's outcomes wait for each other). */
      fetched: Pick<Extract<FetchResult, { ok: true }>, "etag" | "lastModified" | "status" | "finalUrl">;
      bodyHash: string;
    }
  | {
      status: "failed";
      source: Source;
      key: string;
      snapshotKind: SnapshotKind;
      error: string;
      http?: number;
    };

interface CompetitorResult {
  competitorId: number;
  checked: number;
  changed: number;
  failed: number;
  notModified: number;
  baseline: number;
  created: number[];
  updated: number[];
  closed: number[];
  failures: { url: string; kind: string; error: string; failures: number; since: string }[];
}

function snapshotKindOf(kind: string): SnapshotKind {
  if (kind === "feed" || kind === "releases_feed") return "feed";
  if (kind.startsWith("job_board:")) return "jobs";
  if (kind === "security_txt") return "structured";
  return "page";
}

function classifyKind(kind: string): string {
  if (kind === "feed" || kind === "releases_feed") return "feed";
  if (kind.startsWith("job_board:")) return "jobs";
  if (kind === "security_txt") return "security";
  return kind;
}

const keyOf = (kind: SnapshotKind, url: string) => `${kind}:${url}`;

function errorText(r: { error: string; status?: number }): string {
  return r.error === "http_error" && r.status ? `http_error ${r.status}` : r.error;
}

/** The sources of one competitor: research's, then the monitored pages (a page research also found once). */
export async function competitorSources(s: Services, orgId: number, competitorId: number): Promise<Source[]> {
  const c = s.database.client;
  const [research, monitored] = await Promise.all([
    c.execute({
      sql: "SELECT url, kind FROM research_sources WHERE org_id = ? AND competitor_id = ? ORDER BY rowid",
      args: [orgId, competitorId],
    }),
    c.execute({
      sql: "SELECT url, render FROM monitored_pages WHERE org_id = ? AND competitor_id = ? ORDER BY id",
      args: [orgId, competitorId],
    }),
  ]);
  const out: Source[] = [];
  const seen = new Map<string, Source>();
  const add = (src: Source) => {
    let k: string;
    try {
      k = snapshotKindOf(src.kind) === "page" ? pageKey(src.url) : src.url;
    } catch {
      return;
    }
    const had = seen.get(k);
    if (had) {
      if (src.render) had.render = true;
      return;
    }
    seen.set(k, src);
    out.push(src);
  };
  for (const r of research.rows) add({ url: String(r.url), kind: String(r.kind), monitored: false });
  for (const r of monitored.rows) {
    const url = String(r.url);
    add({ url, kind: classifyUrl(url) ?? "monitored", monitored: true, render: Number(r.render) === 1 });
  }
  return out;
}

/** Reads one source now: its snapshot, compared with what the store holds (or, for a job board the careers page
 * moved to, with the last snapshot of the board it `follows`). `onBody` sees a body that was read. Never throws
 * for a source's faults. */
async function checkSource(
  s: Services,
  orgId: number,
  competitorId: number,
  src: Source,
  state: SourceState | undefined,
  fetcher: Fetcher,
  more: { follows?: Source; onBody?: (text: string) => void } = {},
): Promise<Outcome> {
  const snapshotKind = snapshotKindOf(src.kind);
  const key = keyOf(snapshotKind, src.url);
  const fail = (error: string, http?: number): Outcome => ({
    status: "failed",
    source: src,
    key,
    snapshotKind,
    error,
    http,
  });
  // A page read in the browser is fetched whole: its served shell can stay the same while the data its
  // scripts load changes (its body hash starts with "r").
  const conditional = state?.latestHash && !src.render && !state.bodyHash?.startsWith("r");
  const validators = {
    ...(conditional && state.etag ? { etag: state.etag } : {}),
    ...(conditional && state.lastModified ? { lastModified: state.lastModified } : {}),
  };
  // A job board is read through its provider's API, in pages where it pages; an answer that is not the
  // provider's list is a failed check (boards/read.ts), never an empty board.
  let r: FetchResult | BoardRead;
  let boardJobs: Job[] = [];
  if (snapshotKind === "jobs") {
    const board = detectJobBoard(src.url);
    if (!board) return fail("unsupported_content");
    r = await readJobBoard(fetcher, board, validators);
    if (r.ok) boardJobs = r.jobs;
  } else r = await fetcher.fetch({ url: src.url, ...validators });
  if (!r.ok) return fail(errorText(r), r.status);
  if (r.notModified)
    return { status: "not_modified", source: src, key, etag: r.etag, lastModified: r.lastModified };
  // What a visitor sees: an application shell (or a page marked render) as the browser builds it; without a
  // browser it is a failed check, never an empty page.
  let text = r.text;
  let rendered = false;
  if (snapshotKind === "page" && HTML.test(r.contentType)) {
    const v = await visibleHtml(rendererFor(s.config), r, src.render);
    if (!v.ok) return fail(v.error);
    text = v.html;
    rendered = v.rendered;
  }
  more.onBody?.(text);
  // The same bytes as last time: unchanged, nothing to extract. body_hash holds "<bytes hash>.<page signature>"
  // (compare/signature.ts): a page whose bytes changed only where extraction reads nothing has the same
  // signature, and the Worker stops after parsing it. A rendered page's bytes hash starts with "r".
  const [lastBytes, lastSignature] = (state?.bodyHash ?? "").split(".");
  let bodyHash = `${rendered ? "r" : ""}${Bun.hash(text).toString(36)}`;
  const unchanged = (hashes: string) =>
    ({
      status: "unchanged",
      source: src,
      key,
      etag: r.etag,
      lastModified: r.lastModified,
      bodyHash: hashes,
    }) as const;
  if (state?.latestHash && lastBytes === bodyHash) return unchanged(state.bodyHash ?? bodyHash);
  let snapshot: Snapshot;
  let hash: string;
  try {
    if (snapshotKind === "page") {
      if (!HTML.test(r.contentType)) return fail("unsupported_content");
      const x = await snapshotPool(s.config).run({
        snapshot: true,
        html: text,
        url: r.finalUrl,
        sourceUrl: src.url,
        ...(state?.latestHash && lastSignature ? { signature: lastSignature } : {}),
      });
      if (x.signature) bodyHash = `${bodyHash}.${x.signature}`;
      if (x.same) return unchanged(bodyHash);
      snapshot = x.snapshot;
      hash = x.hash;
    } else {
      if (snapshotKind === "feed") {
        const wrong = notAFeed(r.text);
        if (wrong) return fail(wrong);
        snapshot = normaliseFeed(src.url, parseFeed(r.text, src.url));
      } else if (snapshotKind === "jobs") snapshot = normaliseJobs(src.url, boardJobs);
      else {
        const sec = parseSecurityTxt(r.text);
        if (!sec) return fail("unsupported_content");
        snapshot = normaliseStructured(src.url, sec as unknown as Record<string, unknown>);
      }
      hash = snapshotHash(serialise(snapshot));
    }
  } catch (e) {
    return fail(`unreadable: ${String((e as Error)?.message ?? e).slice(0, 200)}`);
  }
  // A board that moved is compared with the history of the board it follows (its first check is no baseline).
  const historyUrl = state?.latestHash ? src.url : more.follows?.url;
  const cmp = await compareWithHistory(
    snapshotStoreFor(s),
    historyUrl ? { orgId, competitorId, url: historyUrl, kind: snapshotKind } : undefined,
    snapshot,
    hash,
    state?.latestHash,
  );
  if (cmp.status === "unchanged") return unchanged(bodyHash);
  return {
    status: cmp.status,
    source: src,
    key,
    snapshotKind,
    snapshot,
    previous: cmp.status === "changed" ? cmp.previous : undefined,
    changes: cmp.status === "changed" ? cmp.changes : [],
    fetched: { etag: r.etag, lastModified: r.lastModified, status: r.status, finalUrl: r.finalUrl },
    bodyHash,
  };
}

const GONE = /^http_error (404|410)$/;
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
  const store = snapshotStoreFor(s);
  const states = new Map((await store.sources(orgId, comp.id)).map((st) => [st.key, st]));
  const check = (src: Source, more?: Parameters<typeof checkSource>[6]) =>
    checkSource(
      s,
      orgId,
      comp.id,
      src,
      states.get(keyOf(snapshotKindOf(src.kind), src.url)),
      fetcher,
      more,
    ).catch(
      (e): Outcome => ({
        status: "failed",
        source: src,
        key: keyOf(snapshotKindOf(src.kind), src.url),
        snapshotKind: snapshotKindOf(src.kind),
        error: `internal: ${String((e as Error)?.message ?? e).slice(0, 200)}`,
      }),
    );
  // The job board is detected again on every careers page read: it is checked once those are, so a company that
  // moved to another provider is followed in the same cycle (cycle/boards.ts).
  const named: ReturnType<typeof boardsOnCareersPage>[] = [];
  const pageSources = sources.filter((src) => !src.kind.startsWith("job_board:"));
  const pageChecks = pageSources.map((src) =>
    check(
      src,
      src.kind === "careers" ? { onBody: (html) => named.push(boardsOnCareersPage(html)) } : undefined,
    ),
  );
  const careersChecks = pageChecks.filter((_, i) => pageSources[i]?.kind === "careers");
  let follow: BoardFollow = { check: sources.filter((src) => src.kind.startsWith("job_board:")) };
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
  const at = s.clock().toISOString();

  // Classify every changed source; the drafts of all sources are recorded together (one event seen on blog,
  // changelog and feed is one signal).
  const drafts: SignalDraft[] = [];
  const failures: CompetitorResult["failures"] = [];
  for (const o of outcomes) {
    const state = states.get(o.key);
    if (o.status === "changed" && o.changes.length > 0)
      drafts.push(
        ...classify(o.changes, {
          competitor: { id: comp.id, name: comp.name },
          pageKind: classifyKind(o.source.kind),
          pageTitle: o.snapshot.title,
          observedAt: at,
          previous: o.previous,
          snapshot: o.snapshot,
        }),
      );
    if (o.status === "failed") {
      const n = (state?.failures ?? 0) + 1;
      const since = n === 1 || !state?.failingSince ? at : state.failingSince;
      failures.push({ url: o.source.url, kind: o.source.kind, error: o.error, failures: n, since });
      if (
        n === STRIKES &&
        o.snapshotKind === "page" &&
        o.source.kind !== "home" &&
        GONE.test(o.error) &&
        state?.latestHash
      )
        drafts.push(pageGone(comp.name, o.source, true, at, `${o.error}, failing since ${since}`));
    } else if (
      state &&
      state.failures >= STRIKES &&
      snapshotKindOf(o.source.kind) === "page" &&
      o.source.kind !== "home" &&
      GONE.test(state.lastError ?? "")
    )
      drafts.push(pageGone(comp.name, o.source, false, at, "answers again"));
  }
  const rec = await recordDrafts(s, orgId, comp.id, drafts, at);

  // Then the new snapshots (after the signals: a crash in between re-detects the change next cycle, and the
  // signal's dedup key makes that evidence on the same signal, not a second one).
  let changed = 0;
  let baseline = 0;
  for (const o of outcomes) {
    if (o.status !== "changed" && o.status !== "baseline") continue;
    const put = await store.put({
      orgId,
      competitorId: comp.id,
      url: o.source.url,
      kind: o.snapshotKind,
      snapshot: o.snapshot,
      observedAt: new Date(at),
      etag: o.fetched.etag,
      lastModified: o.fetched.lastModified,
      status: o.fetched.status,
      finalUrl: o.fetched.finalUrl,
    });
    if (o.status === "baseline") baseline++;
    else if (put.changed) changed++;
  }

  // One command: unchanged and not-modified checks, failures, and the competitor's CompetitorChecked event.
  const failed = outcomes.filter((o) => o.status === "failed");
  await s.store.execute(async ({ tx }) => {
    for (const o of outcomes) {
      if (o.status === "unchanged" || o.status === "not_modified")
        await tx.execute({
          sql: `UPDATE snapshot_sources SET last_checked_at = ?, etag = COALESCE(?, etag),
                  last_modified = COALESCE(?, last_modified), body_hash = COALESCE(?, body_hash), failures = 0
                WHERE org_id = ? AND competitor_id = ? AND source_key = ?`,
          args: [at, o.etag ?? null, o.lastModified ?? null, o.bodyHash ?? null, orgId, comp.id, o.key],
        });
      else if (o.status === "changed" || o.status === "baseline")
        await tx.execute({
          sql: "UPDATE snapshot_sources SET body_hash = ? WHERE org_id = ? AND competitor_id = ? AND source_key = ?",
          args: [o.bodyHash, orgId, comp.id, o.key],
        });
      else if (o.status === "failed")
        await tx.execute({
          sql: `INSERT INTO snapshot_sources (org_id, competitor_id, source_key, url, kind, first_seen_at,
                  last_checked_at, failures, last_error, last_error_at, failing_since)
                VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
                ON CONFLICT (org_id, competitor_id, source_key) DO UPDATE SET failures = failures + 1,
                  last_error = excluded.last_error, last_error_at = excluded.last_error_at,
                  failing_since = CASE WHEN failures = 0 OR failing_since IS NULL THEN excluded.last_error_at
                    ELSE failing_since END`,
          args: [orgId, comp.id, o.key, o.source.url, o.snapshotKind, at, at, o.error, at, at],
        });
    }
    if (cycleId === null) return { events: [], result: null };
    return {
      events: [
        {
          type: "CompetitorChecked",
          orgId,
          streamType: "competitor",
          streamId: String(comp.id),
          data: {
            competitor_id: comp.id,
            cycle_id: cycleId,
            checked_at: at,
            sources: outcomes.length,
            changed,
            failed: failed.length,
            ...(failures.length ? { failing: failures.slice(0, MAX_FAILURES_LISTED) } : {}),
            ...(follow.moved ? { job_board: follow.moved } : {}),
          },
        },
      ],
      result: null,
    };
  }, META);
  return {
    competitorId: comp.id,
    checked: outcomes.length,
    changed,
    failed: failed.length,
    notModified: outcomes.filter((o) => o.status === "not_modified").length,
    baseline,
    created: rec.created,
    updated: rec.updated,
    closed: rec.closed,
    failures,
  };
}

const running = new WeakMap<Services, Map<number, Promise<unknown>>>();

/** Runs one cycle of the workspace `orgId` (or of one of its core competitors). Cycles of one workspace in this
 * process run one after another. Throws DomainError not_found for an unknown workspace or competitor. */
export async function runCycle(s: Services, orgId: number, opts: CycleOptions): Promise<CycleSummary> {
  let perOrg = running.get(s);
  if (!perOrg) {
    perOrg = new Map();
    running.set(s, perOrg);
  }
  const before = perOrg.get(orgId) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(() => cycle(s, orgId, opts));
  const tracked = mine.catch(() => undefined);
  perOrg.set(orgId, tracked);
  void tracked.finally(() => {
    if (perOrg.get(orgId) === tracked) perOrg.delete(orgId);
  });
  return mine;
}

async function cycle(s: Services, orgId: number, opts: CycleOptions): Promise<CycleSummary> {
  const c = s.database.client;
  const org = (await c.execute({ sql: "SELECT slug FROM orgs WHERE id = ?", args: [orgId] })).rows[0];
  if (!org) throw new DomainError("not_found", `no workspace ${orgId}`);
  const comps = (
    await c.execute({
      sql: `SELECT id, name, state FROM competitors WHERE org_id = ? AND listed = 1 AND watch = 'core'
            ${opts.competitorId !== undefined ? "AND id = ?" : ""} ORDER BY priority_sort, tracked_sort, id`,
      args: opts.competitorId !== undefined ? [orgId, opts.competitorId] : [orgId],
    })
  ).rows.map((r): CompetitorRow => {
    const state = JSON.parse(String(r.state)) as { freshness?: { research_state?: string } };
    return { id: Number(r.id), name: String(r.name), researchState: state.freshness?.research_state };
  });
  if (opts.competitorId !== undefined && comps.length === 0)
    throw new DomainError("not_found", `no core competitor ${opts.competitorId} in this workspace`);

  const started = await openCycle(s, orgId, opts);
  try {
    return await checkAll(s, orgId, String(org.slug), comps, started, opts);
  } finally {
    started.stop();
  }
}

async function checkAll(
  s: Services,
  orgId: number,
  orgSlug: string,
  comps: CompetitorRow[],
  started: OpenedCycle,
  opts: CycleOptions,
): Promise<CycleSummary> {
  const fetcher = opts.fetcher ?? fetcherFor(s.config);
  const skipped: CycleSummary["competitors_skipped"] = [];
  const work: { comp: CompetitorRow; sources: Source[] }[] = [];
  for (const comp of comps) {
    const sources = await competitorSources(s, orgId, comp.id);
    if (sources.length === 0) {
      skipped.push({
        competitor_id: comp.id,
        name: comp.name,
        reason:
          comp.researchState === "running"
            ? "research is running; its first cycle comes after it"
            : "no research yet: nothing to check (run research_competitor first)",
      });
      continue;
    }
    work.push({ comp, sources });
  }
  const results: CompetitorResult[] = [];
  let next = 0;
  const lane = async () => {
    while (next < work.length) {
      const w = work[next++];
      try {
        const r = await checkCompetitor(s, orgId, started.id, w.comp, w.sources, fetcher);
        results.push(r);
        // Its pages' bodies, snapshots and histories outlived young collections while the competitor's other
        // pages were read, so they sit in the old generation until a full one (docs/engine.md, cycle "Memory").
        // Collected when the heap has grown past a budget, not after every competitor (that cost about a fifth
        // of a changed page's CPU, and held the peak no lower), nor after one whose every answer was a 304 or
        // a failure. A body read only to find the same bytes counts: 200 competitors' ~100 KB bodies left to
        // JSC's own pacing made the unchanged-200 cycle the bench's highest (386 MB).
        const bodies = r.checked - r.notModified - r.failed;
        if (bodies > 0 && process.memoryUsage().heapUsed > COLLECT_ABOVE_HEAP_BYTES) Bun.gc(true);
      } catch (e) {
        console.error(
          JSON.stringify({
            level: "error",
            cycle: started.id,
            competitor_id: w.comp.id,
            error: String((e as Error)?.stack ?? e),
          }),
        );
        skipped.push({
          competitor_id: w.comp.id,
          name: w.comp.name,
          reason: "internal error; retried next cycle",
        });
      }
    }
  };
  // Two competitors at a time: the extraction pool has one worker per core beyond the first, so more lanes only
  // hold more pages in memory while they wait for it (200 × 10 pages: 4 lanes 108 s and 449 MB, 2 lanes 76 s and
  // 428 MB; docs/engine.md "Cycle benchmark").
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 2, work.length)) }, lane));

  const expired = await closeExpiredSignals(s, orgId, s.clock());
  const sum = (f: (r: CompetitorResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const signalIds = {
    created: results.flatMap((r) => r.created),
    updated: results.flatMap((r) => r.updated),
    closed: [...results.flatMap((r) => r.closed), ...expired.closed],
  };
  const summary: CycleSummary = {
    cycle_id: started.id,
    org: orgSlug,
    trigger: opts.trigger,
    started_at: started.startedAt,
    finished_at: "",
    competitors_checked: results.length,
    competitors_skipped: skipped,
    pages_checked: sum((r) => r.checked),
    pages_changed: sum((r) => r.changed),
    pages_failed: sum((r) => r.failed),
    pages_not_modified: sum((r) => r.notModified),
    pages_baseline: sum((r) => r.baseline),
    signals_created: signalIds.created.length,
    signals_updated: signalIds.updated.length,
    signals_closed: signalIds.closed.length,
    battlecards_written: 0,
    digests_written: 0,
    deliveries: 0,
    failures: results
      .flatMap((r) =>
        r.failures.map((f) => ({
          competitor_id: r.competitorId,
          url: f.url,
          error: f.error,
          failures: f.failures,
        })),
      )
      .slice(0, MAX_FAILURES_LISTED),
  };
  const finished: FinishedCycle = {
    id: started.id,
    orgId,
    startedAt: started.startedAt,
    finishedAt: s.clock().toISOString(),
    signalIds,
    competitorIds: results.map((r) => r.competitorId),
  };
  const errors: string[] = [];
  for (const step of afterCycleSteps) {
    try {
      const part = await step(s, finished);
      for (const [k, v] of Object.entries(part)) {
        if (typeof v === "number" && typeof summary[k] === "number") summary[k] = (summary[k] as number) + v;
        else if (v !== undefined) summary[k] = v;
      }
    } catch (e) {
      const msg = `${step.name || "step"}: ${String((e as Error)?.message ?? e)}`;
      errors.push(msg);
      console.error(JSON.stringify({ level: "error", cycle: started.id, after_cycle_step: msg }));
    }
  }
  if (errors.length) summary.errors = errors;
  await finishCycle(s, started.id, summary);
  return summary;
}
