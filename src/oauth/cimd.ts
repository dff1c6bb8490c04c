// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11-25): a
// `client_id` that is an https URL names a JSON document describing the client. The server fetches it
// through the engine's one fetcher (src/engine/fetch: the address guard with the DNS answer pinned, no
// redirects, a size and a time limit), never from a private address unless the operator allow-lists the
// host, and caches it as long as its Cache-Control / Expires headers allow (bounded).
import type { Clock } from "../clock.ts";
import { isLoopbackHost } from "../engine/fetch/guard.ts";
import type { Fetcher, RewriteRule } from "../engine/fetch/index.ts";
import { checkClientMetadata, type OAuthClient } from "./clientMetadata.ts";
import { OAuthError } from "./errors.ts";

export const CIMD_MAX_BYTES = 5 * 1024;
export const CIMD_TIMEOUT_MS = 5_000;
const DEFAULT_TTL_S = 300;
const MAX_TTL_S = 24 * 60 * 60;
const MAX_ENTRIES = 500;

export interface CimdOptions {
  /** Hosts (`name` or `name:port`) that may resolve to private addresses. An allow-listed host whose
   * every address is loopback may also be fetched over plain http (for local development and tests). */
  allowHosts: string[];
  clock: Clock;
  /** The fetcher, built with `allowHostRules(allowHosts)` in its rewrite table. */
  fetcher: Fetcher;
}

/** The allow-list as rewrite rules that send each listed origin to itself: rewrite targets are exempt
 * from the fetcher's address guard, which is what listing a host means. `host` alone names its default
 * ports (80 and 443); `host:port` that port over http and https. */
export function allowHostRules(allowHosts: string[]): RewriteRule[] {
  const rules: RewriteRule[] = [];
  for (const h of allowHosts) {
    for (const scheme of ["http", "https"]) {
      try {
        const origin = new URL(`${scheme}://${h}`).origin;
        rules.push({ from: origin, to: origin });
      } catch {}
    }
  }
  return rules;
}

/** True when the value is meant as a metadata-document client id (a URL), as opposed to a registered id. */
export function looksLikeUrlClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

function cacheSeconds(headers: Record<string, string>, now: number): number {
  const cc = (headers["cache-control"] ?? "").toLowerCase();
  if (/(^|,)\s*(no-store|no-cache|private)\b/.test(cc)) return 0;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/.exec(cc);
  if (maxAge) return Math.min(Number(maxAge[1]), MAX_TTL_S);
  const expires = headers.expires;
  if (expires !== undefined) {
    const t = Date.parse(expires);
    return Number.isNaN(t) ? 0 : Math.max(0, Math.min(Math.floor((t - now) / 1000), MAX_TTL_S));
  }
  return DEFAULT_TTL_S;
}

export class ClientMetadataDocuments {
  private cache = new Map<string, { client: OAuthClient; expiresAt: number }>();
  private inFlight = new Map<string, Promise<OAuthClient>>();
  private allow: Set<string>;

  constructor(private opts: CimdOptions) {
    this.allow = new Set(opts.allowHosts);
  }

  /** Checks the shape of a URL client id (the draft's rules) and returns the parsed URL. */
  checkUrl(clientId: string): URL {
    let u: URL;
    try {
      u = new URL(clientId);
    } catch {
      throw new OAuthError("invalid_client", "the client_id is not a valid URL");
    }
    const bad = (why: string) => new OAuthError("invalid_client", `client_id URL ${why}`);
    if (u.protocol !== "https:" && !(u.protocol === "http:" && this.allowed(u))) throw bad("must use https");
    if (u.pathname === "/" || u.pathname === "") throw bad("must have a path");
    if (clientId.includes("#")) throw bad("must not have a fragment");
    if (u.username || u.password) throw bad("must not contain a user name or password");
    const rawPath = clientId.replace(/^[a-z]+:\/\/[^/]*/i, "").split("?")[0];
    if (rawPath.split("/").some((seg) => seg === "." || seg === ".."))
      throw bad("must not contain . or .. path segments");
    if (clientId.length > 2000) throw bad("is too long");
    return u;
  }

  private allowed(u: URL): boolean {
    const host = u.hostname.toLowerCase();
    return (
      this.allow.has(host) || this.allow.has(`${host}:${u.port || (u.protocol === "https:" ? "443" : "80")}`)
    );
  }

  /** The client described by the document at `clientId`, from the cache or fetched now. */
  async get(clientId: string): Promise<OAuthClient> {
    const now = this.opts.clock().getTime();
    const hit = this.cache.get(clientId);
    if (hit && hit.expiresAt > now) return hit.client;
    const running = this.inFlight.get(clientId);
    if (running) return running;
    const p = this.fetchDocument(clientId).finally(() => this.inFlight.delete(clientId));
    this.inFlight.set(clientId, p);
    return p;
  }

  private async fetchDocument(clientId: string): Promise<OAuthClient> {
    const u = this.checkUrl(clientId);
    // Plain http only for an allow-listed loopback host (local development and tests).
    if (u.protocol === "http:" && !isLoopbackHost(u.hostname.replace(/^\[(.*)\]$/, "$1")))
      throw new OAuthError("invalid_client", "client_id URL must use https");
    const res = await this.opts.fetcher.fetch({
      url: u.href,
      headers: { accept: "application/json" },
      robots: false,
      maxRedirects: 0,
      maxBytes: CIMD_MAX_BYTES,
      timeoutMs: CIMD_TIMEOUT_MS,
    });
    if (!res.ok) {
      const why =
        res.error === "blocked_address"
          ? `the client_id host ${res.message}`
          : res.error === "too_large"
            ? `the document is larger than ${CIMD_MAX_BYTES} bytes`
            : res.status
              ? `HTTP ${res.status}`
              : res.message;
      throw new OAuthError("invalid_client", `the client metadata document could not be fetched: ${why}`);
    }
    if (res.status !== 200)
      throw new OAuthError(
        "invalid_client",
        `the client metadata document could not be fetched: HTTP ${res.status}`,
      );
    const text = res.text;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new OAuthError("invalid_client", "the client metadata document is not JSON");
    }
    if (typeof doc !== "object" || doc === null || (doc as { client_id?: unknown }).client_id !== clientId)
      throw new OAuthError(
        "invalid_client",
        "the client metadata document's client_id does not equal the URL it was fetched from",
      );
    let client: OAuthClient;
    try {
      client = { client_id: clientId, source: "document", ...checkClientMetadata(doc, "document") };
    } catch (e) {
      throw new OAuthError(
        "invalid_client",
        `the client metadata document is not acceptable: ${(e as Error).message}`,
      );
    }
    const now = this.opts.clock().getTime();
    const ttl = cacheSeconds(res.headers, now);
    if (ttl > 0) {
      if (this.cache.size >= MAX_ENTRIES) {
        for (const [k, v] of this.cache) if (v.expiresAt <= now) this.cache.delete(k);
        while (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
      }
      this.cache.set(clientId, { client, expiresAt: now + ttl * 1000 });
    }
    return client;
  }
}
