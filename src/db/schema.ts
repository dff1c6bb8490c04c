// Drizzle description of every table (the SQL of record is in migrations/; test/db/schema.test.ts holds the
// two together): here the event log and the read tables projected from it, and, re-exported, the operational
// tables (operationalSchema.ts). The full-text indexes (signals_fts, guides_fts) are virtual tables drizzle does
// not describe.
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export * from "./operationalSchema.ts";

export const orgs = sqliteTable("orgs", {
  id: integer("id").primaryKey(),
  slug: text("slug").notNull(),
  name: text("name").notNull(),
  websiteUrl: text("website_url"),
  plan: text("plan").notNull(),
  createdAt: text("created_at").notNull(),
  state: text("state").notNull(),
});

export const apiKeys = sqliteTable("api_keys", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  name: text("name").notNull(),
  prefix: text("prefix").notNull(),
  tokenHash: text("token_hash").notNull(),
  scopes: text("scopes").notNull(),
  createdAt: text("created_at").notNull(),
  revokedAt: text("revoked_at"),
});

export const apiKeyUsage = sqliteTable("api_key_usage", {
  keyId: integer("key_id").primaryKey(),
  lastUsedAt: text("last_used_at").notNull(),
});

export const competitors = sqliteTable("competitors", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  key: text("key").notNull(),
  name: text("name").notNull(),
  websiteUrl: text("website_url"),
  watch: text("watch").notNull(),
  tracking: text("tracking").notNull(),
  listed: integer("listed").notNull(),
  prioritySort: integer("priority_sort").notNull(),
  trackedSort: text("tracked_sort").notNull(),
  battlecardId: integer("battlecard_id"),
  state: text("state").notNull(),
  summaryDoc: text("summary_doc").notNull(),
  detailDoc: text("detail_doc").notNull(),
});

export const signals = sqliteTable("signals", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  key: text("key").notNull(),
  competitorId: integer("competitor_id"),
  competitorName: text("competitor_name"),
  status: text("status").notNull(),
  severity: text("severity"),
  firstSeenAt: text("first_seen_at"),
  visible: integer("visible").notNull(),
  listed: integer("listed").notNull(),
  title: text("title").notNull(),
  summary: text("summary"),
  state: text("state").notNull(),
  doc: text("doc").notNull(),
});

export const digests = sqliteTable("digests", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  key: text("key").notNull(),
  slug: text("slug"),
  type: text("type").notNull(),
  status: text("status").notNull(),
  listed: integer("listed").notNull(),
  periodSort: text("period_sort").notNull(),
  generatedAt: text("generated_at"),
  state: text("state").notNull(),
  listDoc: text("list_doc").notNull(),
  doc: text("doc").notNull(),
});

export const battlecards = sqliteTable("battlecards", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  key: text("key").notNull(),
  competitorId: integer("competitor_id").notNull(),
  competitorName: text("competitor_name"),
  status: text("status").notNull(),
  visible: integer("visible").notNull(),
  listed: integer("listed").notNull(),
  generatedAt: text("generated_at"),
  state: text("state").notNull(),
  doc: text("doc").notNull(),
});

// ---- the read tables, projected from the event log (projections/) ----

export const battlecardGenerations = sqliteTable("battlecard_generations", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  competitorId: integer("competitor_id").notNull(),
  generatedAt: text("generated_at").notNull(),
});

export const cycles = sqliteTable("cycles", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  trigger: text("trigger").notNull(),
  slot: text("slot"),
  competitorId: integer("competitor_id"),
  startedAt: text("started_at").notNull(),
  finishedAt: text("finished_at"),
  summary: text("summary"),
  holder: text("holder"),
  expiresAt: text("expires_at"),
  abandonedAt: text("abandoned_at"),
});

export const deliveries = sqliteTable("deliveries", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  cycleId: integer("cycle_id").notNull(),
  channel: text("channel").notNull(),
  recipient: text("recipient").notNull(),
  signalIds: text("signal_ids").notNull(),
  state: text("state").notNull(),
  attempts: integer("attempts").notNull(),
  nextAttemptAt: text("next_attempt_at"),
  lastError: text("last_error"),
  lastAttemptAt: text("last_attempt_at"),
  queuedAt: text("queued_at").notNull(),
  sentAt: text("sent_at"),
});

export const engineSignals = sqliteTable("engine_signals", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  competitorId: integer("competitor_id").notNull(),
  dedupKey: text("dedup_key").notNull(),
  category: text("category").notNull(),
  type: text("type").notNull(),
  status: text("status").notNull(),
  subject: text("subject"),
  valueBefore: text("value_before"),
  valueAfter: text("value_after"),
  evidenceCount: integer("evidence_count").notNull(),
  firstSeenAt: text("first_seen_at").notNull(),
  lastSeenAt: text("last_seen_at").notNull(),
  closedAt: text("closed_at"),
  closedReason: text("closed_reason"),
});

export const feeds = sqliteTable("feeds", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  tokenHash: text("token_hash").notNull(),
  competitorId: integer("competitor_id"),
  createdBy: text("created_by").notNull(),
  createdAt: text("created_at").notNull(),
  revokedAt: text("revoked_at"),
});

export const freeBriefRequests = sqliteTable("free_brief_requests", {
  id: integer("id").primaryKey(),
  companyName: text("company_name"),
  websiteUrl: text("website_url"),
  email: text("email").notNull(),
  requestedAt: text("requested_at").notNull(),
  domain: text("domain"),
  state: text("state").notNull(),
  briefId: integer("brief_id"),
  reason: text("reason"),
  answeredAt: text("answered_at"),
  emailState: text("email_state").notNull(),
  emailAttempts: integer("email_attempts").notNull(),
  emailError: text("email_error"),
  emailNextAt: text("email_next_at"),
  viewerDigest: text("viewer_digest"),
  network: text("network"),
  emailWithheld: text("email_withheld"),
  confirmState: text("confirm_state").notNull(),
  confirmAttempts: integer("confirm_attempts").notNull(),
  confirmNextAt: text("confirm_next_at"),
  confirmError: text("confirm_error"),
  confirmDigest: text("confirm_digest"),
  confirmExpiresAt: text("confirm_expires_at"),
  confirmedAt: text("confirmed_at"),
});

export const guides = sqliteTable("guides", {
  id: integer("id").primaryKey(),
  slug: text("slug").notNull(),
  title: text("title").notNull(),
  publishedAt: text("published_at").notNull(),
  state: text("state").notNull(),
});

export const icpUpdates = sqliteTable("icp_updates", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const invitations = sqliteTable("invitations", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  email: text("email").notNull(),
  role: text("role").notNull(),
  tokenHash: text("token_hash").notNull(),
  invitedBy: text("invited_by"),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  status: text("status").notNull(),
  acceptedAt: text("accepted_at"),
  userId: integer("user_id"),
});

export const memberships = sqliteTable(
  "memberships",
  {
    orgId: integer("org_id").notNull(),
    userId: integer("user_id").notNull(),
    role: text("role").notNull(),
    joinedAt: text("joined_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] })],
);

export const monitoredPages = sqliteTable("monitored_pages", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  competitorId: integer("competitor_id").notNull(),
  url: text("url").notNull(),
  urlKey: text("url_key").notNull(),
  addedAt: text("added_at").notNull(),
  render: integer("render").notNull(),
});

export const noteCounts = sqliteTable(
  "note_counts",
  {
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    orgId: integer("org_id").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.subjectType, t.subjectId] })],
);

export const notes = sqliteTable("notes", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  subjectType: text("subject_type").notNull(),
  subjectId: integer("subject_id").notNull(),
  body: text("body").notNull(),
  author: text("author").notNull(),
  authorName: text("author_name"),
  createdAt: text("created_at").notNull(),
});

export const oauthConsents = sqliteTable(
  "oauth_consents",
  {
    userId: integer("user_id").notNull(),
    orgId: integer("org_id").notNull(),
    clientId: text("client_id").notNull(),
    scopes: text("scopes").notNull(),
    grantedAt: text("granted_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.clientId, t.orgId] })],
);

export const pins = sqliteTable(
  "pins",
  {
    orgId: integer("org_id").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    pinnedBy: text("pinned_by").notNull(),
    pinnedAt: text("pinned_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.subjectType, t.subjectId] })],
);

export const positioningDrafts = sqliteTable("positioning_drafts", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  draftedAt: text("drafted_at").notNull(),
});

export const publicBriefs = sqliteTable("public_briefs", {
  id: integer("id").primaryKey(),
  companySlug: text("company_slug").notNull(),
  slug: text("slug").notNull(),
  companyName: text("company_name").notNull(),
  companyNameLc: text("company_name_lc").notNull(),
  domain: text("domain"),
  publishedAt: text("published_at").notNull(),
  searchText: text("search_text").notNull(),
  state: text("state").notNull(),
  review: text("review").notNull(),
});

export const ratings = sqliteTable(
  "ratings",
  {
    orgId: integer("org_id").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    actor: text("actor").notNull(),
    useful: integer("useful"),
    reasons: text("reasons"),
    comment: text("comment"),
    score: integer("score"),
    missing: text("missing"),
    ratedAt: text("rated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.subjectType, t.subjectId, t.actor] })],
);

export const researchRuns = sqliteTable("research_runs", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  competitorId: integer("competitor_id").notNull(),
  batch: integer("batch").notNull(),
  trigger: text("trigger").notNull(),
  usesAllowance: integer("uses_allowance").notNull(),
  firstBrief: integer("first_brief").notNull(),
  state: text("state").notNull(),
  startedAt: text("started_at").notNull(),
  endedAt: text("ended_at"),
  error: text("error"),
});

export const researchSources = sqliteTable(
  "research_sources",
  {
    orgId: integer("org_id").notNull(),
    competitorId: integer("competitor_id").notNull(),
    url: text("url").notNull(),
    kind: text("kind").notNull(),
    discoveredAt: text("discovered_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.competitorId, t.url] })],
);

export const savedSignals = sqliteTable(
  "saved_signals",
  {
    orgId: integer("org_id").notNull(),
    actor: text("actor").notNull(),
    signalId: integer("signal_id").notNull(),
    savedAt: text("saved_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.actor, t.signalId] })],
);

export const shareLinks = sqliteTable("share_links", {
  signalId: integer("signal_id").primaryKey(),
  id: integer("id").notNull(),
  orgId: integer("org_id").notNull(),
  tokenHash: text("token_hash").notNull(),
  includeNotes: integer("include_notes").notNull(),
  expiresAt: text("expires_at").notNull(),
  createdAt: text("created_at").notNull(),
  createdBy: text("created_by").notNull(),
});

export const users = sqliteTable("users", {
  id: integer("id").primaryKey(),
  email: text("email").notNull(),
  name: text("name"),
  passwordHash: text("password_hash"),
  createdAt: text("created_at").notNull(),
});

export const webhookMessages = sqliteTable("webhook_messages", {
  id: integer("id").primaryKey(),
  seq: integer("seq").notNull(),
  orgId: integer("org_id").notNull(),
  webhookId: integer("webhook_id").notNull(),
  msgId: text("msg_id").notNull(),
  type: text("type").notNull(),
  body: text("body").notNull(),
  state: text("state").notNull(),
  attempts: integer("attempts").notNull(),
  nextAttemptAt: text("next_attempt_at"),
  lastStatus: integer("last_status"),
  lastError: text("last_error"),
  lastAttemptAt: text("last_attempt_at"),
  queuedAt: text("queued_at").notNull(),
  sentAt: text("sent_at"),
});

export const webhooks = sqliteTable("webhooks", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  url: text("url").notNull(),
  eventTypes: text("event_types").notNull(),
  filter: text("filter"),
  secret: text("secret").notNull(),
  secretHint: text("secret_hint").notNull(),
  afterPosition: integer("after_position").notNull(),
  state: text("state").notNull(),
  disabledAt: text("disabled_at"),
  disabledReason: text("disabled_reason"),
  createdAt: text("created_at").notNull(),
  removedAt: text("removed_at"),
});

export const workspaceSettings = sqliteTable("workspace_settings", {
  id: integer("id").primaryKey(),
  profile: text("profile").notNull(),
  profileUpdatedAt: text("profile_updated_at"),
  icp: text("icp").notNull(),
  icpUpdatedAt: text("icp_updated_at"),
  cadence: text("cadence"),
  emailDelivery: integer("email_delivery"),
  slackDelivery: integer("slack_delivery"),
  chatWebhookUrl: text("chat_webhook_url"),
  chatConnectedAt: text("chat_connected_at"),
  firstBrief: text("first_brief"),
  teamsWebhookUrl: text("teams_webhook_url"),
  teamsConnectedAt: text("teams_connected_at"),
  teamsDelivery: integer("teams_delivery"),
  deliveryRules: text("delivery_rules"),
});

// ---- the event log (events/store.ts): events, the id counter, the committed changes' counter ----

export const dataChanges = sqliteTable("data_changes", {
  id: integer("id").primaryKey(),
  n: integer("n").notNull(),
});

export const events = sqliteTable("events", {
  position: integer("position").primaryKey(),
  orgId: integer("org_id"),
  streamType: text("stream_type").notNull(),
  streamId: text("stream_id").notNull(),
  streamVersion: integer("stream_version").notNull(),
  type: text("type").notNull(),
  data: text("data").notNull(),
  metadata: text("metadata").notNull(),
  recordedAt: text("recorded_at").notNull(),
});

export const idCounter = sqliteTable("id_counter", {
  name: text("name").primaryKey(),
  value: integer("value").notNull(),
});
