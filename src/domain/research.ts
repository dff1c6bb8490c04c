// Research: the rules around starting, finishing and failing a research run (admin tools, the weekly research
// allowance, one run per competitor at a time, the first brief and its lock), and draft_positioning's rules.
// The engine (src/engine/research/) does the reading; these deciders only decide which events happen.
import type { NewEvent } from "../../events/catalog.ts";
import type { Tx, WriteContext } from "../../events/store.ts";
import { researchFinished } from "./battlecardGeneration.ts";
import { DomainError } from "./errors.ts";
import { decideFirstBrief } from "./firstBrief.ts";
import { computeIcpOverlap } from "./icpOverlap.ts";
import { cheapestPaidPlan, planOf } from "./plans.ts";
import type { CompetitorRecord } from "./records.ts";
import { RESEARCH_READ_DOMAINS, type ResearchDossier, type ResearchTrigger } from "./researchTypes.ts";
import {
  type Caller,
  type CompetitorRow,
  loadOrg,
  requireCoreCompetitor,
  requireTrackedCompetitor,
  toCompetitor,
} from "./watchlist.ts";
import { loadSettings, utcDay } from "./workspace.ts";
import type { CompanyProfileChanges } from "./workspaceTypes.ts";

type Exec = Pick<Tx, "execute">;
const DAY = 86_400_000;

/** The ISO week (Monday 00:00 UTC to the next Monday) containing `now`: the window of the research allowance. */
export function utcWeek(now: Date): { start: string; end: string } {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const start = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
  return { start: start.toISOString(), end: new Date(start.getTime() + 7 * DAY).toISOString() };
}

/** Updates of the weekly allowance used this week: calls (batches) that counted and did not wholly fail. */
export async function researchAllowanceUsed(tx: Exec, orgId: number, now: Date): Promise<number> {
  const r = await tx.execute({
    sql: `SELECT COUNT(DISTINCT batch) AS n FROM research_runs
          WHERE org_id = ? AND uses_allowance = 1 AND started_at >= ? AND state != 'failed'`,
    args: [orgId, utcWeek(now).start],
  });
  return Number(r.rows[0].n);
}

export interface AllowanceView {
  used: number;
  limit: number;
  plan: string;
  resets_at: string;
}

export async function allowanceView(
  tx: Exec,
  orgId: number,
  plan: string,
  now: Date,
): Promise<AllowanceView> {
  const p = planOf(plan);
  return {
    used: await researchAllowanceUsed(tx, orgId, now),
    limit: p.weeklyResearchAllowance,
    plan: p.name,
    resets_at: utcWeek(now).end,
  };
}

export interface RunRef {
  run_id: number;
  competitor_id: number;
  name: string;
  website_url: string;
  first_brief: boolean;
}

export interface StartResult {
  batch: number;
  runs: RunRef[];
  /** Core competitors refresh_watchlist left out, with why. */
  skipped: { competitor_id: number; name: string; reason: string }[];
  allowance?: AllowanceView;
}

async function runningRun(tx: Exec, competitorId: number): Promise<number | undefined> {
  const r = await tx.execute({
    sql: "SELECT id FROM research_runs WHERE competitor_id = ? AND state = 'running' ORDER BY id DESC LIMIT 1",
    args: [competitorId],
  });
  return r.rows[0] ? Number(r.rows[0].id) : undefined;
}

async function coreCompetitors(tx: Exec, orgId: number): Promise<CompetitorRow[]> {
  const r = await tx.execute({
    sql: `SELECT id, key, name, website_url, watch, tracking, state FROM competitors
          WHERE org_id = ? AND listed = 1 AND watch = 'core' ORDER BY priority_sort, tracked_sort, id`,
    args: [orgId],
  });
  return r.rows.map(toCompetitor);
}

export type StartCommand =
  /** research_competitor: first research of a core competitor that has none. */
  | { kind: "first"; competitor_id: number }
  /** refresh_watchlist: every core competitor. */
  | { kind: "watchlist" }
  /** `rivals research` and the app's refresh: first research or refresh of one tracked competitor. */
  | { kind: "one"; competitor_id: number };

/** Starts research runs: checks the rules, records ResearchStarted per competitor (and FirstBriefStarted for
 * the workspace's first research). `usesAllowance` is false for the operator's command. */
export async function decideStartResearch(
  w: WriteContext,
  c: Caller,
  cmd: StartCommand,
  trigger: ResearchTrigger,
  usesAllowance: boolean,
): Promise<{ events: NewEvent[]; result: StartResult }> {
  const org = await loadOrg(w.tx, c.orgId);
  const plan = planOf(org.plan);
  const skipped: StartResult["skipped"] = [];
  let targets: CompetitorRow[];
  if (cmd.kind === "watchlist") {
    const all = await coreCompetitors(w.tx, c.orgId);
    if (all.length === 0)
      throw new DomainError(
        "not_found",
        "The core watchlist is empty: add competitors with add_competitor, then refresh.",
      );
    targets = [];
    for (const comp of all) {
      if (!comp.website_url) skipped.push({ competitor_id: comp.id, name: comp.name, reason: "no website" });
      else if (await runningRun(w.tx, comp.id))
        skipped.push({ competitor_id: comp.id, name: comp.name, reason: "research already running" });
      else targets.push(comp);
    }
    if (targets.length === 0)
      throw new DomainError(
        "conflict",
        "No core competitor can be refreshed now: each has no website or research already running.",
        { skipped },
      );
  } else {
    const comp =
      cmd.kind === "first"
        ? await requireCoreCompetitor(w.tx, c.orgId, cmd.competitor_id, "research_competitor")
        : await requireTrackedCompetitor(w.tx, c.orgId, cmd.competitor_id);
    if (!comp.website_url)
      throw new DomainError("invalid_argument", `${comp.name} has no website to research.`, {
        argument: "competitor_id",
      });
    const running = await runningRun(w.tx, comp.id);
    if (running)
      throw new DomainError(
        "conflict",
        `Research of ${comp.name} is already running (run ${running}); its state shows in get_competitor's freshness.`,
        { competitor_id: comp.id, run_id: running },
      );
    if (cmd.kind === "first" && researchFinished(comp.record))
      throw new DomainError(
        "conflict",
        `${comp.name} already has research; research_competitor is for a first research. Use refresh_watchlist to refresh it.`,
        { competitor_id: comp.id },
      );
    targets = [comp];
  }

  let allowance: AllowanceView | undefined;
  if (usesAllowance) {
    allowance = await allowanceView(w.tx, c.orgId, org.plan, w.now);
    if (allowance.used >= allowance.limit) {
      const up = cheapestPaidPlan((p) => p.weeklyResearchAllowance > plan.weeklyResearchAllowance);
      throw new DomainError(
        "limit_reached",
        `The ${plan.label} plan allows ${allowance.limit} research updates per week and ${allowance.used} were used this week; the allowance resets at ${allowance.resets_at}${
          up ? ` (${up.label} allows ${up.weeklyResearchAllowance})` : ""
        }.`,
        {
          limit: "weekly_research_allowance",
          allowed: allowance.limit,
          used: allowance.used,
          plan: plan.name,
          resets_at: allowance.resets_at,
          ...(up ? { plan_needed: up.name } : {}),
        },
      );
    }
    allowance = { ...allowance, used: allowance.used + 1 };
  }

  const settings = await loadSettings(w.tx, c.orgId);
  const events: NewEvent[] = decideFirstBrief(settings, "start", w.now);
  const firstBrief = events.length > 0;
  const now = w.now.toISOString();
  const runs: RunRef[] = [];
  let batch = 0;
  for (const comp of targets) {
    const runId = await w.nextId();
    if (!batch) batch = runId;
    runs.push({
      run_id: runId,
      competitor_id: comp.id,
      name: comp.name,
      website_url: comp.website_url!,
      first_brief: firstBrief,
    });
    events.push({
      type: "ResearchStarted",
      orgId: c.orgId,
      streamType: "competitor",
      streamId: String(comp.id),
      data: {
        run_id: runId,
        competitor_id: comp.id,
        batch,
        trigger,
        uses_allowance: usesAllowance,
        first_brief: firstBrief,
        website_url: comp.website_url!,
        started_at: now,
      },
    });
  }
  return { events, result: { batch, runs, skipped, ...(allowance ? { allowance } : {}) } };
}

interface RunRow {
  id: number;
  org_id: number;
  competitor_id: number;
  state: string;
  first_brief: boolean;
}

async function loadRun(tx: Exec, runId: number): Promise<RunRow | undefined> {
  const r = await tx.execute({
    sql: "SELECT id, org_id, competitor_id, state, first_brief FROM research_runs WHERE id = ?",
    args: [runId],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        org_id: Number(row.org_id),
        competitor_id: Number(row.competitor_id),
        state: String(row.state),
        first_brief: Number(row.first_brief) === 1,
      }
    : undefined;
}

/** FirstBriefFinished when the run was part of the first brief and no other first-brief run is still running. */
async function firstBriefEnd(tx: Exec, run: RunRow, now: Date): Promise<NewEvent[]> {
  if (!run.first_brief) return [];
  const others = await tx.execute({
    sql: "SELECT count(*) AS n FROM research_runs WHERE org_id = ? AND first_brief = 1 AND state = 'running' AND id != ?",
    args: [run.org_id, run.id],
  });
  if (Number(others.rows[0].n) > 0) return [];
  return decideFirstBrief(await loadSettings(tx, run.org_id), "finish", now);
}

export type RunOutcome = { ok: true; dossier: ResearchDossier } | { ok: false; code: string; reason: string };

/** Records how a run ended. A run no longer running (already recovered) records nothing. */
export async function decideEndResearch(
  w: WriteContext,
  runId: number,
  outcome: RunOutcome,
): Promise<{ events: NewEvent[]; result: { recorded: boolean } }> {
  const run = await loadRun(w.tx, runId);
  if (run?.state !== "running") return { events: [], result: { recorded: false } };
  const stream = {
    orgId: run.org_id,
    streamType: "competitor" as const,
    streamId: String(run.competitor_id),
  };
  const at = w.now.toISOString();
  const ended: NewEvent = outcome.ok
    ? {
        type: "ResearchFinished",
        ...stream,
        data: { run_id: run.id, competitor_id: run.competitor_id, finished_at: at, dossier: outcome.dossier },
      }
    : {
        type: "ResearchFailed",
        ...stream,
        data: {
          run_id: run.id,
          competitor_id: run.competitor_id,
          failed_at: at,
          code: outcome.code,
          reason: outcome.reason,
        },
      };
  // The run's own end is projected before firstBriefEnd counts the runs still going.
  const events: NewEvent[] = [ended, ...(await firstBriefEnd(w.tx, run, w.now))];
  if (outcome.ok) events.push(...(await overlapAfter(w.tx, run, outcome.dossier)));
  return { events, result: { recorded: true } };
}

/** The competitor's overlap with the workspace's ICP, re-read from the dossier research just recorded (as
 * update_icp would), when an ICP is set and the overlap changes. */
async function overlapAfter(tx: Exec, run: RunRow, dossier: ResearchDossier): Promise<NewEvent[]> {
  const st = await loadSettings(tx, run.org_id);
  if (!(st.icp.industries?.length || st.icp.buyer_roles?.length)) return [];
  const r = await tx.execute({
    sql: "SELECT state FROM competitors WHERE id = ?",
    args: [run.competitor_id],
  });
  if (!r.rows[0]) return [];
  const before = JSON.parse(String(r.rows[0].state)) as CompetitorRecord;
  const reads: Record<string, unknown> = { ...(before.reads ?? {}) };
  for (const k of RESEARCH_READ_DOMAINS) delete reads[k];
  Object.assign(reads, dossier.reads);
  const after: CompetitorRecord = { ...before, ...dossier.profile, reads };
  const overlap = computeIcpOverlap(st.icp, after);
  if (JSON.stringify(overlap ?? null) === JSON.stringify(before.workspace?.icp_overlap ?? null)) return [];
  return [
    {
      type: "CompetitorIcpOverlapComputed",
      orgId: run.org_id,
      streamType: "competitor",
      streamId: String(run.competitor_id),
      data: { id: run.competitor_id, icp_overlap: overlap },
    },
  ];
}

export const INTERRUPTED =
  "interrupted: the service stopped while this research ran; nothing of it was stored. Run it again.";

// Recovery of runs whose instance died or stopped: src/engine/research/lease.ts (it knows which instance holds
// which run).

// ---------------------------------------------------------------------------------------------------------
// draft_positioning

export async function positioningDraftsToday(tx: Exec, orgId: number, now: Date): Promise<number> {
  const { start, end } = utcDay(now);
  const r = await tx.execute({
    sql: "SELECT count(*) AS n FROM positioning_drafts WHERE org_id = ? AND drafted_at >= ? AND drafted_at < ?",
    args: [orgId, start, end],
  });
  return Number(r.rows[0].n);
}

export const POSITIONING_FIELDS = ["value_propositions", "differentiators", "exclusions"] as const;
export type PositioningField = (typeof POSITIONING_FIELDS)[number];

/** Before reading the website: the workspace has one, the profile is not locked, a field is empty, the cap. */
export async function checkDraftPositioning(
  tx: Exec,
  orgId: number,
  now: Date,
): Promise<{ website: string; empty: PositioningField[]; used: number; cap: number }> {
  const st = await loadSettings(tx, orgId);
  if (st.firstBrief === "running")
    throw new DomainError(
      "locked",
      "The company profile is locked while the workspace's first brief runs; try again when the first brief has finished.",
    );
  if (!st.websiteUrl)
    throw new DomainError(
      "invalid_argument",
      "The workspace has no website to read; it is set when the workspace is created.",
    );
  const empty = POSITIONING_FIELDS.filter((f) => !(st.profile[f]?.length ?? 0));
  const plan = planOf(st.plan);
  const cap = plan.dailyCaps.positioningDrafts;
  const used = await positioningDraftsToday(tx, orgId, now);
  if (empty.length > 0 && used >= cap) {
    const up = cheapestPaidPlan((p) => p.dailyCaps.positioningDrafts > cap);
    throw new DomainError(
      "limit_reached",
      `The ${plan.label} plan allows ${cap} positioning drafts per day (UTC) and ${used} ran today; try again after ${utcDay(now).end}${
        up ? ` or upgrade (${up.label} allows ${up.dailyCaps.positioningDrafts})` : ""
      }.`,
      {
        limit: "daily_positioning_drafts",
        allowed: cap,
        used,
        plan: plan.name,
        resets_at: utcDay(now).end,
        ...(up ? { plan_needed: up.name } : {}),
      },
    );
  }
  return { website: st.websiteUrl, empty, used, cap };
}

/** Records the draft: only fields still empty are filled (a field filled meanwhile stays as it is). */
export async function decideDraftPositioning(
  w: WriteContext,
  orgId: number,
  draft: Partial<Record<PositioningField, string[]>>,
  sourceUrl: string,
): Promise<{ events: NewEvent[]; result: { filled: PositioningField[]; used: number; cap: number } }> {
  const { empty, used, cap } = await checkDraftPositioning(w.tx, orgId, w.now);
  const changes: CompanyProfileChanges = {};
  const filled: PositioningField[] = [];
  for (const f of empty) {
    const v = draft[f];
    if (v?.length) {
      changes[f] = v;
      filled.push(f);
    }
  }
  if (filled.length === 0) return { events: [], result: { filled, used, cap } };
  return {
    events: [
      {
        type: "PositioningDrafted",
        orgId,
        streamType: "org",
        streamId: String(orgId),
        data: { changes, source_url: sourceUrl, drafted_at: w.now.toISOString() },
      },
    ],
    result: { filled, used: used + 1, cap },
  };
}
