// The in-process scheduler of `rivals serve` (croner): every minute, once at start and whenever one of its cycles
// ends, it looks at each workspace that has something to monitor, works out its cadence's current slot
// (slots.ts), and when the slot is due (its start plus the workspace's jitter) and no cycle of that slot has
// finished, claims the slot's lease (lease.ts) and runs the cycle. Several instances on one database run each due
// cycle once; a cycle missed while every instance was down is due at the next start (the current slot only: once,
// not once per missed slot). Its cycles check many competitors (hosts) at once, bounded over all of them by the
// instance's lanes (cycle/lanes.ts); the fetcher keeps each host's pause and robots.txt. A cycle's competitors
// are shared with the other instances (shares.ts): every 2 s each instance with free lanes claims some
// of any running cycle's, and takes over the lease of a cycle whose instance died (the lease lasts 45 s, renewed
// every 15 s), so a dead instance's share is checked again within a minute.
// RIVALS_SCHEDULER=off leaves it out of `serve`.
import { Cron } from "croner";
import type { Clock } from "../../clock.ts";
import { leaseExpiredBetween, schedulableWorkspaces } from "../../db/cycleLeases.ts";
import { effectiveCadence, planOf } from "../../domain/plans.ts";
import type { Services } from "../../services.ts";
import { Lanes } from "../cycle/lanes.ts";
import { abandonExpiredCycles } from "../cycle/record.ts";
import { type CycleSummary, checkCycleCompetitor, runCycle } from "../cycle/run.ts";
import { heartbeat, instanceOf } from "../instance.ts";
import { claimLease, finishLease, type Lease, leaseStates, pruneLeases, renewLease } from "./lease.ts";
import { claimableCycles, pruneShares, workShares } from "./shares.ts";
import { jitterOf, slotOf } from "./slots.ts";

export interface SchedulerOptions {
  /** Defaults to the services' clock. */
  clock?: Clock;
  /** This instance's name in the lease (default: the services' instance, host:pid:random). */
  instance?: string;
  /** croner pattern of the checks (default every minute). */
  pattern?: string;
  /** Lease lifetime; renewed every third of it while the cycle runs (default 45 s). */
  leaseMs?: number;
  /** Largest jitter after a slot's start (default config.schedulerJitterMs; at most a tenth of the period). */
  jitterMs?: number;
  /** Cycles run at once by this instance (default 8). */
  concurrency?: number;
  /** Competitors checked at once by this instance over all its cycles (default config.schedulerLanes). */
  lanes?: number;
  /** How often this instance looks for other instances' cycles to help with and for leases whose holder died
   * (default 2 s; 0: only when asked, `help()`). */
  helpMs?: number;
  /** How often a cycle's lead looks again while other instances hold its last competitors (default 1 s). */
  pollMs?: number;
  /** Called with each cycle this instance ran (logging, tests). */
  onCycle?: (orgId: number, slot: string, summary: CycleSummary | Error) => void;
}

export interface DueWorkspace {
  orgId: number;
  cadence: string;
  slot: string;
  dueAt: Date;
}

export interface TickReport {
  due: number;
  started: { orgId: number; slot: string }[];
  /** Due but leased by another instance (running there) or already running here. */
  held: { orgId: number; slot: string }[];
}

export class Scheduler {
  readonly instance: string;
  private clock: Clock;
  private leaseMs: number;
  private jitterMs: number;
  private concurrency: number;
  private lanes: Lanes;
  private cron: Cron | undefined;
  private running = new Map<number, Promise<void>>();
  /** Other instances' cycles this instance is checking competitors of. */
  private helping = new Map<number, Promise<void>>();
  private poller: ReturnType<typeof setInterval> | undefined;
  /** Competitors this instance checked through help(): of other instances' cycles (or of its own, with lanes free). */
  helped = 0;
  private ticking: Promise<TickReport> | undefined;
  private stopped = false;

  constructor(
    private s: Services,
    private opts: SchedulerOptions = {},
  ) {
    this.clock = opts.clock ?? s.clock;
    this.instance = opts.instance ?? instanceOf(s);
    this.leaseMs = opts.leaseMs ?? 45_000;
    this.jitterMs = opts.jitterMs ?? s.config.schedulerJitterMs;
    this.concurrency = opts.concurrency ?? 8;
    this.lanes = new Lanes(opts.lanes ?? s.config.schedulerLanes);
  }

  /** Checks now (a cycle missed while down runs at start), then on the pattern. */
  start(): this {
    this.stopped = false;
    void this.tick().catch((e) => this.log("error", { scheduler_tick: String(e?.stack ?? e) }));
    this.cron = new Cron(this.opts.pattern ?? "* * * * *", { protect: true, unref: true }, async () => {
      try {
        await this.tick();
      } catch (e) {
        this.log("error", { scheduler_tick: String((e as Error)?.stack ?? e) });
      }
    });
    const every = this.opts.helpMs ?? 2000;
    if (every > 0) {
      this.poller = setInterval(() => {
        void this.poll().catch((e) => this.log("error", { scheduler_poll: String(e?.stack ?? e) }));
      }, every);
      this.poller.unref?.();
    }
    return this;
  }

  /** Takes over a lease whose holder died (a check), then helps with other instances' cycles. */
  private async poll(): Promise<void> {
    if (this.stopped) return;
    const now = this.clock();
    const since = new Date(now.getTime() - 4 * this.leaseMs).toISOString();
    if (await leaseExpiredBetween(this.s.database, since, now.toISOString())) await this.tick();
    await this.help();
  }

  /** Claims and checks competitors of running cycles (this instance's or others') while its lanes are free. */
  async help(): Promise<number> {
    if (this.stopped || this.lanes.busy >= this.lanes.size) return 0;
    const open = await claimableCycles(this.s, this.clock());
    let joined = 0;
    for (const { cycleId, orgId, startedAt } of open) {
      if (this.helping.has(cycleId) || this.lanes.busy >= this.lanes.size) continue;
      joined++;
      const done = workShares(this.s, {
        cycleId,
        holder: this.instance,
        clock: this.clock,
        lanes: this.lanes,
        wait: false,
        check: (id) => checkCycleCompetitor(this.s, orgId, { id: cycleId, startedAt }, id),
      })
        .then((n) => {
          this.helped += n;
          if (n > 0) this.log("info", { cycle: cycleId, instance: this.instance, competitors_helped: n });
        })
        .catch((e) => this.log("error", { cycle: cycleId, helping: String((e as Error)?.stack ?? e) }))
        .finally(() => {
          this.helping.delete(cycleId);
          if (!this.stopped) void this.help().catch(() => undefined);
        });
      this.helping.set(cycleId, done);
    }
    return joined;
  }

  /** Stops checking; with `wait` (default) resolves when this instance's running cycles have ended. Without,
   * a running cycle is left to the process's end: its lease expires and another instance runs the slot. */
  async stop(opts: { wait?: boolean } = {}): Promise<void> {
    this.stopped = true;
    this.cron?.stop();
    if (this.poller) clearInterval(this.poller);
    if (opts.wait === false) return;
    await this.ticking?.catch(() => undefined);
    await this.idle();
  }

  /** Resolves when no cycle this instance started is running. */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.helping.size > 0)
      await Promise.allSettled([...this.running.values(), ...this.helping.values()]);
  }

  /** The workspaces with something to monitor, their cadence's current slot and when it is due. */
  async dueWorkspaces(now: Date = this.clock()): Promise<DueWorkspace[]> {
    return (await schedulableWorkspaces(this.s.database)).map(({ orgId, plan, cadence: chosen }) => {
      const cadence = effectiveCadence(planOf(plan), chosen);
      const slot = slotOf(cadence, now);
      return {
        orgId,
        cadence,
        slot: slot.key,
        dueAt: new Date(slot.start.getTime() + jitterOf(orgId, slot.periodMs, this.jitterMs)),
      };
    });
  }

  /** One check: claims and starts every due cycle not finished and not leased elsewhere. */
  tick(): Promise<TickReport> {
    const run = (this.ticking ?? Promise.resolve()).catch(() => undefined).then(() => this.check());
    this.ticking = run;
    return run;
  }

  private async check(): Promise<TickReport> {
    const report: TickReport = { due: 0, started: [], held: [] };
    if (this.stopped) return report;
    const now = this.clock();
    // Cycles whose process died are closed even in a workspace whose next cycle is not due yet.
    await abandonExpiredCycles(this.s).catch(() => undefined);
    const all = await this.dueWorkspaces(now);
    const due = all.filter((w) => w.dueAt.getTime() <= now.getTime());
    const leases = await leaseStates(this.s, due);
    for (const w of due) {
      const l = leases.get(`${w.orgId}|${w.slot}`);
      if (l?.finished) continue;
      report.due++;
      if (this.running.has(w.orgId) || this.running.size >= this.concurrency) {
        report.held.push({ orgId: w.orgId, slot: w.slot });
        continue;
      }
      if (l && l.expiresAt > now.toISOString()) {
        report.held.push({ orgId: w.orgId, slot: w.slot });
        continue;
      }
      const lease: Lease = { orgId: w.orgId, slot: w.slot, holder: this.instance };
      if (!(await claimLease(this.s, lease, now, this.leaseMs))) {
        report.held.push({ orgId: w.orgId, slot: w.slot });
        continue;
      }
      report.started.push({ orgId: w.orgId, slot: w.slot });
      const done = this.runLeased(lease).finally(() => {
        this.running.delete(w.orgId);
        // The next due workspace starts now, not at the next minute's check.
        if (!this.stopped)
          void this.tick().catch((e) => this.log("error", { scheduler_tick: String(e?.stack ?? e) }));
      });
      this.running.set(w.orgId, done);
    }
    if (now.getUTCMinutes() === 0) {
      await pruneLeases(this.s, now).catch(() => undefined);
      await pruneShares(this.s).catch(() => undefined);
    }
    return report;
  }

  private async runLeased(lease: Lease): Promise<void> {
    const renew = heartbeat(Math.max(1000, Math.floor(this.leaseMs / 3)), `cycle lease ${lease.slot}`, () =>
      renewLease(this.s, lease, this.clock(), this.leaseMs),
    );
    let cycleId: number | null = null;
    try {
      const summary = await runCycle(this.s, lease.orgId, {
        trigger: "schedule",
        slot: lease.slot,
        // Every competitor of the cycle may run at once; the instance's lanes bound them over all its cycles.
        concurrency: this.lanes.size,
        lanes: this.lanes,
        share: { holder: this.instance, clock: this.clock, pollMs: this.opts.pollMs },
      });
      cycleId = summary.cycle_id;
      this.log("info", {
        cycle: summary.cycle_id,
        org: summary.org,
        slot: lease.slot,
        instance: this.instance,
        pages_checked: summary.pages_checked,
        pages_changed: summary.pages_changed,
        ...(summary.pages_due_later > 0 ? { pages_due_later: summary.pages_due_later } : {}),
        signals_created: summary.signals_created,
      });
      this.opts.onCycle?.(lease.orgId, lease.slot, summary);
    } catch (e) {
      this.log("error", {
        cycle_failed: String((e as Error)?.stack ?? e),
        org_id: lease.orgId,
        slot: lease.slot,
      });
      this.opts.onCycle?.(lease.orgId, lease.slot, e as Error);
    } finally {
      renew.stop();
      await finishLease(this.s, lease, this.clock(), cycleId).catch(() => undefined);
    }
  }

  private log(level: string, fields: Record<string, unknown>) {
    const line = JSON.stringify({ level, scheduler: this.instance, ...fields });
    if (level === "error") console.error(line);
    else console.log(line);
  }
}
