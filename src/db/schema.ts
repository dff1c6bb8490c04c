// Drizzle description of the read tables (the SQL of record is in migrations/).
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
