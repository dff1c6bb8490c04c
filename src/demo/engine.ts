// The engine at work in the demo (`serve --demo`): research of the demo's competitors whose fictional websites the
// process serves (src/demo/web.ts), then a monitoring cycle — in the background, never holding the server up.
// The imported demo history stays; the engine's signals come on top of it.
//
// "Advance the demo sites" (advanceDemo) must find the planted changes whenever it is pressed. A cycle finds a
// change only against a snapshot taken before it: while research runs (a cycle skips a competitor being
// researched, and research that read v2 makes v2 the baseline) or its first cycle has not taken the baseline, an
// advance is queued (demo_sites.advance_queued_at) and applied, with its cycle, as soon as that work ends.
import { coreCompetitors, demoSitesRow, endedCyclesSince, researchingNames } from "../db/demo.ts";
import { orgIdBySlug } from "../db/queries/orgs.ts";
import { runCycle } from "../engine/cycle/run.ts";
import { type CycleStatus, cycleStatus } from "../engine/cycle/status.ts";
import { startResearch } from "../engine/research/runner.ts";
import type { Services } from "../services.ts";
import {
  advanceDemoSites,
  DEMO_HOSTS,
  type DemoAdvance,
  demoAdvanceQueued,
  demoSitesVersion,
  queueDemoAdvance,
} from "./web.ts";

const META = { actor: "operator", source: "demo" };
/** How often a queued advance looks again whether research (started anywhere) has ended. */
const POLL_MS = 250;

/** The demo workspace's id (undefined before `loadDemo`). */
async function demoOrgId(s: Services, slug: string): Promise<number | undefined> {
  return orgIdBySlug(s.database, slug);
}

/** This process's start-up work (research, then the first cycle) per Services, while it runs. */
const starting = new WeakMap<Services, Promise<void>>();
/** The queued advance being applied (waiting, advancing, its cycle), per Services. */
const applying = new WeakMap<Services, Promise<void>>();
/** The cycle of an advance applied at once, while it runs, per Services. */
const advancing = new WeakMap<Services, Promise<void>>();

function track(map: WeakMap<Services, Promise<void>>, s: Services, work: Promise<void>): Promise<void> {
  map.set(s, work);
  void work.finally(() => {
    if (map.get(s) === work) map.delete(s);
  });
  return work;
}

async function researchRunning(s: Services, orgId: number): Promise<string[]> {
  return researchingNames(s.database, orgId);
}

/** Researches the demo's core competitors that have an embedded site and no finished research yet, then runs
 * one cycle of the workspace, then applies an advance pressed meanwhile. Returns what it did. */
export function runDemoEngine(
  s: Services,
  slug: string,
): Promise<{ researched: number[]; cycle?: Record<string, unknown> }> {
  const work = startUp(s, slug);
  track(
    starting,
    s,
    work.then(
      () => undefined,
      () => undefined,
    ),
  );
  return work;
}

async function startUp(
  s: Services,
  slug: string,
): Promise<{ researched: number[]; cycle?: Record<string, unknown> }> {
  const orgId = await demoOrgId(s, slug);
  if (orgId === undefined) return { researched: [] };
  const todo: number[] = [];
  for (const row of await coreCompetitors(s.database, orgId)) {
    let host = "";
    try {
      host = new URL(row.websiteUrl).hostname;
    } catch {
      continue;
    }
    if (!DEMO_HOSTS.includes(host)) continue;
    const state = JSON.parse(row.state) as { freshness?: { research_state?: string } };
    if (state.freshness?.research_state === "finished" || state.freshness?.research_state === "running")
      continue;
    todo.push(row.id);
  }
  const researched: number[] = [];
  for (const id of todo) {
    try {
      const { done } = await startResearch(
        s,
        { orgId, actor: "operator" },
        { kind: "one", competitor_id: id },
        "operator",
        { usesAllowance: false, metadata: META, history: "none" },
      );
      const [report] = await done;
      if (report?.status === "finished") researched.push(id);
    } catch (e) {
      console.error(
        JSON.stringify({ level: "warn", demo_research: id, error: String((e as Error)?.message ?? e) }),
      );
    }
  }
  const cycle = await runCycle(s, orgId, { trigger: "demo" });
  return { researched, cycle: cycle as unknown as Record<string, unknown> };
}

/** Starts runDemoEngine in the background and logs its outcome; then applies an advance pressed meanwhile. */
export function startDemoEngine(s: Services, slug: string): Promise<void> {
  return runDemoEngine(s, slug).then(
    async (out) => {
      console.log(
        JSON.stringify({
          demo_engine: "ready",
          researched: out.researched.length,
          signals_created: out.cycle?.signals_created ?? 0,
          pages_checked: out.cycle?.pages_checked ?? 0,
        }),
      );
      const orgId = await demoOrgId(s, slug);
      if (orgId !== undefined && (await demoAdvanceQueued(s))) await applyQueued(s, orgId);
    },
    (e) => console.error(JSON.stringify({ level: "error", demo_engine: String((e as Error)?.stack ?? e) })),
  );
}

/** Waits until no start-up work and no research of the workspace runs, then applies the queued advance (if still
 * queued) and runs its cycle. One at a time per Services. */
function applyQueued(s: Services, orgId: number): Promise<void> {
  const cur = applying.get(s);
  if (cur) return cur;
  const work = (async () => {
    for (;;) {
      const before = starting.get(s) ?? advancing.get(s);
      if (before) await before;
      else if ((await researchRunning(s, orgId)).length) await Bun.sleep(POLL_MS);
      else break;
    }
    if (!(await demoAdvanceQueued(s))) return;
    const a = await advanceDemoSites(s);
    console.log(JSON.stringify({ demo_sites: a.version, applied: "queued advance" }));
    await runCycle(s, orgId, { trigger: "demo" });
  })().catch((e) =>
    console.error(JSON.stringify({ level: "error", demo_advance: String((e as Error)?.stack ?? e) })),
  );
  return track(applying, s, work);
}

/** The button: advances now and runs a cycle in the background, or — while the demo is still researching, taking
 * its first baseline or checking the previous advance — queues the advance to apply right after. */
export async function advanceDemo(
  s: Services,
  orgId: number,
): Promise<{ queued: true } | { queued: false; advance: DemoAdvance }> {
  const busy =
    starting.has(s) || applying.has(s) || advancing.has(s) || (await researchRunning(s, orgId)).length > 0;
  if (busy) {
    await queueDemoAdvance(s);
    void applyQueued(s, orgId);
    return { queued: true };
  }
  const advance = await advanceDemoSites(s);
  track(
    advancing,
    s,
    runCycle(s, orgId, { trigger: "demo" }).then(
      () => undefined,
      (e) =>
        console.error(JSON.stringify({ level: "error", demo_cycle: String((e as Error)?.message ?? e) })),
    ),
  );
  return { queued: false, advance };
}

/** Resolves when the demo's start-up work and any advance it applies have ended (tests). */
export async function demoIdle(s: Services): Promise<void> {
  for (;;) {
    const w = starting.get(s) ?? applying.get(s) ?? advancing.get(s);
    if (!w) return;
    await w;
  }
}

export interface DemoEngineState {
  version: number;
  /** The last advance and what the cycles that ended since found (every one of them, not only the last). */
  advance?: { at: string; cycles: number; signals_created: number };
  /** An advance's cycle is under way in this process (it may not have opened its cycle record yet). */
  advancing: boolean;
  /** Competitors whose research is running now. */
  researching: string[];
  /** Start-up work of this process is under way (research, or the first cycle). */
  starting: boolean;
  /** An advance waits for research or the baseline cycle to end. */
  queuedAt?: string;
  cycle: CycleStatus;
}

/** The last advance, and the cycles of the workspace that started at or after it and have ended. */
async function sinceAdvance(s: Services, orgId: number): Promise<DemoEngineState["advance"]> {
  const at = (await demoSitesRow(s.database))?.advancedAt;
  if (!at) return undefined;
  const { cycles, signalsCreated } = await endedCyclesSince(s.database, orgId, at);
  return { at, cycles, signals_created: signalsCreated };
}

/** What the demo page shows of the engine. */
export async function demoEngineState(s: Services, orgId: number): Promise<DemoEngineState> {
  const [version, researching, queuedAt, cycle, advance] = await Promise.all([
    demoSitesVersion(s),
    researchRunning(s, orgId),
    demoAdvanceQueued(s),
    cycleStatus(s, orgId),
    sinceAdvance(s, orgId),
  ]);
  return {
    version,
    ...(advance ? { advance } : {}),
    advancing: advancing.has(s) || applying.has(s),
    researching,
    starting: starting.has(s),
    ...(queuedAt ? { queuedAt } : {}),
    cycle,
  };
}
