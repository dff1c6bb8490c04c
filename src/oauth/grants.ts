// Authorization codes, access tokens and refresh tokens. Everything issued from one code is a family;
// a replayed code or a reused refresh token revokes the family. Only SHA-256 digests are stored, and
// every write goes through the single writer, so redemption and rotation are atomic.
import { createHash } from "node:crypto";
import type { Tx } from "../../events/store.ts";
import { randomSecret, sha256 } from "../auth/tokens.ts";
import {
  accessTokenWithFamily,
  codeWithFamily,
  insertCode,
  insertFamily,
  insertToken,
  markCodeUsed,
  markTokenRotated,
  noteFamilyUse,
  pruneExpiredGrants,
  refreshTokenWithFamily,
  revokeFamilyRows,
  revokeToken,
  tokenWithClient,
} from "../db/oauth.ts";
import type { Scope } from "../domain/apiKeys.ts";
import type { Services } from "../services.ts";
import { OAuthError } from "./errors.ts";

export const CODE_TTL_S = 60;
export const ACCESS_TTL_S = 60 * 60;
export const REFRESH_TTL_S = 30 * 24 * 60 * 60;
export const ACCESS_PREFIX = "rvo_";
export const REFRESH_PREFIX = "rvr_";
const CODE_PREFIX = "rvg_";

export interface CodeRequest {
  clientId: string;
  userId: number;
  orgId: number;
  scopes: Scope[];
  resource: string;
  redirectUri: string;
  codeChallenge: string;
}

export interface TokenSet {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** The member a family acts for; checked (member still in the workspace) before tokens are issued. */
export type MemberCheck = (tx: Pick<Tx, "execute">, userId: number, orgId: number) => Promise<boolean>;

const iso = (d: Date, plusSeconds = 0) => new Date(d.getTime() + plusSeconds * 1000).toISOString();

function pkceS256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Revokes a family and every token in it (inside the writer's transaction). The one place a grant is
 * revoked: replays, reuse, revocation requests, disconnected apps and removed members all come here. */
export async function revokeFamily(tx: Pick<Tx, "execute">, family: string, now: Date, reason: string) {
  await revokeFamilyRows(tx, family, iso(now), reason);
}

/** Last use of a grant is noted at most this often (the connected-apps list shows it to the minute). */
const USE_NOTE_INTERVAL_MS = 60_000;

/** Expired codes and tokens are kept this long (replays within it are still recognised), then deleted. */
const RETAIN_EXPIRED_S = 24 * 60 * 60;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export class Grants {
  private lastPrune = 0;
  constructor(
    private s: Services,
    private memberActive: MemberCheck,
  ) {}

  /** Issues a single-use authorization code that starts a new family. */
  async issueCode(req: CodeRequest): Promise<string> {
    const code = randomSecret(CODE_PREFIX);
    await this.s.store.writeTables(async ({ later, now }) => {
      const family = crypto.randomUUID();
      await insertFamily(later, {
        id: family,
        clientId: req.clientId,
        userId: req.userId,
        orgId: req.orgId,
        scopes: req.scopes.join(" "),
        resource: req.resource,
        at: iso(now),
      });
      await insertCode(later, {
        codeHash: sha256(code),
        familyId: family,
        clientId: req.clientId,
        redirectUri: req.redirectUri,
        codeChallenge: req.codeChallenge,
        expiresAt: iso(now, CODE_TTL_S),
      });
      if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now.getTime();
        await this.prune(later, now);
      }
    });
    return code;
  }

  private async issueTokens(
    tx: Tx,
    now: Date,
    family: string,
    scopes: string[],
    refreshScopes: string[] = scopes,
  ): Promise<TokenSet> {
    const access = randomSecret(ACCESS_PREFIX);
    const refresh = randomSecret(REFRESH_PREFIX);
    for (const [token, kind, ttl, sc] of [
      [access, "access", ACCESS_TTL_S, scopes],
      [refresh, "refresh", REFRESH_TTL_S, refreshScopes],
    ] as const)
      await insertToken(tx, {
        tokenHash: sha256(token),
        kind,
        familyId: family,
        scopes: sc.join(" "),
        expiresAt: iso(now, ttl),
        at: iso(now),
      });
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: ACCESS_TTL_S,
      refresh_token: refresh,
      scope: scopes.join(" "),
    };
  }

  /** Deletes codes and tokens a day after they expired, and families with nothing left. */
  private async prune(tx: Pick<Tx, "execute">, now: Date) {
    await pruneExpiredGrants(tx, iso(now, -RETAIN_EXPIRED_S));
  }

  /** authorization_code grant. A code seen a second time revokes everything issued from it. */
  async redeemCode(p: {
    clientId: string;
    code: string;
    redirectUri: string | null;
    verifier: string | null;
    resource: string | null;
  }): Promise<TokenSet> {
    if (p.verifier === null) throw new OAuthError("invalid_request", "code_verifier is required (PKCE)");
    if (!VERIFIER.test(p.verifier))
      throw new OAuthError("invalid_request", "code_verifier must be 43-128 unreserved characters");
    if (p.redirectUri === null) throw new OAuthError("invalid_request", "redirect_uri is required");
    type R = { error: OAuthError } | { tokens: TokenSet };
    const result = await this.s.store.writeTables(async ({ tx, later, now }): Promise<R> => {
      const row = await codeWithFamily(tx, sha256(p.code));
      const fail = (why: string): R => ({ error: new OAuthError("invalid_grant", why) });
      if (!row) return fail("The authorization code is unknown.");
      const family = String(row.family_id);
      if (row.client_id !== p.clientId) return fail("The authorization code was issued to another client.");
      if (row.used_at !== null) {
        await revokeFamily(later, family, now, "code_replay");
        return fail("The authorization code was already used; every token issued from it is now revoked.");
      }
      if (Date.parse(String(row.expires_at)) <= now.getTime())
        return fail("The authorization code has expired.");
      if (row.revoked_at !== null) return fail("The authorization was revoked.");
      if (row.redirect_uri !== p.redirectUri)
        return fail("redirect_uri differs from the one in the authorization request.");
      if (pkceS256(p.verifier!) !== row.code_challenge)
        return fail("code_verifier does not match the code_challenge.");
      if (p.resource !== null && p.resource !== row.resource)
        return {
          error: new OAuthError(
            "invalid_target",
            "resource differs from the one in the authorization request.",
          ),
        };
      await markCodeUsed(later, sha256(p.code), iso(now));
      if (!(await this.memberActive(tx, Number(row.user_id), Number(row.org_id)))) {
        await revokeFamily(later, family, now, "member_removed");
        return fail("The approving member no longer belongs to the workspace.");
      }
      const tokens = await this.issueTokens(
        later,
        now,
        family,
        String(row.scopes).split(" ").filter(Boolean),
      );
      return { tokens };
    });
    if ("error" in result) throw result.error;
    return result.tokens;
  }

  /** refresh_token grant with rotation: the presented token is spent and a new pair issued. A spent
   * token presented again means it leaked: the whole family is revoked. */
  async refresh(p: {
    clientId: string;
    refreshToken: string;
    scope: Scope[] | null;
    resource: string | null;
  }): Promise<TokenSet> {
    type R = { error: OAuthError } | { tokens: TokenSet };
    const result = await this.s.store.writeTables(async ({ tx, later, now }): Promise<R> => {
      const row = await refreshTokenWithFamily(tx, sha256(p.refreshToken));
      const fail = (
        why: string,
        code: "invalid_grant" | "invalid_scope" | "invalid_target" = "invalid_grant",
      ): R => ({ error: new OAuthError(code, why) });
      if (!row) return fail("The refresh token is unknown.");
      if (row.client_id !== p.clientId) return fail("The refresh token was issued to another client.");
      const family = String(row.family_id);
      if (row.family_revoked !== null || row.revoked_at !== null)
        return fail("The refresh token was revoked.");
      if (row.rotated_at !== null) {
        await revokeFamily(later, family, now, "refresh_reuse");
        return fail("The refresh token was already used; every token of this grant is now revoked.");
      }
      if (Date.parse(String(row.expires_at)) <= now.getTime()) return fail("The refresh token has expired.");
      if (p.resource !== null && p.resource !== row.resource)
        return fail("resource differs from the one this grant was issued for.", "invalid_target");
      const held = String(row.scopes).split(" ").filter(Boolean);
      let scopes = held;
      if (p.scope !== null) {
        if (p.scope.length === 0 || p.scope.some((sc) => !held.includes(sc)))
          return fail(`The requested scope exceeds the scope granted (${held.join(" ")}).`, "invalid_scope");
        scopes = p.scope;
      }
      if (!(await this.memberActive(tx, Number(row.user_id), Number(row.org_id)))) {
        await revokeFamily(later, family, now, "member_removed");
        return fail("The approving member no longer belongs to the workspace.");
      }
      await markTokenRotated(later, sha256(p.refreshToken), iso(now));
      // Access tokens issued before this rotation keep working until they expire. A narrower scope applies
      // to the new access token only; the refresh token keeps the scope granted (RFC 6749 6).
      return { tokens: await this.issueTokens(later, now, family, scopes, held) };
    });
    if ("error" in result) throw result.error;
    return result.tokens;
  }

  /** RFC 7009: revokes a token of this client. A refresh token takes its whole family with it; an access
   * token only itself. Unknown tokens and tokens of other clients are ignored (the answer is the same). */
  async revoke(clientId: string, token: string, hint: string | null): Promise<void> {
    await this.s.store.writeTables(async ({ tx, later, now }) => {
      const row = await tokenWithClient(tx, sha256(token));
      void hint; // the digest look-up finds either kind, so the hint only documents the caller's intent
      if (!row || row.client_id !== clientId) return;
      if (row.kind === "refresh") await revokeFamily(tx, String(row.family_id), now, "revoked");
      else await revokeToken(later, sha256(token), iso(now));
    });
  }

  /** The live access token with this value, for the bearer resolver. */
  async accessToken(token: string): Promise<
    | {
        ok: true;
        userId: number;
        orgId: number;
        scopes: Scope[];
        audience: string;
        clientId: string;
        familyId: string;
        lastUsedAt: string | null;
      }
    | { ok: false; reason: string }
  > {
    const row = await accessTokenWithFamily(this.s.database, sha256(token));
    if (!row) return { ok: false, reason: "The access token is unknown." };
    if (row.revoked_at !== null || row.family_revoked !== null)
      return { ok: false, reason: "The access token was revoked." };
    if (Date.parse(String(row.expires_at)) <= this.s.clock().getTime())
      return { ok: false, reason: "The access token has expired." };
    return {
      ok: true,
      userId: Number(row.user_id),
      orgId: Number(row.org_id),
      scopes: String(row.scopes).split(" ").filter(Boolean) as Scope[],
      audience: String(row.resource),
      clientId: String(row.client_id),
      familyId: String(row.family_id),
      lastUsedAt: row.last_used_at === null ? null : String(row.last_used_at),
    };
  }

  /** Records that an accepted access token was used, at most once a minute per grant, through the writer
   * but off the request's path (the request does not wait for it). */
  noteUse(familyId: string, lastUsedAt: string | null): void {
    const now = this.s.clock();
    if (lastUsedAt !== null && now.getTime() - Date.parse(lastUsedAt) < USE_NOTE_INTERVAL_MS) return;
    this.s.store.writeTables(({ later }) => noteFamilyUse(later, familyId, iso(now))).catch(() => {}); // a lost note only makes "last used" older; never fail the request for it
  }
}
