// Research: the rules around starting, finishing and failing a research run (admin tools, the weekly research
// allowance, one run per competitor at a time, the first brief and its lock), and draft_positioning's rules.
// The engine (src/engine/research/) does the reading of web sites; loaders read the state in the writer's
// transaction, and the pure deciders only decide which events happen.
import type { NewEvent } from "../../events/catalog.ts";
import { type Actor, type Command, handle } from "../../events/command.ts";
import type { Tx, WriteContext } from "../../events/store.ts";
import {
  allowanceBatchesSince,
  competitorRecordOf,
  coreCompetitorRows,
  otherFirstBriefRunsRunning,
  positioningDraftsBetween,
  researchRun,
  runningRunOf,
} from "../db/queries/researchState.ts";
import { dropResearchLease, researchRunOrphaned, takeResearchLeases } from "../db/researchLeases.ts";
import { researchFinished } from "./battlecardGeneration.ts";
import { DomainError } from "./errors.ts";
import { decideFirstBrief } from "./firstBrief.ts";
import { icpIsSet, overlapChange } from "./icpOverlap.ts";
import { cheapestPaidPlan, dailyCapReached, planOf } from "./plans.ts";
import { pricingRead } from "./pricingRead.ts";
import type { CompetitorRecord } from "./records.ts";
import { RESEARCH_READ_DOMAINS, type ResearchDossier, type ResearchTrigger } from "./researchTypes.ts";
import {
  type Caller,
  type CompetitorRow,
  findTrackedCompetitor,
  loadOrg,
  type OrgRow,
  refuseNonCore,
  refuseUntracked,
  toCompetitor,
} from "./watchlist.ts";
import { loadSettings, utcDay, type WorkspaceSettings } from "./workspace.ts";
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
  return allowanceBatchesSince(tx, orgId, utcWeek(now).start);
}

export interface AllowanceView {
  used: number;
  limit: number;
  plan: string;
  resets_at: string;
}

/** The weekly allowance of a plan when `used` updates of it were used this week. */
export function allowanceOf(used: number, plan: string, now: Date): AllowanceView {
  const p = planOf(plan);
  return { used, limit: p.weeklyResearchAllowance, plan: p.name, resets_at: utcWeek(now).end };
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

const runningRun = (tx: Exec, competitorId: number) => runningRunOf(tx, competitorId);

async function coreCompetitors(tx: Exec, orgId: number): Promise<CompetitorRow[]> {
  return (await coreCompetitorRows(tx, orgId)).map(toCompetitor);
}

export type StartCommand =
  /** research_competitor: first research of a core competitor that has none. */
  | { kind: "first"; competitor_id: number }
  /** refresh_watchlist: every core competitor. */
  | { kind: "watchlist" }
  /** `rivals research` and the app's refresh: first research or refresh of one tracked competitor. */
  | { kind: "one"; competitor_id: number };

/** A competitor a start command names, with the run already going on it (read only when it has a website:
 * one without is never researched). */
export interface ResearchCandidate {
  comp: CompetitorRow;
  running?: number;
}

export interface StartResearchState {
  org: OrgRow;
  /** The core watchlist in its order (kind `watchlist`), else the one tracked competitor named (none when it
   * is not tracked). */
  candidates: ResearchCandidate[];
  /** Research updates of the weekly allowance used this week (read when the command uses the allowance). */
  allowanceUsed?: number;
  settings: WorkspaceSettings;
}

export async function loadStartResearch(
  tx: Exec,
  c: Caller,
  cmd: StartCommand,
  usesAllowance: boolean,
  now: Date,
): Promise<StartResearchState> {
  const org = await loadOrg(tx, c.orgId);
  let comps: CompetitorRow[];
  if (cmd.kind === "watchlist") comps = await coreCompetitors(tx, c.orgId);
  else {
    const one = await findTrackedCompetitor(tx, c.orgId, cmd.competitor_id);
    comps = one ? [one] : [];
  }
  const candidates: ResearchCandidate[] = [];
  for (const comp of comps) {
    const running = comp.website_url ? await runningRun(tx, comp.id) : undefined;
    candidates.push({ comp, ...(running ? { running } : {}) });
  }
  return {
    org,
    candidates,
    ...(usesAllowance ? { allowanceUsed: await researchAllowanceUsed(tx, c.orgId, now) } : {}),
    settings: await loadSettings(tx, c.orgId),
  };
}

/** The competitors a start command researches (one run each, in this order) and those refresh_watchlist
 * leaves out; or the refusal when there is none to research. */
export function researchTargets(
  st: StartResearchState,
  cmd: StartCommand,
): { targets: CompetitorRow[]; skipped: StartResult["skipped"] } {
  const skipped: StartResult["skipped"] = [];
  if (cmd.kind === "watchlist") {
    if (st.candidates.length === 0)
      throw new DomainError(
        "not_found",
        "The core watchlist is empty: add competitors with add_competitor, then refresh.",
      );
    const targets: CompetitorRow[] = [];
    for (const { comp, running } of st.candidates) {
      if (!comp.website_url) skipped.push({ competitor_id: comp.id, name: comp.name, reason: "no website" });
      else if (running)
        skipped.push({ competitor_id: comp.id, name: comp.name, reason: "research already running" });
      else targets.push(comp);
    }
    if (targets.length === 0)
      throw new DomainError(
        "conflict",
        "No core competitor can be refreshed now: each has no website or research already running.",
        { skipped },
      );
    return { targets, skipped };
  }
  const named = st.candidates.find((x) => x.comp.id === cmd.competitor_id);
  const comp =
    cmd.kind === "first" ? refuseNonCore(named?.comp, "research_competitor") : refuseUntracked(named?.comp);
  if (!comp.website_url)
    throw new DomainError("invalid_argument", `${comp.name} has no website to research.`, {
      argument: "competitor_id",
    });
  const running = named?.running;
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
  return { targets: [comp], skipped };
}

/** Starts research runs, in the writer's transaction: load, one run id per target, decide. */
export async function handleStartResearch(
  w: WriteContext,
  c: Caller,
  cmd: StartCommand,
  trigger: ResearchTrigger,
  usesAllowance: boolean,
): Promise<{ events: NewEvent[]; result: StartResult }> {
  return handle(startResearchRuns, w, c, { cmd, trigger, usesAllowance });
}

export interface StartResearchInput {
  cmd: StartCommand;
  trigger: ResearchTrigger;
  /** False for the operator's command. */
  usesAllowance: boolean;
  /** The instance that runs the research takes the runs' leases with their start, for `ms` (research_leases),
   * so no other instance ever sees them running without an owner. */
  lease?: { holder: string; ms: number };
}

/** Starts research runs: the loader takes one run id per target. Its state is the workspace's watchlist, no
 * one stream. */
export const startResearchRuns: Command<
  StartResearchInput,
  StartResearchState & { runIds: number[] },
  StartResult
> = {
  load: async (w, input, c) => {
    const st = await loadStartResearch(w.tx, c, input.cmd, input.usesAllowance, w.now);
    const runIds: number[] = [];
    for (const _ of researchTargets(st, input.cmd).targets) runIds.push(await w.nextId());
    return { ...st, runIds };
  },
  decide: (st, input, { caller, now }) =>
    decideStartResearch(st, caller, input.cmd, {
      trigger: input.trigger,
      usesAllowance: input.usesAllowance,
      now,
      runIds: st.runIds,
    }),
  write: async (w, _st, input, result) => {
    if (input.lease) {
      const until = new Date(w.now.getTime() + input.lease.ms).toISOString();
      await takeResearchLeases(
        w.tx,
        result.runs.map((r) => r.run_id),
        input.lease.holder,
        until,
      );
    }
    return result;
  },
};

/** Starts research runs: checks the rules, records ResearchStarted per competitor (and FirstBriefStarted for
 * the workspace's first research). `usesAllowance` is false for the operator's command; `runIds` holds one
 * pre-allocated id per target of researchTargets, the first of them naming the batch. */
export function decideStartResearch(
  st: StartResearchState,
  c: Caller,
  cmd: StartCommand,
  opts: { trigger: ResearchTrigger; usesAllowance: boolean; now: Date; runIds: number[] },
): { events: NewEvent[]; result: StartResult } {
  const plan = planOf(st.org.plan);
  const { targets, skipped } = researchTargets(st, cmd);

  let allowance: AllowanceView | undefined;
  if (opts.usesAllowance) {
    allowance = allowanceOf(st.allowanceUsed ?? 0, st.org.plan, opts.now);
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
  if (opts.runIds.length !== targets.length)
    throw new Error(`decideStartResearch: ${targets.length} run ids needed, ${opts.runIds.length} given`);

  const events: NewEvent[] = decideFirstBrief(st.settings, "start", opts.now);
  const firstBrief = events.length > 0;
  const now = opts.now.toISOString();
  const runs: RunRef[] = [];
  const batch = opts.runIds[0];
  for (const [i, comp] of targets.entries()) {
    const runId = opts.runIds[i];
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
        trigger: opts.trigger,
        uses_allowance: opts.usesAllowance,
        first_brief: firstBrief,
        website_url: comp.website_url!,
        started_at: now,
      },
    });
  }
  return { events, result: { batch, runs, skipped, ...(allowance ? { allowance } : {}) } };
}

export interface RunRow {
  id: number;
  org_id: number;
  competitor_id: number;
  state: string;
  first_brief: boolean;
}

const loadRun = (tx: Exec, runId: number): Promise<RunRow | undefined> => researchRun(tx, runId);

export type RunOutcome = { ok: true; dossier: ResearchDossier } | { ok: false; code: string; reason: string };

export interface EndResearchState {
  run: RunRow | undefined;
  /** Read for a run still running: */
  live?: {
    /** The workspace's other first-brief runs still running (read for a first-brief run). */
    othersRunning: number;
    settings: WorkspaceSettings;
    /** The competitor's record before this run's dossier (read for a finished run). */
    competitor?: CompetitorRecord;
  };
}

const icpSet = (st: WorkspaceSettings) => icpIsSet(st.icp);

export async function loadEndResearch(
  tx: Exec,
  runId: number,
  outcome: RunOutcome,
): Promise<EndResearchState> {
  const run = await loadRun(tx, runId);
  if (run?.state !== "running") return { run };
  let othersRunning = 0;
  if (run.first_brief) {
    othersRunning = await otherFirstBriefRunsRunning(tx, run.org_id, run.id);
  }
  const settings = await loadSettings(tx, run.org_id);
  const competitor = outcome.ok
    ? await competitorRecordOf<CompetitorRecord>(tx, run.org_id, run.competitor_id)
    : undefined;
  return { run, live: { othersRunning, settings, ...(competitor ? { competitor } : {}) } };
}

/** Records how run `runId` ended and drops its lease (the run names its workspace). */
export const endResearchRun: Command<
  { runId: number; outcome: RunOutcome },
  EndResearchState,
  { recorded: boolean },
  Actor
> = {
  load: (w, input) => loadEndResearch(w.tx, input.runId, input.outcome),
  decide: (st, input, { now }) => decideEndResearch(st, input.outcome, now),
  write: async (w, _st, input, result) => {
    await dropResearchLease(w.tx, input.runId);
    return result;
  },
};

/** Records how a run ended. A run no longer running (already recovered) records nothing. */
export function decideEndResearch(
  st: EndResearchState,
  outcome: RunOutcome,
  now: Date,
): { events: NewEvent[]; result: { recorded: boolean } } {
  const { run, live } = st;
  if (run?.state !== "running") return { events: [], result: { recorded: false } };
  if (!live) throw new Error("decideEndResearch: a running run's state includes what it reads");
  const stream = {
    orgId: run.org_id,
    streamType: "competitor" as const,
    streamId: String(run.competitor_id),
  };
  const at = now.toISOString();
  const ended: NewEvent = outcome.ok
    ? {
        type: "ResearchFinished",
        ...stream,
        data: {
          run_id: run.id,
          competitor_id: run.competitor_id,
          finished_at: at,
          dossier: withKnownPlanOrder(outcome.dossier, live.competitor),
        },
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
  // FirstBriefFinished when the run was part of the first brief and no other first-brief run still runs.
  const firstBriefEnd =
    run.first_brief && live.othersRunning === 0 ? decideFirstBrief(live.settings, "finish", now) : [];
  const events: NewEvent[] = [ended, ...firstBriefEnd];
  if (outcome.ok) events.push(...overlapAfter(run, live.settings, live.competitor, outcome.dossier));
  return { events, result: { recorded: true } };
}

/** The dossier with its plans in named price fields, in the order already known when the page only moved them. */
function withKnownPlanOrder(dossier: ResearchDossier, before: CompetitorRecord | undefined): ResearchDossier {
  const pricing = dossier.reads.pricing;
  if (pricing === undefined) return dossier;
  return { ...dossier, reads: { ...dossier.reads, pricing: pricingRead(pricing, before?.reads?.pricing) } };
}

/** The competitor's overlap with the workspace's ICP, re-read from the dossier research just recorded (as
 * update_icp would), when an ICP is set and the overlap changes. */
function overlapAfter(
  run: RunRow,
  st: WorkspaceSettings,
  before: CompetitorRecord | undefined,
  dossier: ResearchDossier,
): NewEvent[] {
  if (!icpSet(st) || !before) return [];
  const reads: Record<string, unknown> = { ...(before.reads ?? {}) };
  for (const k of RESEARCH_READ_DOMAINS) delete reads[k];
  Object.assign(reads, dossier.reads);
  const after: CompetitorRecord = { ...before, ...dossier.profile, reads };
  return overlapChange(run.org_id, run.competitor_id, st.icp, after, before.workspace?.icp_overlap);
}

export const INTERRUPTED =
  "interrupted: the service stopped while this research ran; nothing of it was stored. Run it again.";

const interrupted: RunOutcome = { ok: false, code: "interrupted", reason: INTERRUPTED };

export interface InterruptResearchState extends EndResearchState {
  /** Still running with no live lease: the instance that ran it is gone. */
  orphaned: boolean;
}

/** Marks run `runId` failed as interrupted and drops its lease, if it still has no live lease when the command
 * runs (a holder renewing meanwhile keeps its run). Recovery (src/engine/research/lease.ts) finds the runs. */
export const interruptResearchRun: Command<
  { runId: number },
  InterruptResearchState,
  { recorded: boolean },
  Actor
> = {
  load: async (w, input) => {
    if (!(await researchRunOrphaned(w.tx, input.runId, w.now.toISOString())))
      return { run: undefined, orphaned: false };
    return { ...(await loadEndResearch(w.tx, input.runId, interrupted)), orphaned: true };
  },
  decide: (st, _input, { now }) => decideInterruptResearch(st, now),
  write: async (w, st, input, result) => {
    if (st.orphaned) await dropResearchLease(w.tx, input.runId);
    return result;
  },
};

/** An orphaned run ends failed as interrupted; a run with a live lease (or no longer running) is left alone. */
export function decideInterruptResearch(
  st: InterruptResearchState,
  now: Date,
): { events: NewEvent[]; result: { recorded: boolean } } {
  if (!st.orphaned) return { events: [], result: { recorded: false } };
  return decideEndResearch(st, interrupted, now);
}

// ---------------------------------------------------------------------------------------------------------
// draft_positioning

export async function positioningDraftsToday(tx: Exec, orgId: number, now: Date): Promise<number> {
  const { start, end } = utcDay(now);
  return positioningDraftsBetween(tx, orgId, start, end);
}

export const POSITIONING_FIELDS = ["value_propositions", "differentiators", "exclusions"] as const;
export type PositioningField = (typeof POSITIONING_FIELDS)[number];

export interface DraftPositioningState {
  settings: WorkspaceSettings;
  /** Positioning drafts of the workspace this UTC day. */
  draftsToday: number;
}

export async function loadDraftPositioning(
  tx: Exec,
  orgId: number,
  now: Date,
): Promise<DraftPositioningState> {
  return {
    settings: await loadSettings(tx, orgId),
    draftsToday: await positioningDraftsToday(tx, orgId, now),
  };
}

/** Before reading the website: the workspace has one, the profile is not locked, a field is empty, the cap. */
export function checkPositioning(
  st: DraftPositioningState,
  now: Date,
): { website: string; empty: PositioningField[]; used: number; cap: number } {
  const { settings } = st;
  if (settings.firstBrief === "running")
    throw new DomainError(
      "locked",
      "The company profile is locked while the workspace's first brief runs; try again when the first brief has finished.",
    );
  if (!settings.websiteUrl)
    throw new DomainError(
      "invalid_argument",
      "The workspace has no website to read; it is set when the workspace is created.",
    );
  const empty = POSITIONING_FIELDS.filter((f) => !(settings.profile[f]?.length ?? 0));
  const plan = planOf(settings.plan);
  const cap = plan.dailyCaps.positioningDrafts;
  const used = st.draftsToday;
  if (empty.length > 0 && used >= cap)
    throw dailyCapReached(plan, "positioningDrafts", used, utcDay(now).end);
  return { website: settings.websiteUrl, empty, used, cap };
}

/** checkPositioning on the state read now (outside the writer: the website is read before the draft is
 * recorded, and the draft is checked again then). */
export async function checkDraftPositioning(tx: Exec, orgId: number, now: Date) {
  return checkPositioning(await loadDraftPositioning(tx, orgId, now), now);
}

/** Records a draft read from the workspace's website (`source_url`). */
export const recordPositioningDraft: Command<
  { draft: Partial<Record<PositioningField, string[]>>; source_url: string },
  DraftPositioningState,
  { filled: PositioningField[]; used: number; cap: number }
> = {
  load: (w, _input, c) => loadDraftPositioning(w.tx, c.orgId, w.now),
  decide: (st, input, { now }) => decideDraftPositioning(st, input.draft, input.source_url, now),
};

/** Records the draft: only fields still empty are filled (a field filled meanwhile stays as it is). */
export function decideDraftPositioning(
  st: DraftPositioningState,
  draft: Partial<Record<PositioningField, string[]>>,
  sourceUrl: string,
  now: Date,
): { events: NewEvent[]; result: { filled: PositioningField[]; used: number; cap: number } } {
  const { empty, used, cap } = checkPositioning(st, now);
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
  const orgId = st.settings.orgId;
  return {
    events: [
      {
        type: "PositioningDrafted",
        orgId,
        streamType: "org",
        streamId: String(orgId),
        data: { changes, source_url: sourceUrl, drafted_at: now.toISOString() },
      },
    ],
    result: { filled, used: used + 1, cap },
  };
}
