// The research deciders on plain state, no database: starting runs (targets, skips, refusals, the weekly
// allowance, the first brief), ending one (first-brief end, the ICP overlap re-read), and draft_positioning.
import { describe, expect, test } from "bun:test";
import type { NewEvent } from "../../events/catalog.ts";
import { DomainError } from "../../src/domain/errors.ts";
import {
  checkPositioning,
  decideDraftPositioning,
  decideEndResearch,
  decideInterruptResearch,
  decideStartResearch,
  type EndResearchState,
  INTERRUPTED,
  type RunOutcome,
  researchTargets,
  type StartResearchState,
} from "../../src/domain/research.ts";
import type { ResearchDossier } from "../../src/domain/researchTypes.ts";
import type { CompetitorRow } from "../../src/domain/watchlist.ts";
import type { WorkspaceSettings } from "../../src/domain/workspace.ts";

const NOW = new Date("2026-03-04T10:00:00.000Z"); // a Wednesday: the allowance week began Monday 2 March
const caller = { orgId: 7, actor: "key:1" };

function settings(over: Partial<WorkspaceSettings> = {}): WorkspaceSettings {
  return {
    orgId: 7,
    slug: "acme",
    name: "Acme",
    websiteUrl: "https://acme.example/",
    plan: "starter",
    profile: {},
    profileUpdatedAt: null,
    icp: {},
    icpUpdatedAt: null,
    cadence: null,
    email: null,
    slack: null,
    chatConnectedAt: null,
    teams: null,
    teamsConnectedAt: null,
    rules: {},
    firstBrief: "finished",
    ...over,
  };
}

function competitor(id: number, over: Partial<CompetitorRow> = {}): CompetitorRow {
  const name = over.name ?? `Rival ${id}`;
  return {
    id,
    key: `added-${id}`,
    name,
    website_url: `https://rival${id}.example/`,
    watch: "core",
    tracking: "active",
    record: { name, watch: "core", tracking: "active" },
    ...over,
  };
}

function state(over: Partial<StartResearchState> = {}): StartResearchState {
  return {
    org: { id: 7, plan: "starter", created_at: "2026-01-01T00:00:00.000Z" },
    candidates: [{ comp: competitor(1) }],
    allowanceUsed: 0,
    settings: settings(),
    ...over,
  };
}

function refusal(decide: () => unknown): DomainError {
  try {
    decide();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

const types = (events: NewEvent[]) => events.map((e) => e.type);
const opts = (runIds: number[], usesAllowance = true) => ({
  trigger: "refresh_watchlist" as const,
  usesAllowance,
  now: NOW,
  runIds,
});

describe("decideStartResearch", () => {
  test("refresh_watchlist: one run per competitor that can run, batch = the first run id, skips named", () => {
    const st = state({
      candidates: [
        { comp: competitor(1) },
        { comp: competitor(2, { website_url: null }) },
        { comp: competitor(3), running: 88 },
        { comp: competitor(4) },
      ],
      allowanceUsed: 2,
    });
    const cmd = { kind: "watchlist" } as const;
    expect(researchTargets(st, cmd).targets.map((c) => c.id)).toEqual([1, 4]);
    const out = decideStartResearch(st, caller, cmd, opts([50, 51]));
    expect(types(out.events)).toEqual(["ResearchStarted", "ResearchStarted"]);
    expect(out.events[1]).toEqual({
      type: "ResearchStarted",
      orgId: 7,
      streamType: "competitor",
      streamId: "4",
      data: {
        run_id: 51,
        competitor_id: 4,
        batch: 50,
        trigger: "refresh_watchlist",
        uses_allowance: true,
        first_brief: false,
        website_url: "https://rival4.example/",
        started_at: NOW.toISOString(),
      },
    });
    expect(out.result.skipped).toEqual([
      { competitor_id: 2, name: "Rival 2", reason: "no website" },
      { competitor_id: 3, name: "Rival 3", reason: "research already running" },
    ]);
    expect(out.result.allowance).toEqual({
      used: 3,
      limit: 3,
      plan: "starter",
      resets_at: "2026-03-09T00:00:00.000Z",
    });
    // The ids are the handler's: a count that does not match the targets is a programming error.
    expect(() => decideStartResearch(st, caller, cmd, opts([50]))).toThrow("2 run ids needed, 1 given");
  });

  test("the workspace's first research starts the first brief; the operator's command uses no allowance", () => {
    const st = state({ settings: settings({ firstBrief: null }), allowanceUsed: undefined });
    const out = decideStartResearch(st, caller, { kind: "one", competitor_id: 1 }, opts([60], false));
    expect(types(out.events)).toEqual(["FirstBriefStarted", "ResearchStarted"]);
    expect(out.result.runs).toEqual([
      {
        run_id: 60,
        competitor_id: 1,
        name: "Rival 1",
        website_url: "https://rival1.example/",
        first_brief: true,
      },
    ]);
    expect(out.result.allowance).toBeUndefined();
  });

  test("refusals: empty watchlist, nothing runnable, unknown, horizon, no website, running, done, allowance", () => {
    const wl = { kind: "watchlist" } as const;
    expect(refusal(() => researchTargets(state({ candidates: [] }), wl)).code).toBe("not_found");
    const none = refusal(() =>
      researchTargets(state({ candidates: [{ comp: competitor(1), running: 9 }] }), wl),
    );
    expect([none.code, none.extra.skipped]).toEqual([
      "conflict",
      [{ competitor_id: 1, name: "Rival 1", reason: "research already running" }],
    ]);
    const first = (id: number, st: StartResearchState) =>
      refusal(() => decideStartResearch(st, caller, { kind: "first", competitor_id: id }, opts([1])));
    expect(first(2, state()).code).toBe("not_found");
    expect(first(1, state({ candidates: [{ comp: competitor(1, { watch: "horizon" }) }] })).code).toBe(
      "invalid_argument",
    );
    expect(first(1, state({ candidates: [{ comp: competitor(1, { website_url: null }) }] })).extra).toEqual({
      argument: "competitor_id",
    });
    expect(first(1, state({ candidates: [{ comp: competitor(1), running: 77 }] })).extra).toEqual({
      competitor_id: 1,
      run_id: 77,
    });
    const researched = competitor(1, {
      record: { name: "Rival 1", watch: "core", tracking: "active", reads: { pricing: {} } },
    });
    expect(first(1, state({ candidates: [{ comp: researched }] })).message).toContain("already has research");
    // A refresh of a researched competitor is fine until the week's allowance is used.
    const spent = refusal(() =>
      decideStartResearch(
        state({ candidates: [{ comp: researched }], allowanceUsed: 3 }),
        caller,
        { kind: "one", competitor_id: 1 },
        opts([1]),
      ),
    );
    expect([spent.code, spent.extra]).toEqual([
      "limit_reached",
      {
        limit: "weekly_research_allowance",
        allowed: 3,
        used: 3,
        plan: "starter",
        resets_at: "2026-03-09T00:00:00.000Z",
        plan_needed: "growth",
      },
    ]);
  });
});

describe("decideEndResearch", () => {
  const dossier: ResearchDossier = {
    profile: { description: "Analytics for retail banks.", industry: "Banking" },
    urls: {},
    reads: { positioning: "Analytics for retail banks." },
    sources: [{ url: "https://rival1.example/", kind: "home" }],
    fetched: 1,
  };
  const run = { id: 50, org_id: 7, competitor_id: 1, state: "running", first_brief: true };
  const ok: RunOutcome = { ok: true, dossier };

  test("a run no longer running records nothing", () => {
    for (const st of [{ run: undefined }, { run: { ...run, state: "failed" } }] as EndResearchState[])
      expect(decideEndResearch(st, ok, NOW)).toEqual({ events: [], result: { recorded: false } });
  });

  test("the last first-brief run finishes the first brief; another still running keeps it going", () => {
    const live = { othersRunning: 0, settings: settings({ firstBrief: "running" }) };
    const last = decideEndResearch({ run, live }, { ok: false, code: "fetch_failed", reason: "down" }, NOW);
    expect(types(last.events)).toEqual(["ResearchFailed", "FirstBriefFinished"]);
    expect(last.events[0].data).toEqual({
      run_id: 50,
      competitor_id: 1,
      failed_at: NOW.toISOString(),
      code: "fetch_failed",
      reason: "down",
    });
    const notLast = decideEndResearch({ run, live: { ...live, othersRunning: 1 } }, ok, NOW);
    expect(types(notLast.events)).toEqual(["ResearchFinished"]);
  });

  test("with an ICP set, the overlap is re-read from the new dossier and recorded when it changes", () => {
    const st: EndResearchState = {
      run: { ...run, first_brief: false },
      live: {
        othersRunning: 0,
        settings: settings({ icp: { industries: ["Banking"] } }),
        competitor: { name: "Rival 1", watch: "core", tracking: "active" },
      },
    };
    const out = decideEndResearch(st, ok, NOW);
    expect(types(out.events)).toEqual(["ResearchFinished", "CompetitorIcpOverlapComputed"]);
    const overlap = (out.events[1].data as { icp_overlap: { level: string } }).icp_overlap;
    expect(overlap.level).not.toBe("none");
    // The same overlap already recorded: no event; no ICP: no event.
    const same = {
      ...st.live!,
      competitor: { ...st.live!.competitor!, workspace: { icp_overlap: overlap } },
    };
    expect(types(decideEndResearch({ ...st, live: same }, ok, NOW).events)).toEqual(["ResearchFinished"]);
    const noIcp = { ...st.live!, settings: settings() };
    expect(types(decideEndResearch({ ...st, live: noIcp }, ok, NOW).events)).toEqual(["ResearchFinished"]);
  });
});

describe("decideInterruptResearch", () => {
  const run = { id: 51, org_id: 7, competitor_id: 2, state: "running", first_brief: false };
  const live = { othersRunning: 0, settings: settings() };

  test("a run with a live lease is left alone", () => {
    expect(decideInterruptResearch({ run: undefined, orphaned: false }, NOW)).toEqual({
      events: [],
      result: { recorded: false },
    });
  });

  test("an orphaned run ends failed as interrupted", () => {
    const out = decideInterruptResearch({ run, live, orphaned: true }, NOW);
    expect(out.result).toEqual({ recorded: true });
    expect(types(out.events)).toEqual(["ResearchFailed"]);
    expect(out.events[0].data).toEqual({
      run_id: 51,
      competitor_id: 2,
      failed_at: NOW.toISOString(),
      code: "interrupted",
      reason: INTERRUPTED,
    });
  });
});

describe("decideDraftPositioning", () => {
  const draft = { value_propositions: ["Fast answers"], differentiators: ["No SQL"], exclusions: [] };

  test("fills only the fields still empty, counting the draft", () => {
    const st = { settings: settings({ profile: { differentiators: ["Ours"] } }), draftsToday: 1 };
    const out = decideDraftPositioning(st, draft, "https://acme.example/", NOW);
    expect(out.events).toEqual([
      {
        type: "PositioningDrafted",
        orgId: 7,
        streamType: "org",
        streamId: "7",
        data: {
          changes: { value_propositions: ["Fast answers"] },
          source_url: "https://acme.example/",
          drafted_at: NOW.toISOString(),
        },
      },
    ]);
    expect(out.result).toEqual({ filled: ["value_propositions"], used: 2, cap: 3 });
    // Nothing new to fill: no event, the count unchanged.
    const none = decideDraftPositioning(st, { differentiators: ["Theirs"] }, "https://acme.example/", NOW);
    expect(none).toEqual({ events: [], result: { filled: [], used: 1, cap: 3 } });
  });

  test("refusals: the first-brief lock, no website, the daily cap (only while a field is empty)", () => {
    const check = (s: WorkspaceSettings, draftsToday = 0) =>
      refusal(() => checkPositioning({ settings: s, draftsToday }, NOW));
    expect(check(settings({ firstBrief: "running" })).code).toBe("locked");
    expect(check(settings({ websiteUrl: null })).code).toBe("invalid_argument");
    const cap = check(settings({ plan: "free" }), 1);
    expect([cap.code, cap.extra]).toEqual([
      "limit_reached",
      {
        limit: "daily_positioning_drafts",
        allowed: 1,
        used: 1,
        plan: "free",
        resets_at: "2026-03-05T00:00:00.000Z",
        plan_needed: "starter",
      },
    ]);
    const full = settings({
      plan: "free",
      profile: { value_propositions: ["a"], differentiators: ["b"], exclusions: ["c"] },
    });
    expect(checkPositioning({ settings: full, draftsToday: 5 }, NOW)).toEqual({
      website: "https://acme.example/",
      empty: [],
      used: 5,
      cap: 1,
    });
  });
});
