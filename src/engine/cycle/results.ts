// Recording what a competitor's checks found: every changed source classified (the drafts of all its sources
// recorded together: one event seen on blog, changelog and feed is one signal), then the new snapshots, then in
// one command the sources' states (unchanged, not modified, failing) and the competitor's CompetitorChecked event
// (written with other quiet checks when it found nothing: quiet.ts).
import { recordKeptSources, recordSourceBody, recordSourceFailure } from "../../db/sourceChecks.ts";
import type { CheckRecord } from "../../domain/cycles.ts";
import type { Services } from "../../services.ts";
import { pageGoneAfterCheck } from "../classify/presence.ts";
import type { SignalDraft } from "../classify/types.ts";
import { nothingRead, type PageRead } from "../research/pageRead.ts";
import { observeSource } from "../research/reads.ts";
import type { SnapshotStore, SourceState } from "../snapshots/store.ts";
import { sourceKind } from "../sources/kinds/index.ts";
import { recordDrafts } from "../write/signals.ts";
import type { BoardFollow } from "./boards.ts";
import { keyOf, type Outcome } from "./check.ts";
import { writeChecks, writeQuietCheck } from "./quiet.ts";
import type { CompetitorRow, Source } from "./types.ts";

export interface CompetitorResult {
  competitorId: number;
  checked: number;
  changed: number;
  failed: number;
  notModified: number;
  baseline: number;
  /** Sources on a shared host left for their turn in a later cycle (schedule/rotation.ts). */
  dueLater: number;
  created: number[];
  updated: number[];
  closed: number[];
  failures: { url: string; kind: string; error: string; failures: number; since: string }[];
}

/** Sources left for their turn (not checked) that were failing: the dossier still lists them as failing. */
function stillFailing(
  later: readonly Source[],
  states: ReadonlyMap<string, SourceState>,
): CompetitorResult["failures"] {
  return later.flatMap((src) => {
    const st = states.get(keyOf(sourceKind(src.kind).snapshot, src.url));
    return st && st.failures > 0
      ? [
          {
            url: src.url,
            kind: src.kind,
            error: st.lastError ?? "",
            failures: st.failures,
            since: st.failingSince ?? st.lastErrorAt ?? st.lastCheckedAt,
          },
        ]
      : [];
  });
}

/** A competitor's result, and its writes' commit (which the result is not reported before). */
export interface Recorded {
  result: CompetitorResult;
  written: Promise<void>;
}

/** Records a competitor's outcomes: its signals and snapshots now, its sources' checks and CompetitorChecked
 * event by `written`. `cycleId` null: research's first snapshots, which record no CompetitorChecked. */
export async function recordResults(
  s: Services,
  orgId: number,
  cycleId: number | null,
  comp: CompetitorRow,
  outcomes: Outcome[],
  states: ReadonlyMap<string, SourceState>,
  follow: BoardFollow,
  store: SnapshotStore,
  reads: ReadonlyMap<string, PageRead> = new Map(),
  dueLater: readonly Source[] = [],
  at = s.clock().toISOString(),
): Promise<Recorded> {
  const drafts: SignalDraft[] = [];
  const failures: CompetitorResult["failures"] = [];
  /** Pages this check reports removed: what they gave the dossier goes with them. */
  const removedPages: Outcome["source"][] = [];
  for (const o of outcomes) {
    const state = states.get(o.key);
    if (o.status === "changed") drafts.push(...o.drafts);
    let gone: SignalDraft | undefined;
    if (o.status === "failed") {
      const n = (state?.failures ?? 0) + 1;
      const since = n === 1 || !state?.failingSince ? at : state.failingSince;
      failures.push({ url: o.source.url, kind: o.source.kind, error: o.error, failures: n, since });
      if (o.snapshotKind === "page")
        gone = pageGoneAfterCheck(
          comp.name,
          o.source,
          { failed: true, error: o.error, failures: n, since },
          state,
          at,
        );
    } else if (sourceKind(o.source.kind).snapshot === "page")
      gone = pageGoneAfterCheck(comp.name, o.source, { failed: false }, state, at);
    if (gone) drafts.push(gone);
    if (gone && o.status === "failed") removedPages.push(o.source);
  }
  // What the changed sources say now goes into the dossier with the signals (one command): a crash before the
  // snapshots below re-detects the change next cycle and reads it again.
  const observed =
    cycleId === null
      ? []
      : outcomes.flatMap((o) =>
          o.status === "changed" || (o.status === "unchanged" && reads.has(o.key))
            ? [
                observeSource(
                  o.source,
                  {
                    page: reads.get(o.key),
                    ...(o.status === "changed" ? o.listed : {}),
                    ...(o.status === "changed" && o.read ? { read: o.read } : {}),
                  },
                  new Date(at),
                ),
              ]
            : [],
        );
  if (cycleId !== null)
    for (const src of removedPages)
      observed.push(observeSource(src, { page: nothingRead(src.url) }, new Date(at)));
  const rec = await recordDrafts(s, orgId, comp.id, drafts, at, observed);

  // Then the new snapshots (after the signals: a crash in between re-detects the change next cycle, and the
  // signal's dedup key makes that evidence on the same signal, not a second one). First snapshots were stored
  // when they were read (check.ts).
  let changed = 0;
  let baseline = 0;
  for (const o of outcomes) {
    if (o.status === "baseline") baseline++;
    if (o.status !== "changed") continue;
    const put = await store.put({
      orgId,
      competitorId: comp.id,
      url: o.source.url,
      kind: o.snapshotKind,
      prepared: o.prepared,
      observedAt: new Date(at),
      etag: o.fetched.etag,
      lastModified: o.fetched.lastModified,
      status: o.fetched.status,
      finalUrl: o.fetched.finalUrl,
    });
    if (put.changed) changed++;
  }

  // The sources' checks (unchanged, not modified, failing) and the competitor's CompetitorChecked event, in one
  // command; a competitor whose check found nothing to record waits to be written with the other quiet ones
  // (quiet.ts).
  const failed = outcomes.filter((o) => o.status === "failed");
  const check: CheckRecord = {
    orgId,
    checked:
      cycleId === null
        ? null
        : {
            competitor_id: comp.id,
            cycle_id: cycleId,
            checked_at: at,
            sources: outcomes.length,
            changed,
            failed: failed.length,
            failing: [...failures, ...stillFailing(dueLater, states)],
            ...(follow.moved ? { job_board: follow.moved } : {}),
          },
    writeSources: async ({ later }) => {
      await recordKeptSources(
        later,
        outcomes.flatMap((o) =>
          o.status === "unchanged" || o.status === "not_modified"
            ? [
                {
                  o: orgId,
                  c: comp.id,
                  k: o.key,
                  t: at,
                  e: o.etag ?? null,
                  m: o.lastModified ?? null,
                  h: o.bodyHash ?? null,
                  r: o.status === "unchanged" && o.rendered !== undefined ? Number(o.rendered) : null,
                },
              ]
            : [],
        ),
      );
      for (const o of outcomes) {
        const ref = { orgId, competitorId: comp.id, key: o.key };
        if (o.status === "changed" || o.status === "baseline")
          await recordSourceBody(later, { ...ref, bodyHash: o.bodyHash, rendered: o.rendered });
        else if (o.status === "failed")
          await recordSourceFailure(later, {
            ...ref,
            url: o.source.url,
            kind: o.snapshotKind,
            at,
            error: o.error,
          });
      }
    },
  };
  const quiet =
    cycleId !== null &&
    drafts.length === 0 &&
    observed.length === 0 &&
    !follow.moved &&
    outcomes.every((o) => o.status !== "changed" && o.status !== "baseline");
  const written = quiet ? writeQuietCheck(s, check) : writeChecks(s, [check]);
  const result: CompetitorResult = {
    competitorId: comp.id,
    checked: outcomes.length,
    changed,
    failed: failed.length,
    notModified: outcomes.filter((o) => o.status === "not_modified").length,
    baseline,
    dueLater: dueLater.length,
    created: rec.created,
    updated: rec.updated,
    closed: rec.closed,
    failures,
  };
  // A write that failed is the caller's to hear of when it waits for it.
  written.catch(() => undefined);
  return { result, written };
}
