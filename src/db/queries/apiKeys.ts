import { desc, eq } from "drizzle-orm";
import { streamVersionSql } from "../../../events/command.ts";
import type { Db, Exec } from "../client.ts";
import { apiKeys, apiKeyUsage } from "../schema.ts";

export interface ApiKeyView {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** One org's API keys, newest first, with their last use (the integrations page and the CLI). Never the digest. */
export async function listApiKeys(db: Db, orgId: number): Promise<ApiKeyView[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeyUsage.lastUsedAt,
    })
    .from(apiKeys)
    .leftJoin(apiKeyUsage, eq(apiKeyUsage.keyId, apiKeys.id))
    .where(eq(apiKeys.orgId, orgId))
    .orderBy(desc(apiKeys.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes.split(",").filter(Boolean),
    created_at: r.createdAt,
    revoked_at: r.revokedAt,
    last_used_at: r.lastUsedAt,
  }));
}

/** A live key by its digest, with its workspace (api_keys' unique digest index). */
export interface LiveKey {
  id: number;
  name: string;
  tokenHash: string;
  scopes: string;
  orgId: number;
  orgSlug: string;
  orgName: string;
  plan: string;
  orgWebsite: string | null;
  orgCreatedAt: string;
}

export async function liveKeyByDigest(db: Exec, digest: string): Promise<LiveKey | undefined> {
  const r = await db.execute({
    sql: `SELECT k.id, k.name, k.token_hash, k.scopes, o.id AS org_id, o.slug, o.name AS org_name, o.plan,
            o.website_url, o.created_at
          FROM api_keys k JOIN orgs o ON o.id = k.org_id
          WHERE k.token_hash = ? AND k.revoked_at IS NULL`,
    args: [digest],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    id: Number(row.id),
    name: String(row.name),
    tokenHash: String(row.token_hash),
    scopes: String(row.scopes),
    orgId: Number(row.org_id),
    orgSlug: String(row.slug),
    orgName: String(row.org_name),
    plan: String(row.plan),
    orgWebsite: row.website_url === null ? null : String(row.website_url),
    orgCreatedAt: String(row.created_at),
  };
}

/** Records a key's last use (api_key_usage is operational: written on use, not an event). */
export async function noteApiKeyUse(db: Exec, keyId: number, at: string): Promise<void> {
  await db.execute({
    sql: `INSERT INTO api_key_usage (key_id, last_used_at) VALUES (?, ?)
          ON CONFLICT (key_id) DO UPDATE SET last_used_at = excluded.last_used_at`,
    args: [keyId, at],
  });
}

/** An API key of a workspace, as its revocation reads it: when it was revoked (null while it is live). */
export async function apiKeyRevocation(
  db: Exec,
  orgId: number,
  id: number,
): Promise<{ revoked_at: string | null; version: number } | undefined> {
  const r = await db.execute({
    sql: `SELECT revoked_at, ${streamVersionSql("api_key", "id")} AS version FROM api_keys WHERE id = ? AND org_id = ?`,
    args: [id, orgId],
  });
  const row = r.rows[0];
  return row
    ? { revoked_at: row.revoked_at === null ? null : String(row.revoked_at), version: Number(row.version) }
    : undefined;
}
