// Members' single sign-on with an OpenID Connect provider (RIVALS_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET).
// Discovery from {issuer}/.well-known/openid-configuration; the authorization code flow with PKCE (S256),
// state and nonce (the authorization URL built by arctic's generic OAuth2Client); the ID token verified with
// jose against the issuer's JWKS (signature, issuer, audience, expiry, nonce). Every request to the provider
// (discovery, token, JWKS, userinfo) goes through the one fetcher, whose `sso` caller may reach the configured
// issuer's origin even on a private network. The flow's secrets travel in a short-lived HttpOnly cookie bound
// to the browser that started it.
import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client } from "arctic";
import {
  createLocalJWKSet,
  type JSONWebKeySet,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
} from "jose";
import { fetcherFor } from "../engine/fetch/index.ts";
import { clientAddress } from "../http/address.ts";
import { clientLogOf, describeError } from "../http/clientLog.ts";
import type { Services } from "../services.ts";
import { isSecure, readCookie } from "./session.ts";
import { randomSecret } from "./tokens.ts";

/** A failure to show the person: the message is safe to display. */
export class SsoError extends Error {}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  id_token_signing_alg_values_supported?: string[];
}

export interface SsoIdentity {
  subject: string;
  email: string;
  name?: string;
}

interface Flow {
  state: string;
  verifier: string;
  nonce: string;
  next: string;
}

const FLOW_TTL_S = 600;
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;

export const SSO_CALLBACK_PATH = "/signin/sso/callback";

function flowCookieName(s: Services): string {
  return isSecure(s) ? "__Host-rivals_sso" : "rivals_sso";
}

function flowCookie(s: Services, value: string, maxAge: number): string {
  return `${flowCookieName(s)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${isSecure(s) ? "; Secure" : ""}`;
}

function sameString(a: unknown, b: string): boolean {
  if (typeof a !== "string" || a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

/** A JSON object from the provider, through the one fetcher (no redirects, no robots.txt: an API). */
async function getJson(
  s: Services,
  url: string,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string } = {},
): Promise<Record<string, unknown>> {
  const res = await fetcherFor(s.config, "sso").fetch({
    url,
    method: init.method ?? "GET",
    headers: { accept: "application/json", ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
    robots: false,
    maxRedirects: 0,
    timeoutMs: FETCH_TIMEOUT_MS,
  });
  if (!res.ok) throw new Error(`${url}: ${res.message}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new Error(`${url} sent no JSON`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new Error(`${url} sent no JSON object`);
  return body as Record<string, unknown>;
}

/** How long a provider's key set is used before it is read again (a key it does not hold is read at once). */
const JWKS_TTL_MS = 10 * 60 * 1000;

export class OidcSignIn {
  private discovery?: { doc: Discovery; at: number };
  private jwks?: { uri: string; set: ReturnType<typeof createLocalJWKSet>; at: number };

  constructor(private s: Services) {}

  get configured(): boolean {
    return !!this.s.config.oidc;
  }

  private get cfg() {
    const c = this.s.config.oidc;
    if (!c) throw new SsoError("Single sign-on is not configured on this server.");
    return c;
  }

  private client(): OAuth2Client {
    return new OAuth2Client(
      this.cfg.clientId,
      this.cfg.clientSecret,
      `${this.s.config.baseUrl}${SSO_CALLBACK_PATH}`,
    );
  }

  /** The issuer's metadata, fetched once an hour; its `issuer` must equal the configured one exactly. */
  async metadata(): Promise<Discovery> {
    const now = Date.now();
    if (this.discovery && now - this.discovery.at < DISCOVERY_TTL_MS) return this.discovery.doc;
    const issuer = this.cfg.issuer;
    let raw: Record<string, unknown>;
    try {
      raw = await getJson(this.s, `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`);
    } catch (e) {
      // Each sign-in attempt would retry: at most a line a minute for the issuer.
      clientLogOf(this.s).emit("error", "sso_discovery_failed", issuer, { error: describeError(e) });
      throw new SsoError(
        "The single sign-on provider cannot be reached. Try again later, or sign in with a password.",
      );
    }
    for (const k of ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"])
      if (typeof raw[k] !== "string")
        throw new SsoError(`The single sign-on provider's metadata lacks ${k}.`);
    if (raw.issuer !== issuer)
      throw new SsoError(
        "The single sign-on provider's metadata names another issuer than the one configured.",
      );
    const doc = raw as unknown as Discovery;
    this.discovery = { doc, at: now };
    return doc;
  }

  /** Starts the flow: the provider's authorization URL and the cookie that carries state, verifier, nonce. */
  async start(next: string): Promise<{ url: string; cookie: string }> {
    const doc = await this.metadata();
    const flow: Flow = {
      state: generateState(),
      verifier: generateCodeVerifier(),
      nonce: randomSecret(),
      next,
    };
    const url = this.client().createAuthorizationURLWithPKCE(
      doc.authorization_endpoint,
      flow.state,
      CodeChallengeMethod.S256,
      flow.verifier,
      ["openid", "email", "profile"],
    );
    url.searchParams.set("nonce", flow.nonce);
    const value = Buffer.from(JSON.stringify(flow)).toString("base64url");
    return { url: url.href, cookie: flowCookie(this.s, value, FLOW_TTL_S) };
  }

  /** The Set-Cookie value that ends the flow cookie. */
  clearFlowCookie(): string {
    return flowCookie(this.s, "", 0);
  }

  /** Finishes the flow on the callback: checks state against the cookie, redeems the code with the
   * verifier, verifies the ID token and returns the verified identity and where to go next. */
  /** The client's address, for the client log (http/clientLog.ts: a line a minute per address). */
  private address(request: Request): string {
    return clientAddress(request, null, this.s.config.trustProxy);
  }

  async finish(request: Request): Promise<{ identity: SsoIdentity; next: string }> {
    const url = new URL(request.url);
    const flow = this.readFlow(request);
    if (!flow)
      throw new SsoError("The sign-in attempt expired or was started in another browser. Start again.");
    if (!sameString(url.searchParams.get("state"), flow.state))
      throw new SsoError("The sign-in answer does not match this browser's attempt. Start again.");
    const error = url.searchParams.get("error");
    if (error)
      throw new SsoError(
        error === "access_denied"
          ? "Single sign-on was cancelled."
          : "The single sign-on provider refused the sign-in.",
      );
    const doc = await this.metadata();
    // RFC 9207: a provider that names itself in the answer must be the one this flow went to.
    const iss = url.searchParams.get("iss");
    if (iss !== null && iss !== doc.issuer)
      throw new SsoError("The sign-in answer comes from another issuer than the configured one.");
    const code = url.searchParams.get("code");
    if (!code) throw new SsoError("The single sign-on provider sent no authorization code.");
    let idToken: string;
    let accessToken: string | undefined;
    try {
      ({ idToken, accessToken } = await this.redeem(doc.token_endpoint, code, flow.verifier));
    } catch (e) {
      clientLogOf(this.s).emit("warn", "sso_code_exchange_failed", this.address(request), {
        error: describeError(e),
      });
      throw new SsoError("The single sign-on provider did not confirm the sign-in. Start again.");
    }
    const claims = await this.verifyIdToken(idToken, flow.nonce, doc, this.address(request));
    let info: JWTPayload = claims;
    if (typeof claims.email !== "string" && doc.userinfo_endpoint && accessToken) {
      const u = await getJson(this.s, doc.userinfo_endpoint, {
        headers: { authorization: `Bearer ${accessToken}` },
      }).catch(() => undefined);
      if (u && u.sub === claims.sub) info = { ...claims, ...u, sub: claims.sub };
    }
    if (typeof info.email !== "string" || !info.email)
      throw new SsoError("The single sign-on provider did not share your email address.");
    if (info.email_verified === false)
      throw new SsoError("The single sign-on provider has not verified your email address.");
    const name =
      typeof info.name === "string" && info.name.trim() ? info.name.trim().slice(0, 100) : undefined;
    return {
      identity: { subject: String(claims.sub), email: info.email, ...(name ? { name } : {}) },
      next: flow.next,
    };
  }

  /** The authorization code grant (RFC 6749 4.1.3) with the PKCE verifier; the client authenticates with
   * HTTP Basic when it has a secret (client_secret_basic), else names itself in the body. */
  private async redeem(
    tokenEndpoint: string,
    code: string,
    verifier: string,
  ): Promise<{ idToken: string; accessToken: string | undefined }> {
    const { clientId, clientSecret } = this.cfg;
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: `${this.s.config.baseUrl}${SSO_CALLBACK_PATH}`,
      code_verifier: verifier,
    });
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
    if (clientSecret)
      headers.authorization = `Basic ${btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`)}`;
    else form.set("client_id", clientId);
    const tokens = await getJson(this.s, tokenEndpoint, { method: "POST", headers, body: form.toString() });
    if (typeof tokens.id_token !== "string") throw new Error("the token answer has no id_token");
    return {
      idToken: tokens.id_token,
      accessToken: typeof tokens.access_token === "string" ? tokens.access_token : undefined,
    };
  }

  /** The provider's key set, read through the one fetcher and kept a while; `fresh` reads it again. */
  private async keySet(uri: string, fresh: boolean): Promise<ReturnType<typeof createLocalJWKSet>> {
    const now = Date.now();
    if (!fresh && this.jwks && this.jwks.uri === uri && now - this.jwks.at < JWKS_TTL_MS)
      return this.jwks.set;
    const set = createLocalJWKSet((await getJson(this.s, uri)) as unknown as JSONWebKeySet);
    this.jwks = { uri, set, at: now };
    return set;
  }

  private async verifyIdToken(
    idToken: string,
    nonce: string,
    doc: Discovery,
    address: string,
  ): Promise<JWTPayload> {
    const options = {
      issuer: doc.issuer,
      audience: this.cfg.clientId,
      currentDate: this.s.clock(),
      clockTolerance: 60,
      requiredClaims: ["sub", "exp", "iat"],
    };
    try {
      let verified: Awaited<ReturnType<typeof jwtVerify>>;
      try {
        verified = await jwtVerify(idToken, await this.keySet(doc.jwks_uri, false), options);
      } catch (e) {
        // A key the kept set does not hold: the provider may have rotated its keys.
        if (!(e instanceof joseErrors.JWKSNoMatchingKey)) throw e;
        verified = await jwtVerify(idToken, await this.keySet(doc.jwks_uri, true), options);
      }
      const { payload } = verified;
      const aud = payload.aud;
      if (Array.isArray(aud) && aud.length > 1 && payload.azp !== this.cfg.clientId)
        throw new Error("azp does not name this client");
      if (!sameString(payload.nonce, nonce)) throw new Error("nonce does not match");
      return payload;
    } catch (e) {
      clientLogOf(this.s).emit("warn", "sso_id_token_refused", address, { error: describeError(e) });
      throw new SsoError("The single sign-on provider's identity token could not be verified.");
    }
  }

  private readFlow(request: Request): Flow | undefined {
    const raw = readCookie(request, flowCookieName(this.s));
    if (!raw || raw.length > 2000) return undefined;
    try {
      const f = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Flow;
      if (typeof f.state !== "string" || typeof f.verifier !== "string" || typeof f.nonce !== "string")
        return undefined;
      return { ...f, next: typeof f.next === "string" ? f.next : "/app" };
    } catch {
      return undefined;
    }
  }
}
