// The OAuth 2.1 authorization server's HTTP surface: metadata, registration, token, revocation, and the
// authorization endpoint with its consent page (authorize.tsx). docs/oauth.md describes all of it.
import type { Server } from "bun";
import { Elysia } from "elysia";
import type { CredentialResolver } from "../auth/credentials.ts";
import { createFetcher, fetcherOptions } from "../engine/fetch/index.ts";
import { clientAddress } from "../http/address.ts";
import { type ClientLog, clientLog } from "../http/clientLog.ts";
import { limiterFor } from "../http/rateLeases.ts";
import { rateLimit, rateLimitHeaders } from "../http/rateLimit.ts";
import type { Services } from "../services.ts";
import { authorizeRoutes } from "./authorize.tsx";
import { allowHostRules, ClientMetadataDocuments } from "./cimd.ts";
import { parseScope } from "./clientMetadata.ts";
import { Clients } from "./clients.ts";
import { jsonResponse, OAuthError, oauthErrorResponse } from "./errors.ts";
import { Grants } from "./grants.ts";
import { memberDirectory } from "./members.ts";
import { authorizationServerMetadata, mcpResource, OAUTH_PATHS } from "./metadata.ts";
import { oauthTokenResolver } from "./resolver.ts";

export interface OAuthOptions {
  /** Hosts whose metadata documents may be fetched from private addresses (RIVALS_OAUTH_CIMD_ALLOW_HOSTS). */
  cimdAllowHosts?: string[];
  /** Requests per minute per address on /oauth/register and /oauth/token. */
  registerPerMinute?: number;
  tokenPerMinute?: number;
}

export interface OAuthServer {
  clients: Clients;
  grants: Grants;
  documents: ClientMetadataDocuments;
}

const MAX_FORM_BYTES = 16 * 1024;

/** Reads an application/x-www-form-urlencoded body; a parameter sent twice is invalid_request (RFC 6749 3.2). */
async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type))
    throw new OAuthError("invalid_request", "the body must be application/x-www-form-urlencoded");
  const buf = await request.arrayBuffer();
  if (buf.byteLength > MAX_FORM_BYTES) throw new OAuthError("invalid_request", "the body is too large");
  const params = new URLSearchParams(new TextDecoder().decode(buf));
  const seen = new Set<string>();
  for (const k of params.keys()) {
    if (seen.has(k) && k !== "resource")
      throw new OAuthError("invalid_request", `the parameter ${k} was sent more than once`);
    seen.add(k);
  }
  if (params.getAll("resource").length > 1)
    throw new OAuthError("invalid_target", "this server has one resource; send resource once");
  return params;
}

/** The token, registration and revocation endpoints and the metadata take no cookies, so any origin may
 * call them (browser-based MCP clients): CORS with `*`, never with credentials. */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "86400",
};

function withCors(res: Response): Response {
  for (const [k, v] of Object.entries(CORS)) res.headers.set(k, v);
  return res;
}

/** One OAuth endpoint request: what guarded() needs to log a failure against the client's address. */
interface Call {
  request: Request;
  server: Server<unknown> | null;
  requestId: string;
  clientLog: ClientLog;
}

function oauthCall(c: {
  request: Request;
  server: Server<unknown> | null;
  set: { headers: Record<string, unknown> };
  clientLog: ClientLog;
}): Call {
  return {
    request: c.request,
    server: c.server,
    requestId: String(c.set.headers["x-request-id"] ?? ""),
    clientLog: c.clientLog,
  };
}

export function oauthRoutes(s: Services, credentials: CredentialResolver, options: OAuthOptions = {}) {
  const base = s.config.baseUrl;
  const resource = mcpResource(base);
  const allowHosts = options.cimdAllowHosts ?? s.config.oauthCimdAllowHosts;
  // The engine's fetcher and guard; the allow-list joins the rewrite table (its hosts sent to themselves,
  // exempt from the address guard) and there is no pause: a person is waiting for the answer.
  const general = fetcherOptions(s.config);
  const documents = new ClientMetadataDocuments({
    allowHosts,
    clock: s.clock,
    fetcher: createFetcher({
      ...general,
      delayMs: 0,
      clock: s.clock,
      rewrite: [...(general.rewrite ?? []), ...allowHostRules(allowHosts)],
    }),
  });
  const clients = new Clients(s, documents);
  const members = memberDirectory(s);
  const grants = new Grants(s, members.active);
  credentials.addResolver(oauthTokenResolver(grants, members));
  /** OAuth errors as OAuth error responses; a body the client broke, or a failure of ours, in the client
   * log (http/clientLog.ts: at most a line a minute per address). */
  const guarded = (c: Call, fn: () => Promise<Response>): Promise<Response> =>
    fn()
      .catch((e) => {
        if (e instanceof OAuthError) return oauthErrorResponse(e);
        const address = clientAddress(c.request, c.server, s.config.trustProxy);
        if (c.clientLog.caught(c.request, address, c.requestId, e) === "malformed")
          return oauthErrorResponse(new OAuthError("invalid_request", "the request body could not be read"));
        return oauthErrorResponse(
          new OAuthError("server_error", "The server failed to handle this request.", 500),
        );
      })
      .then(withCors);
  // Registration, and the token and revocation endpoints together, each a budget per address (a refusal is an
  // OAuth error like every other answer here), with the client log for what guarded() catches.
  const endpoints = (name: string, perMinute: number) =>
    new Elysia().use(clientLog(s)).use(
      rateLimit(limiterFor(s, name, perMinute), s.config.trustProxy, {
        refuse: (d) =>
          withCors(
            oauthErrorResponse(
              new OAuthError(
                "temporarily_unavailable",
                "Too many requests from this address; retry later.",
                429,
                rateLimitHeaders(d),
              ),
            ),
          ),
      }),
    );

  const metadata = () =>
    new Response(JSON.stringify(authorizationServerMetadata(base)), {
      headers: { "content-type": "application/json", "cache-control": "public, max-age=3600", ...CORS },
    });
  const preflight = () => new Response(null, { status: 204, headers: CORS });

  const register = (c: Call) =>
    guarded(c, async () => {
      const { request } = c;
      if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? ""))
        throw new OAuthError("invalid_client_metadata", "the registration request must be application/json");
      const text = await request.text();
      if (text.length > MAX_FORM_BYTES)
        throw new OAuthError("invalid_client_metadata", "the request is too large");
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new OAuthError("invalid_client_metadata", "the request body is not JSON");
      }
      return jsonResponse(await clients.register(body), 201);
    });

  const token = (c: Call) =>
    guarded(c, async () => {
      const { request } = c;
      const params = await readForm(request);
      const client = await clients.authenticate(request.headers, params);
      const grantType = params.get("grant_type");
      if (!grantType) throw new OAuthError("invalid_request", "grant_type is required");
      if (grantType !== "authorization_code" && grantType !== "refresh_token")
        throw new OAuthError("unsupported_grant_type", `grant_type ${grantType} is not supported`);
      if (!client.grant_types.includes(grantType))
        throw new OAuthError("unauthorized_client", `this client did not register the ${grantType} grant`);
      const res = params.get("resource");
      if (res !== null && res !== resource)
        throw new OAuthError("invalid_target", `the only resource here is ${resource}`);
      if (grantType === "authorization_code") {
        const code = params.get("code");
        if (!code) throw new OAuthError("invalid_request", "code is required");
        return jsonResponse(
          await grants.redeemCode({
            clientId: client.client_id,
            code,
            redirectUri: params.get("redirect_uri"),
            verifier: params.get("code_verifier"),
            resource: res,
          }),
        );
      }
      const refreshToken = params.get("refresh_token");
      if (!refreshToken) throw new OAuthError("invalid_request", "refresh_token is required");
      const scope = params.get("scope");
      return jsonResponse(
        await grants.refresh({
          clientId: client.client_id,
          refreshToken,
          scope: scope === null ? null : parseScope(scope),
          resource: res,
        }),
      );
    });

  const revoke = (c: Call) =>
    guarded(c, async () => {
      const { request } = c;
      const params = await readForm(request);
      const client = await clients.authenticate(request.headers, params);
      const value = params.get("token");
      if (!value) throw new OAuthError("invalid_request", "token is required");
      const hint = params.get("token_type_hint");
      await grants.revoke(client.client_id, value, hint);
      return new Response(null, {
        status: 200,
        headers: { "cache-control": "no-store", pragma: "no-cache" },
      });
    });

  const methodNotAllowed = (allow: string) => () =>
    oauthErrorResponse(new OAuthError("invalid_request", `use ${allow}`, 405, { allow }));

  const server: OAuthServer = { clients, grants, documents };
  return new Elysia()
    .get("/.well-known/oauth-authorization-server", metadata)
    .use(
      endpoints("oauth_register", options.registerPerMinute ?? 30).post(
        OAUTH_PATHS.register,
        (c) => register(oauthCall(c)),
        { parse: "none" },
      ),
    )
    .use(
      endpoints("oauth_token", options.tokenPerMinute ?? 300)
        .post(OAUTH_PATHS.token, (c) => token(oauthCall(c)), { parse: "none" })
        .post(OAUTH_PATHS.revoke, (c) => revoke(oauthCall(c)), { parse: "none" }),
    )
    .options("/.well-known/oauth-authorization-server", preflight)
    .options(OAUTH_PATHS.register, preflight)
    .options(OAUTH_PATHS.token, preflight)
    .options(OAUTH_PATHS.revoke, preflight)
    .get(OAUTH_PATHS.register, methodNotAllowed("POST"))
    .get(OAUTH_PATHS.token, methodNotAllowed("POST"))
    .get(OAUTH_PATHS.revoke, methodNotAllowed("POST"))
    .use(authorizeRoutes(s, server));
}
