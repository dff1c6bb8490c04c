// Client metadata rules shared by dynamic registration (RFC 7591) and client ID metadata documents:
// redirect URIs, grant and response types, authentication method, display fields.
import { SCOPES, type Scope } from "../domain/apiKeys.ts";
import { OAuthError } from "./errors.ts";

export const AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
export const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

/** What the server knows about a client, however it was identified. */
export interface OAuthClient {
  client_id: string;
  /** `registered` = dynamic registration; `document` = client ID metadata document. */
  source: "registered" | "document";
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: AuthMethod;
  /** Scopes the client registered for; undefined = any supported scope. */
  scope?: Scope[];
  /** SHA-256 of the client secret, confidential registered clients only. */
  secret_hash?: string;
  client_id_issued_at?: number;
}

/** How an app is named to people: its self-asserted name, else a metadata document's host. */
export function clientLabel(c: Pick<OAuthClient, "client_id" | "source" | "client_name">): string {
  return c.client_name ?? (c.source === "document" ? new URL(c.client_id).host : "An unnamed app");
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** A redirect URI is acceptable when it is absolute, has no fragment, and is https, http on a loopback
 * host (native apps, RFC 8252 7.3), or a private-use reverse-domain scheme (RFC 8252 7.1). */
export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0) return "a redirect URI must be a non-empty string";
  if (value.length > 2000) return "a redirect URI is longer than 2000 characters";
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return `${value} is not an absolute URI`;
  }
  if (value.includes("#")) return `${value} has a fragment`;
  if (u.username || u.password) return `${value} carries credentials`;
  if (u.protocol === "https:") return undefined;
  if (u.protocol === "http:")
    return LOOPBACK_HOSTS.has(u.hostname)
      ? undefined
      : `${value} uses http on a host other than 127.0.0.1, [::1] or localhost`;
  const scheme = u.protocol.slice(0, -1);
  if (scheme.includes(".") && !["javascript", "data", "file", "vbscript", "blob"].includes(scheme))
    return undefined;
  return `${value} must use https, http on a loopback host, or a reverse-domain private-use scheme`;
}

/** Loopback IP redirect URIs match on everything but the port (RFC 8252 7.3, OAuth 2.1 8.4.2);
 * every other redirect URI must match exactly as a string. */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  try {
    const a = new URL(registered);
    const b = new URL(presented);
    if (a.protocol !== "http:" || b.protocol !== "http:") return false;
    if (!["127.0.0.1", "[::1]"].includes(a.hostname) || a.hostname !== b.hostname) return false;
    return a.pathname === b.pathname && a.search === b.search && !presented.includes("#");
  } catch {
    return false;
  }
}

/** Parses a space-separated scope string against the supported scopes. */
export function parseScope(value: unknown, field = "scope"): Scope[] {
  if (typeof value !== "string") throw new OAuthError("invalid_scope", `${field} must be a string`);
  const list = value.split(" ").filter(Boolean);
  for (const sc of list)
    if (!(SCOPES as readonly string[]).includes(sc))
      throw new OAuthError(
        "invalid_scope",
        `unknown scope ${JSON.stringify(sc)}; supported: ${SCOPES.join(" ")}`,
      );
  return SCOPES.filter((sc) => list.includes(sc));
}

function optionalString(
  meta: Record<string, unknown>,
  key: string,
  max: number,
  code: "invalid_client_metadata" = "invalid_client_metadata",
): string | undefined {
  const v = meta[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.length > max)
    throw new OAuthError(code, `${key} must be a string of at most ${max} characters`);
  return v;
}

function optionalHttpsUrl(meta: Record<string, unknown>, key: string): string | undefined {
  const v = optionalString(meta, key, 2000);
  if (v === undefined) return undefined;
  try {
    const u = new URL(v);
    if (u.protocol === "https:") return v;
  } catch {}
  throw new OAuthError("invalid_client_metadata", `${key} must be an https URL`);
}

function stringList(meta: Record<string, unknown>, key: string, dflt: string[]): string[] {
  const v = meta[key];
  if (v === undefined || v === null) return dflt;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
    throw new OAuthError("invalid_client_metadata", `${key} must be an array of strings`);
  return [...new Set(v as string[])];
}

/** Validates client metadata (a registration request or a metadata document) into an OAuthClient
 * without its id. Errors are RFC 7591 `invalid_redirect_uri` / `invalid_client_metadata`. */
export function checkClientMetadata(
  meta: unknown,
  source: OAuthClient["source"],
): Omit<OAuthClient, "client_id" | "source"> {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta))
    throw new OAuthError("invalid_client_metadata", "the client metadata must be a JSON object");
  const m = meta as Record<string, unknown>;
  const redirects = m.redirect_uris;
  if (!Array.isArray(redirects) || redirects.length === 0)
    throw new OAuthError("invalid_redirect_uri", "redirect_uris must be a non-empty array");
  if (redirects.length > 20) throw new OAuthError("invalid_redirect_uri", "at most 20 redirect_uris");
  for (const r of redirects) {
    const problem = redirectUriProblem(r);
    if (problem) throw new OAuthError("invalid_redirect_uri", problem);
  }
  // RFC 7591's default is authorization_code alone; this server replaces an omitted value with both grants
  // it supports (RFC 7591 3.2.1 lets the server replace requested values), so every client can refresh.
  const grant_types = stringList(m, "grant_types", [...GRANT_TYPES]);
  for (const g of grant_types)
    if (!(GRANT_TYPES as readonly string[]).includes(g))
      throw new OAuthError(
        "invalid_client_metadata",
        `grant type ${JSON.stringify(g)} is not supported; supported: ${GRANT_TYPES.join(", ")}`,
      );
  if (!grant_types.includes("authorization_code"))
    throw new OAuthError("invalid_client_metadata", "grant_types must include authorization_code");
  const response_types = stringList(m, "response_types", ["code"]);
  if (response_types.some((r) => r !== "code"))
    throw new OAuthError("invalid_client_metadata", 'the only supported response type is "code"');
  // RFC 7591 2: the default method is client_secret_basic. A metadata document cannot hold a shared
  // secret, so only `none` is allowed there (and is its default).
  const method = m.token_endpoint_auth_method ?? (source === "document" ? "none" : "client_secret_basic");
  if (typeof method !== "string" || !(AUTH_METHODS as readonly string[]).includes(method))
    throw new OAuthError(
      "invalid_client_metadata",
      `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}`,
    );
  if (source === "document") {
    if (method !== "none")
      throw new OAuthError(
        "invalid_client_metadata",
        'a client metadata document must use token_endpoint_auth_method "none" (it cannot hold a shared secret)',
      );
    if (m.client_secret !== undefined || m.client_secret_expires_at !== undefined)
      throw new OAuthError(
        "invalid_client_metadata",
        "a client metadata document must not contain a client secret",
      );
  }
  let scope: Scope[] | undefined;
  if (m.scope !== undefined && m.scope !== null) {
    try {
      scope = parseScope(m.scope);
    } catch (e) {
      throw new OAuthError("invalid_client_metadata", (e as Error).message);
    }
  }
  return {
    client_name: optionalString(m, "client_name", 200)?.trim() || undefined,
    client_uri: optionalHttpsUrl(m, "client_uri"),
    logo_uri: optionalHttpsUrl(m, "logo_uri"),
    redirect_uris: redirects as string[],
    grant_types,
    response_types,
    token_endpoint_auth_method: method as AuthMethod,
    scope,
  };
}

/** The registered metadata as RFC 7591 returns it (and as stored). */
export function publicMetadata(c: OAuthClient): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries({
      client_id: c.client_id,
      client_id_issued_at: c.client_id_issued_at,
      client_name: c.client_name,
      client_uri: c.client_uri,
      logo_uri: c.logo_uri,
      redirect_uris: c.redirect_uris,
      grant_types: c.grant_types,
      response_types: c.response_types,
      token_endpoint_auth_method: c.token_endpoint_auth_method,
      scope: c.scope?.join(" "),
    }).filter(([, v]) => v !== undefined),
  );
}
