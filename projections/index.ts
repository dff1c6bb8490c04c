import type { StoredEvent } from "../events/catalog.ts";
import type { Projector, Tx } from "../events/store.ts";
import { projectApiKeys } from "./apiKeys.ts";
import { projectBattlecards } from "./battlecards.ts";
import { projectCompetitors } from "./competitors.ts";
import { projectDigests } from "./digests.ts";
import { projectOAuthConsents } from "./oauthConsents.ts";
import { projectFreeBriefs } from "./freeBriefs.ts";
import { projectMembers } from "./members.ts";
import { projectOrgs } from "./orgs.ts";
import { projectSignals } from "./signals.ts";

const projectors: Projector[] = [
  projectOrgs,
  projectApiKeys,
  projectCompetitors,
  projectSignals,
  projectDigests,
  projectBattlecards,
  projectOAuthConsents,
  projectFreeBriefs,
  projectMembers,
];

/** Every read table that is a pure function of the log, emptied by a rebuild. */
export const READ_TABLES = [
  "orgs",
  "api_keys",
  "competitors",
  "signals",
  "signals_fts",
  "digests",
  "battlecards",
  "oauth_consents",
  "free_brief_requests",
  "users",
  "memberships",
  "invitations",
];

export async function projectAll(e: StoredEvent, tx: Tx): Promise<void> {
  for (const p of projectors) await p(e, tx);
}
