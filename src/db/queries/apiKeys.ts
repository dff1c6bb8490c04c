import { desc, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
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
