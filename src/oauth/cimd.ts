// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11-25): a
// `client_id` that is an https URL names a JSON document describing the client. The server fetches it
// with a size and a time limit, never from a private address unless the operator allow-lists the host
// (checked before the request and again at connect time), and caches it as long as its Cache-Control /
// Expires headers allow (bounded).
import { lookup as dnsLookup } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Clock } from "../clock.ts";
import { checkClientMetadata, type OAuthClient } from "./clientMetadata.ts";
import { OAuthError } from "./errors.ts";
import { bareHost, isLoopbackAddress, isNonPublicAddress, resolveHost } from "./netguard.ts";

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
}

/** Parses RIVALS_OAUTH_CIMD_ALLOW_HOSTS: comma- or space-separated host names, optionally with a port. */
export function parseAllowHosts(v: string | undefined): string[] {
  return (v ?? "")
    .split(/[\s,]+/)
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

/** True when the value is meant as a metadata-document client id (a URL), as opposed to a registered id. */
export function looksLikeUrlClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

function cacheSeconds(headers: Headers, now: number): number {
  const cc = (headers.get("cache-control") ?? "").toLowerCase();
  if (/(^|,)\s*(no-store|no-cache|private)\b/.test(cc)) return 0;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/.exec(cc);
  if (maxAge) return Math.min(Number(maxAge[1]), MAX_TTL_S);
  const expires = headers.get("expires");
  if (expires !== null) {
    const t = Date.parse(expires);
    return Number.isNaN(t) ? 0 : Math.max(0, Math.min(Math.floor((t - now) / 1000), MAX_TTL_S));
  }
  return DEFAULT_TTL_S;
}

interface Fetched {
  status: number;
  headers: Headers;
  text: string;
}

/** One GET with node:http(s), whose `lookup` re-checks every address the connection may use, so the
 * address that is connected to is one that passed the check (no DNS-rebinding window between the check
 * and the fetch). No redirects are followed; the body is cut off past `maxBytes`; the whole exchange
 * must finish within `timeoutMs`. */
function pinnedGet(
  url: URL,
  addressOk: (addresses: string[]) => string | undefined,
  maxBytes: number,
  timeoutMs: number,
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const lookup = (
      host: string,
      options: { all?: boolean },
      cb: (err: Error | null, address?: unknown, family?: number) => void,
    ) => {
      dnsLookup(host, { all: true, verbatim: true }, (err, found) => {
        if (err) return cb(err);
        const problem = addressOk(found.map((a) => a.address));
        if (problem) return cb(new Error(problem));
        if (options?.all) cb(null, found);
        else cb(null, found[0].address, found[0].family);
      });
    };
    const get = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = get(url, { method: "GET", headers: { accept: "application/json" }, lookup: lookup as never });
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} seconds`)),
      timeoutMs,
    );
    req.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.on("response", (res) => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : String(v));
      const declared = Number(headers.get("content-length") ?? "0");
      if (declared > maxBytes) {
        req.destroy(new Error(`the document is larger than ${maxBytes} bytes`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) req.destroy(new Error(`the document is larger than ${maxBytes} bytes`));
        else chunks.push(c);
      });
      res.on("end", () => {
        clearTimeout(timer);
        try {
          const text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
          resolve({ status: res.statusCode ?? 0, headers, text });
        } catch {
          reject(new Error("the document is not UTF-8"));
        }
      });
      res.on("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    req.end();
  });
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
    const allowListed = this.allowed(u);
    let addresses: string[];
    try {
      addresses = await resolveHost(bareHost(u));
    } catch {
      throw new OAuthError("invalid_client", `the client_id host ${u.hostname} does not resolve`);
    }
    if (addresses.length === 0)
      throw new OAuthError("invalid_client", `the client_id host ${u.hostname} does not resolve`);
    if (!allowListed && addresses.some(isNonPublicAddress))
      throw new OAuthError(
        "invalid_client",
        `the client_id host ${u.hostname} resolves to a private, loopback or reserved address`,
      );
    if (u.protocol === "http:" && !addresses.every(isLoopbackAddress))
      throw new OAuthError("invalid_client", "client_id URL must use https");
    const addressOk = (found: string[]) => {
      if (found.length === 0) return `the client_id host ${u.hostname} does not resolve`;
      if (!allowListed && found.some(isNonPublicAddress))
        return `the client_id host ${u.hostname} resolves to a private, loopback or reserved address`;
      if (u.protocol === "http:" && !found.every(isLoopbackAddress)) return "client_id URL must use https";
      return undefined;
    };
    let res: Fetched;
    try {
      res = await pinnedGet(u, addressOk, CIMD_MAX_BYTES, CIMD_TIMEOUT_MS);
    } catch (e) {
      throw new OAuthError(
        "invalid_client",
        `the client metadata document could not be fetched: ${(e as Error).message}`,
      );
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
