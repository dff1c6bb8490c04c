// A workspace's settings as its deciders read them (the company profile, ICP, cadence, delivery channels, the
// team-chat connection, the first-brief lock), loaded from the read tables inside the writer's transaction, and
// the checks the features share. Each feature decides in its own file: companyProfile.ts, icp.ts, cadence.ts,
// delivery.ts, chat.ts, firstBrief.ts; planUsage.ts reports the plan and its use.
import type { Tx } from "../../events/store.ts";
import { workspaceSettingsRow } from "../db/queries/orgs.ts";
import type { DeliveryRules } from "./deliveryRules.ts";
import { DomainError } from "./errors.ts";
import { InvalidInput } from "./validate.ts";
import type { CompanyProfile, IcpProfile } from "./workspaceTypes.ts";

export type Exec = Pick<Tx, "execute">;

export const MAX_LIST_ITEMS = 50;
export const MAX_LIST_ITEM_LENGTH = 200;
export const MAX_TEXT_LENGTH = 2000;

export interface WorkspaceSettings {
  orgId: number;
  slug: string;
  name: string;
  websiteUrl: string | null;
  plan: string;
  profile: CompanyProfile;
  profileUpdatedAt: string | null;
  icp: IcpProfile;
  icpUpdatedAt: string | null;
  cadence: string | null;
  email: boolean | null;
  slack: boolean | null;
  chatConnectedAt: string | null;
  teams: boolean | null;
  teamsConnectedAt: string | null;
  /** Delivery rules by channel (deliveryRules.ts); a channel without any gets every signal. */
  rules: Partial<Record<"email" | "slack" | "teams", DeliveryRules>>;
  firstBrief: "running" | "finished" | null;
}

const flag = (v: unknown) => (v === null || v === undefined ? null : Number(v) === 1);

/** The settings of a workspace; with `version`, the org stream's version too (for a command whose decision rests
 * on the settings alone). */
export async function loadSettings(
  tx: Exec,
  orgId: number,
  opts: { version?: boolean } = {},
): Promise<WorkspaceSettings & { version?: number }> {
  const row = await workspaceSettingsRow(tx, orgId, opts);
  if (!row) throw new DomainError("not_found", "no such workspace");
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    orgId,
    slug: String(row.slug),
    name: String(row.name),
    websiteUrl: s(row.website_url),
    plan: String(row.plan),
    profile: JSON.parse(s(row.profile) ?? "{}"),
    profileUpdatedAt: s(row.profile_updated_at),
    icp: JSON.parse(s(row.icp) ?? "{}"),
    icpUpdatedAt: s(row.icp_updated_at),
    cadence: s(row.cadence),
    email: flag(row.email_delivery),
    slack: flag(row.slack_delivery),
    chatConnectedAt: s(row.chat_connected_at),
    teams: flag(row.teams_delivery),
    teamsConnectedAt: s(row.teams_connected_at),
    rules: JSON.parse(s(row.delivery_rules) ?? "{}"),
    firstBrief: s(row.first_brief) as WorkspaceSettings["firstBrief"],
    ...(opts.version ? { version: Number(row.version) } : {}),
  };
}

export const orgStream = (orgId: number) => ({ orgId, streamType: "org" as const, streamId: String(orgId) });

export function assertUnlocked(st: WorkspaceSettings, what: string): void {
  if (st.firstBrief === "running")
    throw new DomainError(
      "locked",
      `The ${what} is locked while the workspace's first brief runs; try again when the first brief has finished.`,
    );
}

/** Trims, drops blanks and case-insensitive duplicates, checks sizes. */
export function normalizeList(values: string[], field: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of values) {
    if (typeof raw !== "string") throw new InvalidInput(`${field} must be a list of strings`, field);
    const v = raw.trim().replace(/\s+/g, " ");
    if (!v) continue;
    if (v.length > MAX_LIST_ITEM_LENGTH)
      throw new InvalidInput(`each ${field} entry must be at most ${MAX_LIST_ITEM_LENGTH} characters`, field);
    const k = v.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(v);
  }
  if (out.length > MAX_LIST_ITEMS)
    throw new InvalidInput(`${field} takes at most ${MAX_LIST_ITEMS} entries`, field);
  return out;
}

export const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The UTC calendar day containing `now`: the window of the daily caps. */
export function utcDay(now: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const end = new Date(start.getTime() + 24 * 60 * 60 * 1000);
  return { start: start.toISOString(), end: end.toISOString() };
}
