import type { StoredEvent } from "../events/catalog.ts";
import type { Projector, Tx } from "../events/store.ts";
import { projectApiKeys } from "./apiKeys.ts";
import { projectBattlecards } from "./battlecards.ts";
import { projectCompetitors } from "./competitors.ts";
import { projectCycles } from "./cycles.ts";
import { projectDeliveries } from "./deliveries.ts";
import { projectDigests } from "./digests.ts";
import { projectEngagement } from "./engagement.ts";
import { projectFeeds } from "./feeds.ts";
import { projectFreeBriefs } from "./freeBriefs.ts";
import { projectMembers } from "./members.ts";
import { projectOAuthConsents } from "./oauthConsents.ts";
import { projectObservations } from "./observations.ts";
import { projectOrgs } from "./orgs.ts";
import { projectPublicLibrary } from "./publicLibrary.ts";
import { projectResearch } from "./research.ts";
import { projectSignals } from "./signals.ts";
import { projectWatchlist } from "./watchlist.ts";
import { projectWebhooks } from "./webhooks.ts";
import { projectWorkspace } from "./workspace.ts";

const projectors: Projector[] = [
  projectOrgs,
  projectApiKeys,
  projectCompetitors,
  projectSignals,
  projectDigests,
  projectBattlecards,
  projectWatchlist,
  projectEngagement,
  projectOAuthConsents,
  projectFreeBriefs,
  projectMembers,
  projectWorkspace,
  projectPublicLibrary,
  projectResearch,
  projectCycles,
  projectObservations,
  projectDeliveries,
  projectWebhooks,
  projectFeeds,
];

/** Every read table that is a pure function of the log, emptied by a rebuild. */
export const READ_TABLES = [
  "orgs",
  "api_keys",
  "competitors",
  "signals",
  "signals_fts",
  "engine_signals",
  "digests",
  "battlecards",
  "monitored_pages",
  "pins",
  "saved_signals",
  "notes",
  "note_counts",
  "ratings",
  "share_links",
  "battlecard_generations",
  "oauth_consents",
  "free_brief_requests",
  "users",
  "memberships",
  "invitations",
  "workspace_settings",
  "icp_updates",
  "public_briefs",
  "guides",
  "guides_fts",
  "research_runs",
  "research_sources",
  "positioning_drafts",
  "deliveries",
  "webhooks",
  "webhook_messages",
  "feeds",
];

export async function projectAll(e: StoredEvent, tx: Tx): Promise<void> {
  for (const p of projectors) await p(e, tx);
}
