// The shapes of a monitoring cycle (docs/engine/cycles.md).
import type { Services } from "../../services.ts";

/** What started a cycle. */
export type CycleTrigger = "schedule" | "operator" | "app" | "demo";

/** What `rivals cycle` prints and CycleFinished carries. The after-cycle steps fill the last three counts. */
export interface CycleSummary {
  cycle_id: number;
  org: string;
  trigger: CycleTrigger;
  started_at: string;
  finished_at: string;
  competitors_checked: number;
  /** Competitors not checked, with the reason (no research yet). */
  competitors_skipped: { competitor_id: number; name: string; reason: string }[];
  /** Sources checked (pages, feeds, job boards, security.txt), changed, and failed (timeout, 5xx, robots …). */
  pages_checked: number;
  pages_changed: number;
  pages_failed: number;
  /** Answered 304 Not Modified (conditional GET). */
  pages_not_modified: number;
  /** First snapshot of a source: its baseline (no signals). */
  pages_baseline: number;
  /** Sources on a host many competitors share, left for their turn in a later cycle (docs/engine/cycles.md). */
  pages_due_later: number;
  signals_created: number;
  signals_updated: number;
  signals_closed: number;
  battlecards_written: number;
  /** Cards that exist and got a proposed update instead of a rewrite (set by the battlecard step). */
  battlecards_proposed?: number;
  digests_written: number;
  deliveries: number;
  /** Failing sources (at most 20), with their failed checks in a row. */
  failures: { competitor_id: number; url: string; error: string; failures: number }[];
  /** An after-cycle step that threw: its name and message (the cycle itself still finished). */
  errors?: string[];
  [extra: string]: unknown;
}

/** What the after-cycle steps get: the cycle, and the signals it created, updated and closed. */
export interface FinishedCycle {
  id: number;
  orgId: number;
  startedAt: string;
  finishedAt: string;
  signalIds: { created: number[]; updated: number[]; closed: number[] };
  competitorIds: number[];
}

/** One of the steps that run after a cycle (after.ts): it returns its part of the summary. */
export type AfterCycleStep = (services: Services, cycle: FinishedCycle) => Promise<Partial<CycleSummary>>;

/** One source a cycle checks. */
export interface Source {
  url: string;
  /** Research's kind (home, pricing …, feed, releases_feed, job_board:greenhouse, security_txt) or the
   * monitored page's kind from its URL. */
  kind: string;
  monitored: boolean;
  /** Always read in the browser (a monitored page added with render: true). */
  render?: boolean;
}

/** A competitor a cycle checks. */
export interface CompetitorRow {
  id: number;
  name: string;
  researchState?: string;
}
