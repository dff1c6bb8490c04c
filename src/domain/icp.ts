// The workspace's ideal customer profile (industries, buyer roles): updated within the plan's daily cap, locked
// while the first brief runs, and each tracked competitor's overlap with it computed again on every update.
import type { NewEvent } from "../../events/catalog.ts";
import type { Command } from "../../events/command.ts";
import { listedCompetitorRecords } from "../db/queries/competitorUsage.ts";
import { icpUpdatesBetween } from "../db/queries/icpUpdates.ts";
import { computeIcpOverlap } from "./icpOverlap.ts";
import { dailyCapReached, planOf } from "./plans.ts";
import type { CompetitorRecord } from "./records.ts";
import { InvalidInput, prune } from "./validate.ts";
import {
  assertUnlocked,
  type Exec,
  loadSettings,
  normalizeList,
  orgStream,
  same,
  utcDay,
  type WorkspaceSettings,
} from "./workspace.ts";
import { ICP_DIMENSIONS, type IcpProfile } from "./workspaceTypes.ts";

type Obj = Record<string, unknown>;

/** Successful update_icp calls of one org on the UTC day of `now` (icp_updates_by_day index). */
export async function icpUpdatesToday(tx: Exec, orgId: number, now: Date): Promise<number> {
  const day = utcDay(now);
  return icpUpdatesBetween(tx, orgId, day.start, day.end);
}

export type IcpInput = Partial<Record<(typeof ICP_DIMENSIONS)[number], string[]>>;

export interface IcpCompetitor {
  id: number;
  name: string;
  icp_overlap?: Obj;
}

export interface IcpUpdateResult {
  ideal_customer_profile: { industries: string[]; buyer_roles: string[] };
  changed: string[];
  competitors: IcpCompetitor[];
  icp_updates_used_today: number;
  daily_cap: number;
  cap_resets_at: string;
}

export function mergeIcp(icp: IcpProfile, input: IcpInput): { icp: IcpProfile; changed: string[] } {
  const out: IcpProfile = { ...icp };
  const changed: string[] = [];
  for (const d of ICP_DIMENSIONS) {
    const v = input[d];
    if (v === undefined) continue;
    if (!Array.isArray(v)) throw new InvalidInput(`${d} must be a list of strings`, d);
    const list = normalizeList(v, d);
    if (!same(icp[d] ?? [], list)) changed.push(d);
    if (list.length) out[d] = list;
    else delete out[d];
  }
  return { icp: out, changed };
}

export function decideUpdateIcp(
  st: WorkspaceSettings,
  input: IcpInput,
  usedToday: number,
  competitors: { id: number; name: string; record: CompetitorRecord }[],
  now: Date,
): { events: NewEvent[]; result: IcpUpdateResult } {
  const { icp, changed } = mergeIcp(st.icp, input);
  assertUnlocked(st, "ideal customer profile");
  const plan = planOf(st.plan);
  const cap = plan.dailyCaps.icpUpdates;
  const day = utcDay(now);
  if (usedToday >= cap) throw dailyCapReached(plan, "icpUpdates", usedToday, day.end);
  const events: NewEvent[] = [
    {
      type: "IcpUpdated",
      ...orgStream(st.orgId),
      data: {
        ...(input.industries !== undefined ? { industries: icp.industries ?? [] } : {}),
        ...(input.buyer_roles !== undefined ? { buyer_roles: icp.buyer_roles ?? [] } : {}),
        updated_at: now.toISOString(),
      },
    },
  ];
  const out: IcpCompetitor[] = [];
  for (const c of competitors) {
    const overlap = computeIcpOverlap(icp, c.record);
    if (!same(c.record.workspace?.icp_overlap, overlap ?? undefined))
      events.push({
        type: "CompetitorIcpOverlapComputed",
        orgId: st.orgId,
        streamType: "competitor",
        streamId: String(c.id),
        data: { id: c.id, icp_overlap: overlap },
      });
    const shown = prune(overlap) as Obj | undefined;
    out.push({ id: c.id, name: c.name, ...(shown ? { icp_overlap: shown } : {}) });
  }
  return {
    events,
    result: {
      ideal_customer_profile: { industries: icp.industries ?? [], buyer_roles: icp.buyer_roles ?? [] },
      changed,
      competitors: out,
      icp_updates_used_today: usedToday + 1,
      daily_cap: cap,
      cap_resets_at: day.end,
    },
  };
}

/** The competitors whose overlap update_icp re-reads: the ones the workspace actively tracks. */
export function trackedCompetitors(tx: Exec, orgId: number) {
  return listedCompetitorRecords<CompetitorRecord>(tx, orgId);
}

export const updateIcp: Command<
  IcpInput,
  {
    st: WorkspaceSettings;
    used: number;
    competitors: { id: number; name: string; record: CompetitorRecord }[];
  },
  IcpUpdateResult
> = {
  load: async (w, _input, c) => ({
    st: await loadSettings(w.tx, c.orgId),
    used: await icpUpdatesToday(w.tx, c.orgId, w.now),
    competitors: await trackedCompetitors(w.tx, c.orgId),
  }),
  decide: (s, input, { now }) => decideUpdateIcp(s.st, input, s.used, s.competitors, now),
};
