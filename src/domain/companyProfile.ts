// The workspace's company profile: who the workspace is (description, category, target customer, positioning),
// changed field by field, locked while the first brief runs; and the profile as the tools show it.
import type { NewEvent } from "../../events/catalog.ts";
import type { Command } from "../../events/command.ts";
import { InvalidInput } from "./validate.ts";
import {
  assertUnlocked,
  loadSettings,
  MAX_TEXT_LENGTH,
  normalizeList,
  orgStream,
  same,
  type WorkspaceSettings,
} from "./workspace.ts";
import {
  type CompanyProfile,
  type CompanyProfileChanges,
  PROFILE_LIST_FIELDS,
  PROFILE_TEXT_FIELDS,
} from "./workspaceTypes.ts";

type Obj = Record<string, unknown>;

export type ProfileInput = Partial<Record<(typeof PROFILE_TEXT_FIELDS)[number], string>> &
  Partial<Record<(typeof PROFILE_LIST_FIELDS)[number], string[]>>;

export function applyProfileChanges(p: CompanyProfile, changes: CompanyProfileChanges): CompanyProfile {
  const out: Obj = { ...p };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined) delete out[k];
    else out[k] = v;
  }
  return out as CompanyProfile;
}

export function decideUpdateProfile(
  st: WorkspaceSettings,
  input: ProfileInput,
  now: Date,
): { events: NewEvent[]; changed: string[] } {
  const changes: CompanyProfileChanges = {};
  let sent = 0;
  for (const f of PROFILE_TEXT_FIELDS) {
    const v = input[f];
    if (v === undefined) continue;
    sent++;
    if (typeof v !== "string") throw new InvalidInput(`${f} must be a string`, f);
    const t = v.trim();
    if (t.length > MAX_TEXT_LENGTH)
      throw new InvalidInput(`${f} must be at most ${MAX_TEXT_LENGTH} characters`, f);
    const next = t === "" ? null : t;
    if (!same(st.profile[f], next)) changes[f] = next;
  }
  for (const f of PROFILE_LIST_FIELDS) {
    const v = input[f];
    if (v === undefined) continue;
    sent++;
    if (!Array.isArray(v)) throw new InvalidInput(`${f} must be a list of strings`, f);
    const list = normalizeList(v, f);
    const next = list.length ? list : null;
    if (!same(st.profile[f], next)) changes[f] = next;
  }
  if (sent === 0)
    throw new InvalidInput(
      `send at least one profile field: ${[...PROFILE_TEXT_FIELDS, ...PROFILE_LIST_FIELDS].join(", ")}`,
    );
  assertUnlocked(st, "company profile");
  const changed = Object.keys(changes);
  if (changed.length === 0) return { events: [], changed };
  return {
    events: [
      {
        type: "CompanyProfileUpdated",
        ...orgStream(st.orgId),
        data: { changes, updated_at: now.toISOString() },
      },
    ],
    changed,
  };
}

export const updateCompanyProfile: Command<ProfileInput, WorkspaceSettings, { changed: string[] }> = {
  load: (w, _input, c) => loadSettings(w.tx, c.orgId),
  decide: (st, input, { now }) => {
    const { events, changed } = decideUpdateProfile(st, input, now);
    return { events, result: { changed } };
  },
};

export function profileView(st: WorkspaceSettings) {
  const p = st.profile;
  return {
    name: st.name,
    ...(st.websiteUrl ? { website_url: st.websiteUrl } : {}),
    ...(p.description ? { description: p.description } : {}),
    ...(p.category ? { category: p.category } : {}),
    ...(p.target_customer ? { target_customer: p.target_customer } : {}),
    positioning: {
      value_propositions: p.value_propositions ?? [],
      differentiators: p.differentiators ?? [],
      exclusions: p.exclusions ?? [],
    },
    ideal_customer_profile: {
      industries: st.icp.industries ?? [],
      buyer_roles: st.icp.buyer_roles ?? [],
    },
    ...(st.profileUpdatedAt ? { profile_updated_at: st.profileUpdatedAt } : {}),
    ...(st.icpUpdatedAt ? { icp_updated_at: st.icpUpdatedAt } : {}),
    first_brief_running: st.firstBrief === "running",
  };
}
