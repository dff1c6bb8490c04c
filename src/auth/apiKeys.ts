import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import { liveKeyByDigest, noteApiKeyUse } from "../db/queries/apiKeys.ts";
import { type VersionedCache, versionedCache } from "../db/queries/cache.ts";
import type { Scope } from "../domain/apiKeys.ts";
import type { TokenResolver } from "./credentials.ts";
import type { Principal } from "./principal.ts";
import { API_KEY_PREFIX, digestsEqual, isWellFormedApiKey, sha256 } from "./tokens.ts";

/** Reads the credential from `Authorization: Bearer` (wins when both are sent) or `X-API-Key`. */
export function presentedToken(headers: Headers): string | undefined {
  const auth = headers.get("authorization");
  if (auth !== null) {
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth);
    return m ? m[1] : "";
  }
  const key = headers.get("x-api-key");
  return key === null ? undefined : key.trim();
}

const USAGE_WRITE_INTERVAL_MS = 60_000;
const MAX_DIGESTS = 1000;

/** Resolves API keys to principals: a well-formedness check first (no lookup for junk), then one indexed
 * query by digest, answered from the read cache (db/queries/cache.ts): a revocation or plan change in this
 * process takes effect on the next request, from another process within its freshness bound (50 ms). */
export class ApiKeyResolver {
  private lastUsageWrite = new Map<number, number>();
  private digests = new Map<string, string>();
  private cache: VersionedCache;
  constructor(
    private db: Database,
    private clock: Clock,
  ) {
    this.cache = versionedCache(db);
  }

  async resolve(token: string): Promise<Principal | undefined> {
    const digest = this.digestOf(token);
    if (digest === undefined) return undefined;
    const found = await this.cache.get(digest, () => this.lookup(digest));
    if (!found) return undefined;
    this.noteUse(found.keyId!);
    // The cached principal is shared by every request with this key: frozen (with its scopes) when looked
    // up, so no caller can change another's, and no copy is made per request.
    return found;
  }

  /** The digest of a well-formed key; kept for the keys seen lately, so a client's every request does not
   * check the key's checksum and hash it again (bench/read-api.ts: about 8 µs a request). */
  private digestOf(token: string): string | undefined {
    let digest = this.digests.get(token);
    if (digest === undefined) {
      if (!isWellFormedApiKey(token)) return undefined;
      digest = sha256(token);
      if (this.digests.size >= MAX_DIGESTS) this.digests.clear();
      this.digests.set(token, digest);
    }
    return digest;
  }

  private async lookup(digest: string): Promise<Principal | undefined> {
    const row = await liveKeyByDigest(this.db, digest);
    if (!row || !digestsEqual(row.tokenHash, digest)) return undefined;
    const keyId = row.id;
    return Object.freeze({
      orgId: row.orgId,
      orgSlug: row.orgSlug,
      orgName: row.orgName,
      orgWebsite: row.orgWebsite,
      orgCreatedAt: row.orgCreatedAt,
      plan: row.plan,
      actor: `api_key:${keyId}`,
      actorName: row.name,
      role: "admin",
      scopes: Object.freeze(row.scopes.split(",").filter(Boolean)) as Scope[],
      via: "api_key",
      keyId,
    });
  }

  /** As a bearer-credential resolver: claims every token with the key prefix. */
  asTokenResolver(): TokenResolver {
    return async (token) => {
      if (!token.startsWith(API_KEY_PREFIX)) return undefined;
      const principal = await this.resolve(token);
      return principal
        ? { kind: "ok", principal }
        : { kind: "invalid", reason: "The API key is malformed, unknown or revoked." };
    };
  }

  /** Last use is kept to the minute, off the request's path. */
  private noteUse(keyId: number): void {
    const now = this.clock().getTime();
    const last = this.lastUsageWrite.get(keyId) ?? 0;
    if (now - last < USAGE_WRITE_INTERVAL_MS) return;
    this.lastUsageWrite.set(keyId, now);
    noteApiKeyUse(this.db, keyId, new Date(now).toISOString()).catch(() => this.lastUsageWrite.delete(keyId));
  }
}
