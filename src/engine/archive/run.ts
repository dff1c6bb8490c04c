// A competitor's history from the Internet Archive (docs/engine/archive.md): the captures of
// its key pages over the last RIVALS_ARCHIVE_MONTHS months, listed from the CDX index (one per page and calendar
// month) and read oldest first through the one fetcher, go through the cycle's path — extraction in the Worker
// pool, comparison with the page's version before (rotation rule included), classification, the signal decider —
// as versions dated at their capture time, ending at the page as read live. A capture that fails is skipped and
// counted. Progress is kept in the database, so a run stopped half-way goes on where it was.

import {
  addPages,
  capturesListed,
  claimRun,
  finishRun,
  HISTORY_LEASE_MS,
  historyCompetitor,
  historyProgress,
  lastReadCapture,
  markCapture,
  markPageEnded,
  nextCapture,
  pagesOf,
  recordListing,
  releaseRun,
  renewRun,
} from "../../db/archiveHistory.ts";
import type { Services } from "../../services.ts";
import type { SignalDraft } from "../classify/types.ts";
import type { Seen } from "../compare/seen.ts";
import type { Snapshot } from "../compare/types.ts";
import { competitorSources } from "../cycle/sources.ts";
import { type Fetcher, workspaceFetcher } from "../fetch/index.ts";
import { heartbeat, instanceOf } from "../instance.ts";
import { visibleHtml } from "../render/index.ts";
import { type SnapshotStore, type SourceRef, snapshotStoreFor } from "../snapshots/index.ts";
import { draftsOf } from "../snapshots/observe.ts";
import { snapshotPool } from "../workers/extract.ts";
import { captureTime, captureUrl, cdxUrl, monthly, parseCdx, rawCaptureUrl } from "./cdx.ts";
import { expireHistorical, recordHistorical } from "./record.ts";

/** The page kinds whose history is read (as discovery classifies them), and how many pages of each. */
const KEY_KINDS: Record<string, number> = { home: 1, pricing: 2, product: 2, integrations: 1, careers: 1 };
/** Captures read per competitor at most (its monitored pages included): 10 pages of two years' months. */
export const MAX_CAPTURES = 240;
const HTML = /html|xhtml/i;

export interface HistorySummary {
  status: "finished" | "off" | "stopped";
  competitor_id: number;
  months: number;
  pages: number;
  captures_listed: number;
  captures_read: number;
  captures_failed: number;
  signals_created: number;
  signals_open: number;
  signals_closed: number;
}

export interface HistoryOptions {
  fetcher?: Fetcher;
  /** Checked between captures: true stops the run where it is (it resumes from there). */
  stopped?: () => boolean;
}

/** The key pages of a competitor: research's pages of the key kinds (the cycle's own list of its sources),
 * then its monitored pages. */
async function keyPages(
  s: Services,
  orgId: number,
  competitorId: number,
): Promise<{ url: string; kind: string }[]> {
  const out: { url: string; kind: string }[] = [];
  const taken = new Map<string, number>();
  for (const src of await competitorSources(s, orgId, competitorId)) {
    if (src.monitored) {
      out.push({ url: src.url, kind: src.kind });
      continue;
    }
    const allowed = KEY_KINDS[src.kind];
    if (allowed === undefined || (taken.get(src.kind) ?? 0) >= allowed) continue;
    taken.set(src.kind, (taken.get(src.kind) ?? 0) + 1);
    out.push({ url: src.url, kind: src.kind });
  }
  return out;
}

const pageRef = (orgId: number, competitorId: number, url: string): SourceRef => ({
  orgId,
  competitorId,
  url,
  kind: "page",
});

/** A page's snapshot from its HTML, extracted in the Worker pool as a cycle does. */
async function snapshotOf(
  s: Services,
  html: string,
  url: string,
): Promise<{ snapshot: Snapshot; hash: string }> {
  const x = await snapshotPool(s.config).run({ snapshot: true, html, url, sourceUrl: url, whole: true });
  if (!("whole" in x)) throw new Error("the snapshot task gave no snapshot");
  return { snapshot: x.snapshot, hash: x.hash };
}

/** The drafts of what changed from `previous` to `next` on a page, observed at `at`; evidence pointing at the page
 * points at `evidenceUrl` instead (the capture in the archive). */
function archiveDrafts(
  comp: { id: number; name: string },
  kind: string,
  previous: Snapshot,
  next: Snapshot,
  seen: Seen,
  at: string,
  page: string,
  evidenceUrl: string,
): SignalDraft[] {
  const drafts = draftsOf(previous, seen, next, { competitor: comp, pageKind: kind, observedAt: at });
  if (evidenceUrl !== page)
    for (const d of drafts) for (const e of d.evidence) if (e.source_url === page) e.source_url = evidenceUrl;
  return drafts;
}

/** Lists the captures of the pages not listed yet, within the competitor's bound. */
async function listPages(
  s: Services,
  orgId: number,
  competitorId: number,
  fetcher: Fetcher,
  months: number,
  stopped: () => boolean,
): Promise<void> {
  const now = s.clock();
  const from = new Date(now);
  from.setUTCMonth(from.getUTCMonth() - months);
  for (const p of await pagesOf(s, orgId, competitorId)) {
    if (p.listed) continue;
    if (stopped()) return;
    const r = await fetcher.fetch({ url: cdxUrl(p.url, from, now) });
    if (!r.ok) {
      await recordListing(s, orgId, competitorId, p.url, {
        error: r.status ? `${r.error} ${r.status}` : r.error,
      });
      continue;
    }
    // Only what the archive saw before the page was first read live: the cycles' versions hold what came after.
    const live = await snapshotStoreFor(s).source(pageRef(orgId, competitorId, p.url));
    const before = live ? Date.parse(live.firstSeenAt) : now.getTime();
    let timestamps: string[];
    try {
      timestamps = monthly(parseCdx(r.text))
        .map((c) => c.timestamp)
        .filter((ts) => captureTime(ts).getTime() < before);
    } catch (e) {
      await recordListing(s, orgId, competitorId, p.url, {
        error: `unreadable index: ${String((e as Error)?.message ?? e).slice(0, 200)}`,
      });
      continue;
    }
    // The bound keeps each page's most recent months.
    const room = Math.max(0, MAX_CAPTURES - (await capturesListed(s, orgId, competitorId)));
    await recordListing(s, orgId, competitorId, p.url, {
      timestamps: room === 0 ? [] : timestamps.slice(-room),
    });
  }
}

/** Reads one capture: a failure is returned (counted), never thrown. */
async function readCapture(
  s: Services,
  store: SnapshotStore,
  fetcher: Fetcher,
  orgId: number,
  comp: { id: number; name: string },
  c: { url: string; timestamp: string; kind: string },
): Promise<{ error?: string }> {
  const ref = pageRef(orgId, comp.id, c.url);
  const at = captureTime(c.timestamp).toISOString();
  const before = await store.historyBefore(ref, at);
  // Read and stored before a stop: nothing more to do.
  if (before.at) return {};
  const r = await fetcher.fetch({ url: rawCaptureUrl(c.timestamp, c.url) });
  if (!r.ok) return { error: r.status ? `${r.error} ${r.status}` : r.error };
  if (!HTML.test(r.contentType)) return { error: "unsupported_content" };
  // An archived application shell cannot be rendered (its scripts would load today's data): not read.
  const v = await visibleHtml(undefined, { finalUrl: c.url, text: r.text, contentType: r.contentType });
  if (!v.ok) return { error: v.error };
  let x: { snapshot: Snapshot; hash: string };
  try {
    x = await snapshotOf(s, v.html, c.url);
  } catch (e) {
    return { error: `unreadable: ${String((e as Error)?.message ?? e).slice(0, 200)}` };
  }
  if (before.previous?.hash === x.hash) return {};
  if (before.previous) {
    const drafts = archiveDrafts(
      comp,
      c.kind,
      before.previous.snapshot,
      x.snapshot,
      before.seen,
      at,
      c.url,
      captureUrl(c.timestamp, c.url),
    );
    await recordHistorical(s, orgId, comp.id, drafts, at);
  }
  await store.putPast({
    ...ref,
    snapshot: x.snapshot,
    observedAt: new Date(at),
    capture: c.timestamp,
    status: r.status,
    finalUrl: captureUrl(c.timestamp, c.url),
  });
  return {};
}

/** The page as read live after its captures: the first version observed after the last capture, or — when no cycle
 * has read the page yet — the page fetched now and stored as its baseline (the next cycle compares with it). */
async function liveAfter(
  s: Services,
  store: SnapshotStore,
  fetcher: Fetcher,
  ref: SourceRef,
  lastCapture: string,
): Promise<{ snapshot: Snapshot; hash: string; observedAt: string } | null> {
  const after = await store.firstAfter(ref, lastCapture);
  if (after) return after;
  const r = await fetcher.fetch({ url: ref.url });
  if (!r.ok || r.notModified || !HTML.test(r.contentType)) return null;
  const v = await visibleHtml(undefined, r);
  if (!v.ok) return null;
  const x = await snapshotOf(s, v.html, ref.url).catch(() => null);
  if (!x) return null;
  // A cycle may have stored it meanwhile: then that version is the live one.
  const again = await store.firstAfter(ref, lastCapture);
  if (again) return again;
  const observedAt = s.clock();
  await store.put({
    ...ref,
    snapshot: x.snapshot,
    observedAt,
    etag: r.etag,
    lastModified: r.lastModified,
    status: r.status,
    finalUrl: r.finalUrl,
  });
  return { ...x, observedAt: observedAt.toISOString() };
}

/** Compares each listed page's last capture with the page as read live: what changed since the archive last saw
 * it, dated when it was read live, with the live page as evidence. */
async function endPages(
  s: Services,
  store: SnapshotStore,
  fetcher: Fetcher,
  orgId: number,
  comp: { id: number; name: string },
): Promise<void> {
  for (const p of await pagesOf(s, orgId, comp.id)) {
    if (!p.listed || p.ended) continue;
    const ref = pageRef(orgId, comp.id, p.url);
    const last = await lastReadCapture(s, orgId, comp.id, p.url);
    const lastAt = last ? captureTime(last).toISOString() : null;
    const live = lastAt ? await liveAfter(s, store, fetcher, ref, lastAt) : null;
    if (live) {
      const before = await store.historyBefore(ref, live.observedAt);
      if (before.previous && before.previous.hash !== live.hash)
        await recordHistorical(
          s,
          orgId,
          comp.id,
          archiveDrafts(
            comp,
            p.kind,
            before.previous.snapshot,
            live.snapshot,
            before.seen,
            live.observedAt,
            p.url,
            p.url,
          ),
          live.observedAt,
        );
    }
    await markPageEnded(s, orgId, comp.id, p.url);
  }
}

/** Reads (or goes on reading) a competitor's history; undefined when another live instance holds its run. */
export async function readHistory(
  s: Services,
  orgId: number,
  competitorId: number,
  opts: HistoryOptions = {},
): Promise<HistorySummary | undefined> {
  const months = s.config.archiveMonths;
  const comp = await historyCompetitor(s, orgId, competitorId);
  // A competitor gone from the workspace: its run (if any) is over, not retried by every sweep.
  if (!comp) {
    await finishRun(s, orgId, competitorId);
    return undefined;
  }
  const c = comp;
  const summary = async (status: HistorySummary["status"]): Promise<HistorySummary> => {
    const p = await historyProgress(s, orgId, competitorId);
    return {
      status,
      competitor_id: competitorId,
      months,
      pages: p?.pages ?? 0,
      captures_listed: p?.captures_listed ?? 0,
      captures_read: p?.captures_read ?? 0,
      captures_failed: p?.captures_failed ?? 0,
      signals_created: p?.signals_created ?? 0,
      signals_open: p?.signals_open ?? 0,
      signals_closed: p?.signals_closed ?? 0,
    };
  };
  if (months === 0) return summary("off");
  if (!(await claimRun(s, instanceOf(s), orgId, competitorId, months))) return undefined;
  const beat = heartbeat(Math.floor(HISTORY_LEASE_MS / 3), `history of competitor ${competitorId}`, () =>
    renewRun(s, instanceOf(s), orgId, competitorId),
  );
  const stopped = opts.stopped ?? (() => false);
  const fetcher = opts.fetcher ?? (await workspaceFetcher(s, orgId)).fetcher;
  const store = snapshotStoreFor(s);
  try {
    await addPages(s, orgId, competitorId, await keyPages(s, orgId, competitorId));
    await listPages(s, orgId, competitorId, fetcher, months, stopped);
    for (;;) {
      if (stopped()) {
        await releaseRun(s, instanceOf(s), orgId, competitorId);
        return summary("stopped");
      }
      const next = await nextCapture(s, orgId, competitorId);
      if (!next) break;
      const out = await readCapture(s, store, fetcher, orgId, c, next).catch((e) => ({
        error: `internal: ${String((e as Error)?.message ?? e).slice(0, 200)}`,
      }));
      await markCapture(s, orgId, competitorId, next, out);
    }
    await endPages(s, store, fetcher, orgId, c);
    await expireHistorical(s, orgId, competitorId, s.clock().toISOString());
    await finishRun(s, orgId, competitorId);
    return summary("finished");
  } finally {
    beat.stop();
  }
}
