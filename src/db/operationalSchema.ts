// Drizzle description of the operational tables: leases, claims, caches, the snapshot store, sign-in and OAuth
// working state. They are written where the work happens (src/db, the engine, sign-in, OAuth), not projected
// from the event log. The SQL of record is in migrations/; test/db/schema.test.ts holds the two together.
import { blob, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The web-archive history reader: captures found per page. */
export const archiveCaptures = sqliteTable(
  "archive_captures",
  {
    orgId: integer("org_id").notNull(),
    competitorId: integer("competitor_id").notNull(),
    url: text("url").notNull(),
    timestamp: text("timestamp").notNull(),
    state: text("state").notNull(),
    error: text("error"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.competitorId, t.url, t.timestamp] })],
);

/** The web-archive history reader: pages whose history is read. */
export const archivePages = sqliteTable(
  "archive_pages",
  {
    orgId: integer("org_id").notNull(),
    competitorId: integer("competitor_id").notNull(),
    url: text("url").notNull(),
    kind: text("kind").notNull(),
    listedAt: text("listed_at"),
    listError: text("list_error"),
    endedAt: text("ended_at"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.competitorId, t.url] })],
);

/** The web-archive history reader: one run per competitor. */
export const archiveRuns = sqliteTable(
  "archive_runs",
  {
    orgId: integer("org_id").notNull(),
    competitorId: integer("competitor_id").notNull(),
    state: text("state").notNull(),
    months: integer("months").notNull(),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
    holder: text("holder"),
    expiresAt: text("expires_at"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.competitorId] })],
);

/** The signals the web-archive history found. */
export const archiveSignals = sqliteTable(
  "archive_signals",
  {
    orgId: integer("org_id").notNull(),
    competitorId: integer("competitor_id").notNull(),
    signalId: integer("signal_id").notNull(),
    foundAt: text("found_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.signalId] })],
);

/** Competitors' site icons, fetched by research. */
export const competitorIcons = sqliteTable(
  "competitor_icons",
  {
    orgId: integer("org_id").notNull(),
    competitorId: integer("competitor_id").notNull(),
    contentType: text("content_type").notNull(),
    data: blob("data", { mode: "buffer" }).notNull(),
    sourceUrl: text("source_url").notNull(),
    fetchedAt: text("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.competitorId] })],
);

/** Which instance runs a workspace's cycle (a lease). */
export const cycleLeases = sqliteTable(
  "cycle_leases",
  {
    orgId: integer("org_id").notNull(),
    slot: text("slot").notNull(),
    holder: text("holder").notNull(),
    claimedAt: text("claimed_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    finishedAt: text("finished_at"),
    cycleId: integer("cycle_id"),
    takeovers: integer("takeovers").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.slot] })],
);

/** A shared cycle's competitors, claimed by instances. */
export const cycleShares = sqliteTable(
  "cycle_shares",
  {
    cycleId: integer("cycle_id").notNull(),
    competitorId: integer("competitor_id").notNull(),
    orgId: integer("org_id").notNull(),
    position: integer("position").notNull(),
    holder: text("holder"),
    expiresAt: text("expires_at"),
    claims: integer("claims").notNull(),
    doneAt: text("done_at"),
    result: text("result"),
  },
  (t) => [primaryKey({ columns: [t.cycleId, t.competitorId] })],
);

/** The outbox: which instance sends a delivery (claims). */
export const deliveryClaims = sqliteTable("delivery_claims", {
  deliveryId: integer("delivery_id").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: text("expires_at").notNull(),
});

/** The demo's embedded sites and their version. */
export const demoSites = sqliteTable("demo_sites", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
  advancedAt: text("advanced_at"),
  advanceQueuedAt: text("advance_queued_at"),
});

/** Which instance answers a free-brief request (claims). */
export const freeBriefClaims = sqliteTable("free_brief_claims", {
  key: text("key").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: text("expires_at").notNull(),
});

/** Which instance runs a maintenance task (compaction) for this period (claims). */
export const maintenanceClaims = sqliteTable("maintenance_claims", {
  task: text("task").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: text("expires_at").notNull(),
});

/** Tool calls' idempotency claims and results. */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    orgId: integer("org_id").notNull(),
    tool: text("tool").notNull(),
    key: text("key").notNull(),
    argsHash: text("args_hash").notNull(),
    result: text("result").notNull(),
    createdAt: text("created_at").notNull(),
    completed: integer("completed").notNull(),
    owner: text("owner"),
    leaseUntil: text("lease_until"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.tool, t.key] })],
);

/** Settings of this installation (the link base). */
export const instanceSettings = sqliteTable("instance_settings", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** Registered OAuth clients. */
export const oauthClients = sqliteTable("oauth_clients", {
  clientId: text("client_id").primaryKey(),
  secretHash: text("secret_hash"),
  metadata: text("metadata").notNull(),
  createdAt: text("created_at").notNull(),
});

/** OAuth authorization codes. */
export const oauthCodes = sqliteTable("oauth_codes", {
  codeHash: text("code_hash").primaryKey(),
  familyId: text("family_id").notNull(),
  clientId: text("client_id").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  expiresAt: text("expires_at").notNull(),
  usedAt: text("used_at"),
});

/** OAuth refresh-token families. */
export const oauthFamilies = sqliteTable("oauth_families", {
  id: text("id").primaryKey(),
  clientId: text("client_id").notNull(),
  userId: integer("user_id").notNull(),
  orgId: integer("org_id").notNull(),
  scopes: text("scopes").notNull(),
  resource: text("resource").notNull(),
  createdAt: text("created_at").notNull(),
  revokedAt: text("revoked_at"),
  revokedReason: text("revoked_reason"),
  lastUsedAt: text("last_used_at"),
});

/** OAuth access and refresh tokens (digests). */
export const oauthTokens = sqliteTable("oauth_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  kind: text("kind").notNull(),
  familyId: text("family_id").notNull(),
  scopes: text("scopes").notNull(),
  expiresAt: text("expires_at").notNull(),
  createdAt: text("created_at").notNull(),
  rotatedAt: text("rotated_at"),
  revokedAt: text("revoked_at"),
});

/** Shared rate limits' leases. */
export const rateSlices = sqliteTable(
  "rate_slices",
  {
    name: text("name").notNull(),
    key: text("key").notNull(),
    slice: integer("slice").notNull(),
    taken: integer("taken").notNull(),
    granted: integer("granted").notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.key, t.slice] })],
);

/** Which instance runs a research (a lease). */
export const researchLeases = sqliteTable("research_leases", {
  runId: integer("run_id").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: text("expires_at").notNull(),
});

/** Robots.txt answers, cached. */
export const robotsCache = sqliteTable("robots_cache", {
  origin: text("origin").primaryKey(),
  outcome: text("outcome").notNull(),
  text: text("text").notNull(),
  fetchedAt: text("fetched_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

/** Turns at a host across instances on one libSQL server: when its next request may start. */
export const hostTurns = sqliteTable("host_turns", {
  host: text("host").primaryKey(),
  nextAt: integer("next_at").notNull(),
});

/** The migrations applied. */
export const schemaMigrations = sqliteTable("schema_migrations", {
  id: text("id").primaryKey(),
  appliedAt: text("applied_at").notNull(),
});

/** Sign-in sessions (digests). */
export const sessions = sqliteTable("sessions", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id").notNull(),
  csrfToken: text("csrf_token").notNull(),
  createdAt: text("created_at").notNull(),
  lastSeenAt: text("last_seen_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  via: text("via").notNull(),
});

/** Sign-in throttles' failures. */
export const signinFailures = sqliteTable(
  "signin_failures",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    failures: integer("failures").notNull(),
    lastFailure: integer("last_failure").notNull(),
    lockedUntil: integer("locked_until").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

/** The snapshot store: bodies by digest. */
export const snapshotBlobs = sqliteTable("snapshot_blobs", {
  hash: text("hash").primaryKey(),
  codec: text("codec").notNull(),
  size: integer("size").notNull(),
  data: blob("data", { mode: "buffer" }).notNull(),
  seen: blob("seen", { mode: "buffer" }),
});

/** The snapshot store: each watched source and its newest state. */
export const snapshotSources = sqliteTable("snapshot_sources", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  competitorId: integer("competitor_id").notNull(),
  sourceKey: text("source_key").notNull(),
  url: text("url").notNull(),
  kind: text("kind").notNull(),
  etag: text("etag"),
  lastModified: text("last_modified"),
  firstSeenAt: text("first_seen_at").notNull(),
  lastCheckedAt: text("last_checked_at").notNull(),
  lastChangedAt: text("last_changed_at"),
  latestHash: text("latest_hash"),
  failures: integer("failures").notNull(),
  lastError: text("last_error"),
  lastErrorAt: text("last_error_at"),
  failingSince: text("failing_since"),
  bodyHash: text("body_hash"),
  rendered: integer("rendered").notNull(),
});

/** The snapshot store: versions of a source. */
export const snapshotVersions = sqliteTable("snapshot_versions", {
  id: integer("id").primaryKey(),
  orgId: integer("org_id").notNull(),
  sourceId: integer("source_id").notNull(),
  hash: text("hash").notNull(),
  observedAt: text("observed_at").notNull(),
  status: integer("status"),
  finalUrl: text("final_url"),
  capture: text("capture"),
});

/** Webhooks' fan-out position in the event log. */
export const webhookFanout = sqliteTable("webhook_fanout", {
  id: integer("id").primaryKey(),
  position: integer("position").notNull(),
});
