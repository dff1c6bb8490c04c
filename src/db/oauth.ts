// The OAuth server's operational tables: registered clients, grant families, codes and tokens (digests only),
// and the reads of the remembered approvals (oauth_consents, a projection). The rules that use them are in
// src/oauth/; every write here runs inside the single writer's transaction the caller passes.
import type { Row } from "@libsql/client";
import { streamVersionSql } from "../../events/command.ts";
import { type Exec, found } from "./client.ts";

/** Which grants of a workspace an action concerns: every one, one member's, one app's, or both. */
export interface GrantScope {
  orgId: number;
  userId?: number;
  clientId?: string;
}

/** The SQL condition and its arguments that select the rows of a table with org_id, user_id and client_id
 * columns that `where` concerns. */
function grantScopeSql(where: GrantScope): { sql: string; args: (string | number | null)[] } {
  const user = where.userId ?? null;
  const client = where.clientId ?? null;
  return {
    sql: "org_id = ? AND (? IS NULL OR user_id = ?) AND (? IS NULL OR client_id = ?)",
    args: [where.orgId, user, user, client, client],
  };
}

// ---- clients ----

export async function insertClient(
  tx: Exec,
  c: { clientId: string; secretHash: string | null; metadata: string; createdAt: string },
): Promise<void> {
  await tx.execute({
    sql: "INSERT INTO oauth_clients (client_id, secret_hash, metadata, created_at) VALUES (?, ?, ?, ?)",
    args: [c.clientId, c.secretHash, c.metadata, c.createdAt],
  });
}

/** A registered client's stored metadata (JSON) and secret digest. */
export async function registeredClient(
  db: Exec,
  clientId: string,
): Promise<{ metadata: string; secretHash: string | null } | undefined> {
  const r = await db.execute({
    sql: "SELECT metadata, secret_hash FROM oauth_clients WHERE client_id = ?",
    args: [clientId],
  });
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    metadata: String(row.metadata),
    secretHash: row.secret_hash === null ? null : String(row.secret_hash),
  };
}

// ---- families, codes and tokens ----

/** Revokes a family and every token in it. */
export async function revokeFamilyRows(tx: Exec, family: string, at: string, reason: string): Promise<void> {
  await tx.execute({
    sql: "UPDATE oauth_families SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL",
    args: [at, reason, family],
  });
  await tx.execute({
    sql: "UPDATE oauth_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL",
    args: [at, family],
  });
}

/** The live families in `where`. */
export async function liveFamiliesIn(tx: Exec, where: GrantScope): Promise<string[]> {
  const scope = grantScopeSql(where);
  const r = await tx.execute({
    sql: `SELECT id FROM oauth_families WHERE ${scope.sql} AND revoked_at IS NULL`,
    args: scope.args,
  });
  return r.rows.map((row) => String(row.id));
}

export async function insertFamily(
  tx: Exec,
  f: {
    id: string;
    clientId: string;
    userId: number;
    orgId: number;
    scopes: string;
    resource: string;
    at: string;
  },
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO oauth_families (id, client_id, user_id, org_id, scopes, resource, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
    args: [f.id, f.clientId, f.userId, f.orgId, f.scopes, f.resource, f.at],
  });
}

export async function insertCode(
  tx: Exec,
  c: {
    codeHash: string;
    familyId: string;
    clientId: string;
    redirectUri: string;
    codeChallenge: string;
    expiresAt: string;
  },
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO oauth_codes (code_hash, family_id, client_id, redirect_uri, code_challenge, expires_at)
          VALUES (?, ?, ?, ?, ?, ?)`,
    args: [c.codeHash, c.familyId, c.clientId, c.redirectUri, c.codeChallenge, c.expiresAt],
  });
}

export async function insertToken(
  tx: Exec,
  t: {
    tokenHash: string;
    kind: "access" | "refresh";
    familyId: string;
    scopes: string;
    expiresAt: string;
    at: string;
  },
): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO oauth_tokens (token_hash, kind, family_id, scopes, expires_at, created_at)
          VALUES (?, ?, ?, ?, ?, ?)`,
    args: [t.tokenHash, t.kind, t.familyId, t.scopes, t.expiresAt, t.at],
  });
}

/** Deletes codes and tokens that expired before `cutoff`, and families older than it with nothing left. */
export async function pruneExpiredGrants(tx: Exec, cutoff: string): Promise<void> {
  await tx.execute({ sql: "DELETE FROM oauth_codes WHERE expires_at < ?", args: [cutoff] });
  await tx.execute({ sql: "DELETE FROM oauth_tokens WHERE expires_at < ?", args: [cutoff] });
  await tx.execute({
    sql: `DELETE FROM oauth_families WHERE created_at < ?
            AND NOT EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.family_id = oauth_families.id)
            AND NOT EXISTS (SELECT 1 FROM oauth_codes c WHERE c.family_id = oauth_families.id)`,
    args: [cutoff],
  });
}

/** An authorization code by its digest, with its family. */
export async function codeWithFamily(tx: Exec, codeHash: string): Promise<Row | undefined> {
  const r = await tx.execute({
    sql: `SELECT c.family_id, c.client_id, c.redirect_uri, c.code_challenge, c.expires_at, c.used_at,
            f.user_id, f.org_id, f.scopes, f.resource, f.revoked_at
          FROM oauth_codes c JOIN oauth_families f ON f.id = c.family_id WHERE c.code_hash = ?`,
    args: [codeHash],
  });
  return r.rows[0];
}

export async function markCodeUsed(tx: Exec, codeHash: string, at: string): Promise<void> {
  await tx.execute({ sql: "UPDATE oauth_codes SET used_at = ? WHERE code_hash = ?", args: [at, codeHash] });
}

/** A refresh token by its digest, with its family. */
export async function refreshTokenWithFamily(tx: Exec, tokenHash: string): Promise<Row | undefined> {
  const r = await tx.execute({
    sql: `SELECT t.family_id, t.expires_at, t.rotated_at, t.revoked_at,
            f.client_id, f.user_id, f.org_id, f.resource, f.scopes, f.revoked_at AS family_revoked
          FROM oauth_tokens t JOIN oauth_families f ON f.id = t.family_id
          WHERE t.token_hash = ? AND t.kind = 'refresh'`,
    args: [tokenHash],
  });
  return r.rows[0];
}

export async function markTokenRotated(tx: Exec, tokenHash: string, at: string): Promise<void> {
  await tx.execute({
    sql: "UPDATE oauth_tokens SET rotated_at = ? WHERE token_hash = ?",
    args: [at, tokenHash],
  });
}

/** A token of either kind by its digest: its kind, family and client. */
export async function tokenWithClient(tx: Exec, tokenHash: string): Promise<Row | undefined> {
  const r = await tx.execute({
    sql: `SELECT t.kind, t.family_id, f.client_id FROM oauth_tokens t JOIN oauth_families f ON f.id = t.family_id
          WHERE t.token_hash = ?`,
    args: [tokenHash],
  });
  return r.rows[0];
}

export async function revokeToken(tx: Exec, tokenHash: string, at: string): Promise<void> {
  await tx.execute({
    sql: "UPDATE oauth_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
    args: [at, tokenHash],
  });
}

/** An access token by its digest, with its family. */
export async function accessTokenWithFamily(db: Exec, tokenHash: string): Promise<Row | undefined> {
  const r = await db.execute({
    sql: `SELECT t.scopes, t.expires_at, t.revoked_at, f.id AS family_id, f.user_id, f.org_id, f.resource,
            f.client_id, f.last_used_at, f.revoked_at AS family_revoked
          FROM oauth_tokens t JOIN oauth_families f ON f.id = t.family_id
          WHERE t.token_hash = ? AND t.kind = 'access'`,
    args: [tokenHash],
  });
  return r.rows[0];
}

export async function noteFamilyUse(tx: Exec, familyId: string, at: string): Promise<void> {
  await tx.execute({ sql: "UPDATE oauth_families SET last_used_at = ? WHERE id = ?", args: [at, familyId] });
}

// ---- remembered approvals (read) ----

/** A member's remembered approvals of a client, newest first. */
export async function consentsOfMember(
  db: Exec,
  userId: number,
  clientId: string,
): Promise<{ orgId: number; scopes: string; grantedAt: string }[]> {
  const r = await db.execute({
    sql: `SELECT org_id, scopes, granted_at FROM oauth_consents WHERE user_id = ? AND client_id = ?
          ORDER BY granted_at DESC`,
    args: [userId, clientId],
  });
  return r.rows.map((row) => ({
    orgId: Number(row.org_id),
    scopes: String(row.scopes),
    grantedAt: String(row.granted_at),
  }));
}

/** The scopes a member approved for a client in a workspace, space-separated, with the version of the
 * approval's stream (`oauth_consent:<org>:<user>:<client>`). */
export async function consentScopes(
  tx: Exec,
  userId: number,
  clientId: string,
  orgId: number,
): Promise<{ scopes: string; version: number } | undefined> {
  const streamId = "c.org_id || ':' || c.user_id || ':' || c.client_id";
  const r = await tx.execute({
    sql: `SELECT c.scopes, ${streamVersionSql("oauth_consent", streamId)} AS version
          FROM oauth_consents c WHERE c.user_id = ? AND c.client_id = ? AND c.org_id = ?`,
    args: [userId, clientId, orgId],
  });
  const row = r.rows[0];
  return row ? { scopes: String(row.scopes), version: Number(row.version) } : undefined;
}

/** The remembered approvals in `where`: whose, of which client. */
export async function consentsIn(
  tx: Exec,
  where: GrantScope,
): Promise<{ userId: number; clientId: string }[]> {
  const scope = grantScopeSql(where);
  const r = await tx.execute({
    sql: `SELECT user_id, client_id FROM oauth_consents WHERE ${scope.sql} ORDER BY client_id, user_id`,
    args: scope.args,
  });
  return r.rows.map((row) => ({ userId: Number(row.user_id), clientId: String(row.client_id) }));
}

/** Whether the user is a member of the workspace. */
export async function isMemberOf(tx: Exec, orgId: number, userId: number): Promise<boolean> {
  return found(tx, {
    sql: "SELECT 1 FROM memberships WHERE org_id = ? AND user_id = ?",
    args: [orgId, userId],
  });
}
