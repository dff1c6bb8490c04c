// The event catalog: every fact the system records, with its payload shape. Version 1 throughout;
// a changed payload gets a new type name or an upcaster here, never an edit in place.

import type {
  BattlecardEditedData,
  BattlecardProposalAcceptedData,
  BattlecardProposedData,
} from "../src/domain/battlecardProposals.ts";
import type { DeliveryRules } from "../src/domain/deliveryRules.ts";
import type { Evidence, ReadSources } from "../src/domain/observation.ts";
import type {
  BattlecardRecord,
  CompetitorRecord,
  DigestRecord,
  EvidenceItem,
  SignalRecord,
} from "../src/domain/records.ts";
import type { ResearchDossier, ResearchTrigger } from "../src/domain/researchTypes.ts";
import type { WebhookFilter } from "../src/domain/webhooks.ts";
import type { CompanyProfileChanges, GuideRecord, PublicBriefRecord } from "../src/domain/workspaceTypes.ts";

export interface EventPayloads {
  OrgCreated: {
    id: number;
    slug: string;
    name: string;
    plan: string;
    website_url?: string;
    created_at: string;
  };
  OrgPlanChanged: { plan: string };
  ApiKeyCreated: {
    id: number;
    name: string;
    prefix: string;
    token_hash: string;
    scopes: string[];
    created_at: string;
  };
  ApiKeyRevoked: { revoked_at: string };
  CompetitorRecorded: { id: number; key: string; record: CompetitorRecord };
  SignalRecorded: { id: number; key: string; competitor_id: number | null; record: SignalRecord };
  // Signals the engine detects (signal stream; projections/signals.ts, docs/engine.md "Classification and
  // signals"). `key` is the signals row's unique key, `dedup_key` the real-world event's identity.
  /** A new signal from classified changes, with the reasons for its severity and confidence. `value` is the
   * state it records (`before` → `after`, e.g. a plan's price) so a later change can revert or supersede it. */
  SignalDetected: {
    id: number;
    key: string;
    competitor_id: number;
    dedup_key: string;
    record: SignalRecord;
    severity_reasons: string[];
    confidence_reasons: string[];
    value?: { before: string | null; after: string | null };
    /** The named subject (feature, plan, integration …) later sources are matched on. */
    subject?: string;
    /** The signal this one replaced (closed by the same command with reason `superseded`). */
    supersedes?: number;
  };
  /** The same event seen again (another source, a later cycle): evidence appended, last_seen_at moved; a
   * corroborated or upgraded severity/confidence comes with its reasons. */
  SignalEvidenceAdded: {
    id: number;
    evidence: EvidenceItem[];
    last_seen_at: string;
    severity?: "low" | "medium" | "high";
    severity_reasons?: string[];
    confidence?: number;
    confidence_reasons?: string[];
  };
  /** An engine signal closed: its change was reverted, a newer change superseded it, or it went unseen for
   * RIVALS_SIGNAL_TTL_DAYS. `by` is the superseding signal; `evidence` what showed the revert. */
  SignalClosed: {
    id: number;
    closed_at: string;
    reason: "reverted" | "superseded" | "expired";
    by?: number;
    evidence?: EvidenceItem[];
  };
  /** `writer`: "deterministic", or "llm:<model>" when the language-model writer's TL;DR was used. */
  DigestRecorded: { id: number; key: string; signal_ids: number[]; record: DigestRecord; writer?: string };
  BattlecardRecorded: { id: number; key: string; competitor_id: number; record: BattlecardRecord };
  /** A member approved an OAuth client in this workspace for these scopes (all approved so far). */
  OAuthConsentGranted: { user_id: number; client_id: string; scopes: string[]; granted_at: string };
  /** The approval is forgotten (the app was disconnected, or the member left): the next request asks again. */
  OAuthConsentRevoked: {
    user_id: number;
    client_id: string;
    revoked_at: string;
    reason: "revoked" | "member_removed";
  };
  /** A visitor asked for a free brief on the public /free-brief form (no org). */
  FreeBriefRequested: {
    id: number;
    company_name?: string;
    website_url?: string;
    /** The company's domain, by which requests share one brief: the website's registrable domain (its host
     * name on requests from before subdomains counted as one company; absent on requests without a website). */
    domain?: string;
    /** The address the brief is emailed to once it confirms; absent when none was given or it is withheld. */
    email?: string;
    /** A confirmation email is to be sent to `email` (double opt-in); absent on older requests. */
    confirm?: boolean;
    /** Why the address given is not written to (FREE_BRIEF's limits): the thank-you page shows the brief. */
    email_withheld?: "company" | "recipient" | "network";
    /** SHA-256 digest of the requesting browser's token: only that browser sees the request's state. */
    viewer_digest?: string;
    /** SHA-256 digest of the client's network (an IPv4 address, an IPv6 /64), which its email limit counts. */
    network?: string;
    requested_at: string;
  };
  /** One try to send a request's confirmation email; a sent one carries its link token's digest and expiry. */
  FreeBriefConfirmationEmailed: {
    id: number;
    ok: boolean;
    at: string;
    error?: string;
    next_attempt_at?: string;
    gave_up?: boolean;
    confirm_digest?: string;
    expires_at?: string;
  };
  /** The requester followed the confirmation link: the answer may be emailed to the address. */
  FreeBriefConfirmed: { id: number; confirmed_at: string };
  /** A free-brief request answered: a brief researched for it (`published`), a brief of its domain from the
   * period already in the library (`existing`), or no brief and why (`failed`). */
  FreeBriefAnswered: {
    id: number;
    outcome: "published" | "existing" | "failed";
    brief_id?: number;
    reason?: string;
    answered_at: string;
  };
  /** One try to email a request's answer; `gave_up` after the last. */
  FreeBriefEmailed: {
    id: number;
    ok: boolean;
    at: string;
    error?: string;
    /** When the next try is due (a failed try that is not the last). */
    next_attempt_at?: string;
    gave_up?: boolean;
  };
  // People (docs/members.md). Users are global (no org); memberships and invitations belong to an org.
  UserRegistered: { id: number; email: string; name?: string; created_at: string };
  UserPasswordSet: { password_hash: string };
  UserNameChanged: { name: string };
  MembershipGranted: { user_id: number; role: "admin" | "member"; joined_at: string };
  MembershipRoleChanged: { user_id: number; role: "admin" | "member" };
  /** An admin removed the member from the workspace (their grants there are revoked with it). */
  MembershipRevoked: { user_id: number; revoked_at: string };
  InvitationCreated: {
    id: number;
    email: string;
    role: "member";
    token_hash: string;
    invited_by: string;
    created_at: string;
    expires_at: string;
  };
  InvitationRevoked: { revoked_at: string; reason: "replaced" | "revoked" | "delivery_failed" };
  InvitationAccepted: { user_id: number; accepted_at: string };
  // Workspace settings (org stream).
  CompanyProfileUpdated: { changes: CompanyProfileChanges; updated_at: string };
  IcpUpdated: { industries?: string[]; buyer_roles?: string[]; updated_at: string };
  MonitoringCadenceSet: { cadence: string };
  DeliveryChannelsSet: { email?: boolean; slack?: boolean; teams?: boolean };
  /** Which signals a channel gets from now on; null: every signal (deliveryRules.ts). */
  DeliveryRulesSet: { channel: "email" | "slack" | "teams"; rules: DeliveryRules | null };
  ChatConnected: { provider: string; webhook_url: string; connected_at: string };
  /** An admin removed the team-chat connection (the settings page): no chat messages until one is made again. */
  /** `provider` teams: the Microsoft Teams connection (absent: the Slack one). */
  ChatDisconnected: { disconnected_at: string; provider?: "teams" };
  FirstBriefStarted: { started_at: string };
  FirstBriefFinished: { finished_at: string };
  /** update_icp's re-read of one competitor's overlap with the ICP; null removes it. */
  CompetitorIcpOverlapComputed: { id: number; icp_overlap: Record<string, unknown> | null };
  // The public library (no org).
  /** `held`: a free brief written while RIVALS_FREE_BRIEF_REVIEW holds new briefs; not served publicly until
   * an operator publishes it (PublicBriefReviewed). */
  PublicBriefRecorded: {
    id: number;
    company_slug: string;
    slug: string;
    record: PublicBriefRecord;
    held?: boolean;
  };
  /** An operator's review of a held brief: published (served publicly from now on) or rejected (never). */
  PublicBriefReviewed: { id: number; decision: "published" | "rejected"; reviewed_at: string };
  GuideRecorded: { id: number; slug: string; record: GuideRecord };
  // The core watchlist (competitor stream; projections/watchlist.ts).
  /** add_competitor: a new competitor on the core watchlist. */
  CompetitorAdded: { id: number; key: string; name: string; website_url: string; added_at: string };
  CompetitorRenamed: { id: number; name: string };
  /** remove_competitor: off the watchlist (tracking removed), history kept. */
  CompetitorRemoved: { id: number; removed_at: string };
  /** add_competitor of a known website: the old record is back on the core watchlist, tracking active. */
  CompetitorRestored: { id: number; restored_at: string };
  MonitoredPageAdded: {
    id: number;
    competitor_id: number;
    url: string;
    url_key: string;
    added_at: string;
    /** Read in the browser whatever its served HTML looks like. */
    render?: boolean;
  };
  MonitoredPageRemoved: { id: number; competitor_id: number; removed_at: string };
  // The team's engagement (subject's stream; projections/engagement.ts). `actor` is the caller's reference.
  SignalPinSet: { signal_id: number; pinned: boolean; actor: string; at: string };
  SignalSaveSet: { signal_id: number; saved: boolean; actor: string; at: string };
  SignalNoteAdded: {
    id: number;
    signal_id: number;
    body: string;
    author: string;
    author_name?: string;
    at: string;
  };
  SignalRated: {
    signal_id: number;
    actor: string;
    useful: boolean;
    reasons?: string[];
    comment?: string;
    at: string;
  };
  DigestPinSet: { digest_id: number; pinned: boolean; actor: string; at: string };
  DigestNoteAdded: {
    id: number;
    digest_id: number;
    body: string;
    author: string;
    author_name?: string;
    at: string;
  };
  DigestRated: { digest_id: number; actor: string; score?: number; missing?: string; at: string };
  /** Team knowledge for a competitor's next battlecard rewrite (competitor stream). */
  BattlecardNoteAdded: {
    id: number;
    competitor_id: number;
    body: string;
    author: string;
    author_name?: string;
    at: string;
  };
  /** create_share_link: the signal's public link; replaces any earlier one. Only the token's SHA-256. */
  ShareLinkCreated: {
    id: number;
    signal_id: number;
    token_hash: string;
    include_notes: boolean;
    expires_at: string;
    created_at: string;
    created_by: string;
  };
  /** generate_battlecard wrote or rewrote a battlecard (battlecard stream); counts toward the daily cap. */
  /** `trigger: "cycle"`: rewritten by a monitoring cycle (outside the daily cap); absent: generate_battlecard. */
  BattlecardGenerated: {
    id: number;
    key: string;
    competitor_id: number;
    record: BattlecardRecord;
    trigger?: "cycle";
    cycle_id?: number;
  };
  /** After a cycle, what the engine would change on a card that exists (battlecard stream); replaces any
   * pending proposal. The card itself is unchanged until a member accepts. */
  BattlecardProposed: BattlecardProposedData;
  /** A member accepted the pending proposal: the card becomes the proposal's (battlecard stream). */
  BattlecardProposalAccepted: BattlecardProposalAcceptedData;
  /** A member dismissed the pending proposal: the card stays as it was (battlecard stream). `kept`: the team's
   * lines whose drop was dismissed, with the fact behind it (the same fact proposes it no more). */
  BattlecardProposalDismissed: {
    id: number;
    competitor_id: number;
    proposed_at: string;
    kept?: { section: string; text: string; because: string }[];
  };
  /** A member edited the card on its page: the sections sent are the team's words from now on (battlecard
   * stream); a pending proposal is dropped. */
  BattlecardEdited: BattlecardEditedData;
  // Research (competitor stream; projections/research.ts). `batch` is the id of the first run one call started.
  /** A research run of one competitor began; `uses_allowance` when it counts toward the weekly allowance. */
  ResearchStarted: {
    run_id: number;
    competitor_id: number;
    batch: number;
    trigger: ResearchTrigger;
    uses_allowance: boolean;
    first_brief: boolean;
    website_url: string;
    started_at: string;
  };
  /** The run ended with a dossier: profile fields, urls and reads stated by the sources, and what to watch. */
  ResearchFinished: { run_id: number; competitor_id: number; finished_at: string; dossier: ResearchDossier };
  /** The run ended without a dossier (site unreachable, interrupted by a stop …); nothing of it is stored. */
  ResearchFailed: { run_id: number; competitor_id: number; failed_at: string; code: string; reason: string };
  // Monitoring cycles (docs/engine.md "Cycles and scheduling"): one CompetitorChecked per competitor and cycle on
  // the competitor stream (its freshness). CycleStarted / CycleFinished (org stream) are no longer appended — the
  // cycle's record lives outside the log (src/engine/cycle/record.ts) — but older logs have them.
  /** A monitoring cycle began: the scheduler's (with its due slot), an operator's or the app's. */
  CycleStarted: {
    cycle_id: number;
    trigger: string;
    started_at: string;
    slot?: string;
    competitor_id?: number;
  };
  /** The cycle ended; `summary` is what `rivals cycle` prints (pages_checked, signals_created …). */
  CycleFinished: { cycle_id: number; finished_at: string; summary: Record<string, unknown> };
  /** One competitor's sources were checked in a cycle: how many, how many changed or failed, and the sources
   * failing now (failed checks in a row, the last error). */
  CompetitorChecked: {
    competitor_id: number;
    cycle_id: number;
    checked_at: string;
    sources: number;
    changed: number;
    failed: number;
    failing?: { url: string; kind: string; error: string; failures: number; since: string }[];
    /** The careers page names another job board than the one watched (or a first one): the source checked from
     * this cycle on, and the one it replaces. */
    job_board?: { url: string; kind: string; replaces?: string };
  };
  /** A cycle's changed sources, read as research reads them, changed the competitor's reads (domains replaced
   * or `removed`; `read_sources`: what each page names now, internal), or the cycle saw its signals. */
  CompetitorObserved: {
    competitor_id: number;
    observed_at: string;
    reads?: Record<string, unknown>;
    removed?: string[];
    read_sources?: ReadSources;
    /** Company facts the changed pages state now (replaced), no longer state (`profile_removed`), and where
     * each fact was read (`profile_evidence`, internal). */
    profile?: Record<string, unknown>;
    profile_removed?: string[];
    profile_evidence?: Record<string, Evidence>;
    last_signal_at?: string;
  };
  /** draft_positioning filled empty positioning fields of the workspace's profile from its own website. */
  PositioningDrafted: { changes: CompanyProfileChanges; source_url: string; drafted_at: string };
  // Delivery of a finished cycle (docs/engine.md "Delivery"): the outbox. One DeliveryQueued per cycle, channel
  // and recipient (unique), then one DeliveryAttempted per try on the delivery stream.
  DeliveryQueued: {
    id: number;
    cycle_id: number;
    channel: "email" | "slack" | "teams";
    /** An admin's email address, or `webhook` for team chat. */
    recipient: string;
    signal_ids: number[];
    queued_at: string;
  };
  DeliveryAttempted: {
    id: number;
    attempt: number;
    ok: boolean;
    at: string;
    error?: string;
    /** When the next try is due; absent when it succeeded or gave up. */
    next_attempt_at?: string;
    gave_up?: boolean;
  };
  // Webhook endpoints (webhook stream; projections/webhooks.ts, docs/webhooks.md). `secret` signs messages
  // (Standard Webhooks): it is kept to sign with, shown once when added, and never listed.
  WebhookAdded: {
    id: number;
    url: string;
    event_types: string[];
    filter?: WebhookFilter;
    secret: string;
    secret_hint: string;
    /** The log's last position when it was added: the endpoint gets the events after it. */
    after_position: number;
    created_at: string;
  };
  WebhookRemoved: { id: number; removed_at: string };
  /** The endpoint's rules from now on (its filter); null: every event of its types. */
  WebhookFilterSet: { id: number; filter: WebhookFilter | null };
  /** Its oldest waiting message failed for a day: nothing more is sent until an admin enables it again. */
  WebhookDisabled: { id: number; disabled_at: string; reason: string };
  WebhookEnabled: { id: number; enabled_at: string };
  /** One message for one endpoint: `body` is exactly what is sent (and signed), on every try. */
  WebhookMessageQueued: {
    id: number;
    webhook_id: number;
    msg_id: string;
    type: string;
    body: string;
    queued_at: string;
  };
  /** An Atom feed of the workspace's signals (or one competitor's) at a secret URL; only its token's digest. */
  FeedCreated: {
    id: number;
    token_hash: string;
    competitor_id?: number;
    created_by: string;
    created_at: string;
  };
  FeedRevoked: { id: number; revoked_at: string };
  WebhookAttempted: {
    id: number;
    webhook_id: number;
    attempt: number;
    ok: boolean;
    at: string;
    status?: number;
    error?: string;
    next_attempt_at?: string;
    gave_up?: boolean;
  };
}

export type EventType = keyof EventPayloads;
export const eventTypes = [
  "OrgCreated",
  "OrgPlanChanged",
  "ApiKeyCreated",
  "ApiKeyRevoked",
  "CompetitorRecorded",
  "SignalRecorded",
  "SignalDetected",
  "SignalEvidenceAdded",
  "SignalClosed",
  "DigestRecorded",
  "BattlecardRecorded",
  "OAuthConsentGranted",
  "OAuthConsentRevoked",
  "FreeBriefRequested",
  "FreeBriefAnswered",
  "FreeBriefEmailed",
  "FreeBriefConfirmationEmailed",
  "FreeBriefConfirmed",
  "UserRegistered",
  "UserPasswordSet",
  "UserNameChanged",
  "MembershipGranted",
  "MembershipRoleChanged",
  "MembershipRevoked",
  "InvitationCreated",
  "InvitationRevoked",
  "InvitationAccepted",
  "CompanyProfileUpdated",
  "IcpUpdated",
  "MonitoringCadenceSet",
  "DeliveryChannelsSet",
  "DeliveryRulesSet",
  "ChatConnected",
  "ChatDisconnected",
  "FirstBriefStarted",
  "FirstBriefFinished",
  "CompetitorIcpOverlapComputed",
  "PublicBriefRecorded",
  "PublicBriefReviewed",
  "GuideRecorded",
  "CompetitorAdded",
  "CompetitorRenamed",
  "CompetitorRemoved",
  "CompetitorRestored",
  "MonitoredPageAdded",
  "MonitoredPageRemoved",
  "SignalPinSet",
  "SignalSaveSet",
  "SignalNoteAdded",
  "SignalRated",
  "DigestPinSet",
  "DigestNoteAdded",
  "DigestRated",
  "BattlecardNoteAdded",
  "ShareLinkCreated",
  "BattlecardGenerated",
  "BattlecardProposed",
  "BattlecardProposalAccepted",
  "BattlecardProposalDismissed",
  "BattlecardEdited",
  "ResearchStarted",
  "ResearchFinished",
  "ResearchFailed",
  "PositioningDrafted",
  "CycleStarted",
  "CycleFinished",
  "CompetitorChecked",
  "CompetitorObserved",
  "DeliveryQueued",
  "DeliveryAttempted",
  "WebhookAdded",
  "WebhookRemoved",
  "WebhookFilterSet",
  "WebhookDisabled",
  "WebhookEnabled",
  "WebhookMessageQueued",
  "WebhookAttempted",
  "FeedCreated",
  "FeedRevoked",
] as const satisfies readonly EventType[];

export type StreamType =
  | "org"
  | "api_key"
  | "competitor"
  | "signal"
  | "digest"
  | "battlecard"
  | "oauth_consent"
  | "free_brief"
  | "public_brief"
  | "guide"
  | "user"
  | "membership"
  | "invitation"
  | "delivery"
  | "webhook"
  | "feed";

export interface EventMetadata {
  actor?: string;
  request_id?: string;
  idempotency_key?: string;
  source?: string;
}

/** An event as a decider emits it. */
export type NewEvent = {
  [K in EventType]: {
    type: K;
    orgId: number | null;
    streamType: StreamType;
    streamId: string;
    data: EventPayloads[K];
    /** When and by whom it was first recorded, for an event replayed from an export: kept instead of the
     * replaying command's own time and metadata, so a restored log reads as the original did. */
    origin?: { recordedAt?: string; metadata?: EventMetadata };
  };
}[EventType];

/** An event as the log holds it. */
export type StoredEvent = NewEvent & {
  position: number;
  streamVersion: number;
  metadata: EventMetadata;
  recordedAt: string;
};

export function isEventType(t: unknown): t is EventType {
  return typeof t === "string" && (eventTypes as readonly string[]).includes(t);
}
