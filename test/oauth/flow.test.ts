// A full OAuth 2.1 run with oauth4webapi as an independent client: discovery from the 401 of a tools/call,
// dynamic registration, PKCE code flow through the real sign-in and consent pages, token, MCP call,
// refresh with rotation, reuse detection, revocation and code replay.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as oauth from "oauth4webapi";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { rawPost } from "../support/mcp-helpers.ts";
import {
  authorizeInBrowser,
  Browser,
  type Member,
  member,
  oauthError,
  signedIn,
} from "../support/oauth-helpers.ts";

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = "http://127.0.0.1:53682/callback";

let t: TestServer;
let alice: Member;
let browser: Browser;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let resource: string;

const callTool = (token: string | undefined, name = "list_competitors", args: object = {}) =>
  rawPost(
    t.base,
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    token ? { authorization: `Bearer ${token}` } : {},
  );

async function authorize(scope = "read write spend") {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope,
    state,
    resource,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  const out = await authorizeInBrowser(browser, url.href, {}, alice);
  expect(out.location).toBeDefined();
  const params = oauth.validateAuthResponse(as, client, new URL(out.location!), state);
  return { params, verifier, consentShown: out.consentShown };
}

// The grant requests for the MCP resource, unprocessed so a test can read status, headers and error body.
const codeGrant = (
  params: URLSearchParams,
  verifier: string,
  auth: oauth.ClientAuth = oauth.None(),
  c: oauth.Client = client,
) =>
  oauth.authorizationCodeGrantRequest(as, c, auth, params, REDIRECT, verifier, {
    ...insecure,
    additionalParameters: { resource },
  });

const refreshGrant = (token: string) =>
  oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, {
    ...insecure,
    additionalParameters: { resource },
  });

async function exchange(params: URLSearchParams, verifier: string) {
  return oauth.processAuthorizationCodeResponse(as, client, await codeGrant(params, verifier));
}

async function refresh(token: string) {
  return oauth.processRefreshTokenResponse(as, client, await refreshGrant(token));
}

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  alice = await member(t, "acme", "admin");
  browser = await signedIn(t, alice);
});
afterAll(() => t.close());

describe("oauth4webapi against the authorization server", () => {
  test("discovery starts at the 401 of a tools/call", async () => {
    const res = await callTool(undefined);
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toStartWith("Bearer ");
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${t.base}/.well-known/oauth-protected-resource`);
    resource = `${t.base}/mcp`;
    const rs = await oauth.processResourceDiscoveryResponse(new URL(resource), await fetch(metadataUrl!));
    expect(rs.authorization_servers).toEqual([t.base]);
    const issuer = new URL(rs.authorization_servers![0]);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
    );
    expect(as.issuer).toBe(t.base);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.scopes_supported).toEqual(["read", "write", "spend"]);
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.token_endpoint).toBe(`${t.base}/oauth/token`);
    expect(as.revocation_endpoint).toBe(`${t.base}/oauth/revoke`);
    expect(as.registration_endpoint).toBe(`${t.base}/oauth/register`);
  });

  test("dynamic client registration", async () => {
    const res = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        redirect_uris: [REDIRECT],
        client_name: "Flow test agent",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
      insecure,
    );
    client = await oauth.processDynamicClientRegistrationResponse(res);
    expect(client.client_id).toMatch(/^rvc_/);
    expect(client.client_secret).toBeUndefined();
    expect(client.token_endpoint_auth_method).toBe("none");
  });

  let tokens: oauth.TokenEndpointResponse;
  test("PKCE code flow through the sign-in and consent pages, then an MCP call", async () => {
    browser = new Browser(t); // not signed in: the authorization endpoint sends the person to /signin and back
    const { params, verifier, consentShown } = await authorize();
    expect(consentShown).toBe(true);
    expect(params.get("iss")).toBe(t.base);
    tokens = await exchange(params, verifier);
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.access_token).toMatch(/^rvo_/);
    expect(tokens.refresh_token).toMatch(/^rvr_/);
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe("read write spend");
    const res = await callTool(tokens.access_token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { isError?: boolean } };
    expect(body.result.isError).toBeUndefined();
  });

  test("the token response is not cacheable", async () => {
    const { params, verifier } = await authorize();
    const res = await codeGrant(params, verifier);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    await oauth.processAuthorizationCodeResponse(as, client, res);
  });

  test("a repeated request for the same scopes is approved at once (remembered consent)", async () => {
    const { consentShown } = await authorize("read");
    expect(consentShown).toBe(false);
  });

  test("refresh rotates; a reused refresh token revokes the whole family", async () => {
    const first = tokens;
    const second = await refresh(first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await callTool(second.access_token)).status).toBe(200);
    // The old refresh token again: invalid_grant, and everything of the family stops working.
    const reuse = await refreshGrant(first.refresh_token!);
    expect(reuse.status).toBe(400);
    expect(await oauthError(reuse.clone())).toBe("invalid_grant");
    await expect(oauth.processRefreshTokenResponse(as, client, reuse)).rejects.toThrow();
    const after = await callTool(second.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const again = await refreshGrant(second.refresh_token!);
    expect(await oauthError(again)).toBe("invalid_grant");
  });

  test("revocation (RFC 7009): a revoked refresh token takes its access tokens with it", async () => {
    const { params, verifier } = await authorize();
    const set = await exchange(params, verifier);
    expect((await callTool(set.access_token)).status).toBe(200);
    const res = await oauth.revocationRequest(as, client, oauth.None(), set.refresh_token!, insecure);
    await oauth.processRevocationResponse(res);
    const after = await callTool(set.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    // Unknown tokens are answered 200 as well.
    const unknown = await oauth.revocationRequest(as, client, oauth.None(), "rvr_not-a-token", insecure);
    expect(unknown.status).toBe(200);
  });

  test("revoking an access token stops it at once", async () => {
    const { params, verifier } = await authorize();
    const set = await exchange(params, verifier);
    const res = await oauth.revocationRequest(as, client, oauth.None(), set.access_token, {
      ...insecure,
      additionalParameters: { token_type_hint: "access_token" },
    });
    await oauth.processRevocationResponse(res);
    expect((await callTool(set.access_token)).status).toBe(401);
    // its refresh token still works
    const next = await refresh(set.refresh_token!);
    expect((await callTool(next.access_token)).status).toBe(200);
  });

  test("a replayed code is refused and revokes what it issued", async () => {
    const { params, verifier } = await authorize();
    const set = await exchange(params, verifier);
    expect((await callTool(set.access_token)).status).toBe(200);
    const replay = await codeGrant(params, verifier);
    expect(replay.status).toBe(400);
    expect(await oauthError(replay)).toBe("invalid_grant");
    expect((await callTool(set.access_token)).status).toBe(401);
    const r = await refreshGrant(set.refresh_token!);
    expect(await oauthError(r)).toBe("invalid_grant");
  });

  test("a code expires after 60 seconds", async () => {
    const { params, verifier } = await authorize();
    t.clock.advance(61_000);
    const res = await codeGrant(params, verifier);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe("invalid_grant");
    expect(body.error_description).toContain("expired");
  });

  test("a wrong code_verifier is invalid_grant", async () => {
    const { params } = await authorize();
    const res = await codeGrant(params, oauth.generateRandomCodeVerifier());
    expect(await oauthError(res)).toBe("invalid_grant");
  });

  test("an expired access token is 401 invalid_token", async () => {
    const { params, verifier } = await authorize();
    const set = await exchange(params, verifier);
    expect((await callTool(set.access_token)).status).toBe(200);
    t.clock.advance(3601_000);
    const res = await callTool(set.access_token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(res.headers.get("www-authenticate")).toContain("resource_metadata=");
    // the refresh token still gets a new one
    const next = await refresh(set.refresh_token!);
    expect((await callTool(next.access_token)).status).toBe(200);
  });
});

describe("confidential clients", () => {
  test("client_secret_basic: a secret is issued once, checked at the token endpoint", async () => {
    const reg = await fetch(`${t.base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: "Confidential" }),
    });
    expect(reg.status).toBe(201);
    const info = (await reg.json()) as Record<string, unknown>;
    expect(info.token_endpoint_auth_method).toBe("client_secret_basic");
    expect(String(info.client_secret)).toMatch(/^rvs_/);
    expect(info.client_secret_expires_at).toBe(0);
    const secret = String(info.client_secret);
    const conf: oauth.Client = {
      client_id: String(info.client_id),
      token_endpoint_auth_method: "client_secret_basic",
    };
    const saved = client;
    client = conf;
    try {
      const { params, verifier } = await authorize();
      // wrong secret: 401 invalid_client with a Basic challenge
      const bad = await codeGrant(params, verifier, oauth.ClientSecretBasic("wrong"), conf);
      expect(bad.status).toBe(401);
      expect(bad.headers.get("www-authenticate")).toContain("Basic");
      expect(await oauthError(bad)).toBe("invalid_client");
      // no authentication at all
      const none = await codeGrant(params, verifier, oauth.None(), conf);
      expect(none.status).toBe(401);
      await none.body?.cancel();
      const res = await codeGrant(params, verifier, oauth.ClientSecretBasic(secret), conf);
      const set = await oauth.processAuthorizationCodeResponse(as, conf, res);
      expect((await callTool(set.access_token)).status).toBe(200);
      // client_secret_post works too
      const r2 = await oauth.refreshTokenGrantRequest(
        as,
        conf,
        oauth.ClientSecretPost(secret),
        set.refresh_token!,
        {
          ...insecure,
        },
      );
      const set2 = await oauth.processRefreshTokenResponse(as, conf, r2);
      expect((await callTool(set2.access_token)).status).toBe(200);
      // another client cannot use this client's refresh token
      const stolen = await oauth.refreshTokenGrantRequest(
        as,
        saved,
        oauth.None(),
        set2.refresh_token!,
        insecure,
      );
      expect(await oauthError(stolen)).toBe("invalid_grant");
    } finally {
      client = saved;
    }
  });

  test("token endpoint errors are RFC 6749 bodies", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${t.base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body,
      });
    const cases: [string, number, string][] = [
      [`client_id=${client.client_id}&grant_type=password`, 400, "unsupported_grant_type"],
      [`client_id=${client.client_id}`, 400, "invalid_request"],
      [`client_id=${client.client_id}&grant_type=authorization_code`, 400, "invalid_request"],
      [`client_id=${client.client_id}&grant_type=authorization_code&code=x&code=y`, 400, "invalid_request"],
      [`client_id=${client.client_id}&grant_type=refresh_token&refresh_token=nope`, 400, "invalid_grant"],
      ["client_id=nobody&grant_type=refresh_token&refresh_token=nope", 401, "invalid_client"],
      [
        `client_id=${client.client_id}&grant_type=refresh_token&refresh_token=x&resource=${encodeURIComponent("https://elsewhere.example/mcp")}`,
        400,
        "invalid_target",
      ],
      [
        `client_id=${client.client_id}&grant_type=refresh_token&refresh_token=x&scope=admin`,
        400,
        "invalid_scope",
      ],
    ];
    for (const [body, status, error] of cases) {
      const res = await post(body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(res.headers.get("cache-control")).toBe("no-store");
      const json = (await res.json()) as { error: string; error_description: string };
      expect({ body, error: json.error }).toEqual({ body, error });
      expect(typeof json.error_description).toBe("string");
    }
    const form = await post("", { "content-type": "application/json" });
    expect(await oauthError(form)).toBe("invalid_request");
  });
});

describe("housekeeping", () => {
  test("the metadata and token endpoints answer CORS preflights (no credentials)", async () => {
    for (const path of [
      "/oauth/token",
      "/oauth/register",
      "/oauth/revoke",
      "/.well-known/oauth-authorization-server",
    ]) {
      const res = await fetch(`${t.base}${path}`, {
        method: "OPTIONS",
        headers: { origin: "https://inspector.example", "access-control-request-method": "POST" },
      });
      expect({ path, status: res.status }).toEqual({ path, status: 204 });
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  test("codes and tokens are deleted a day after they expire", async () => {
    const count = async (table: string) =>
      Number((await t.services.database.client.execute(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0].n);
    expect(await count("oauth_tokens")).toBeGreaterThan(0);
    t.clock.advance(32 * 24 * 3600_000); // past every refresh token's 30 days, plus the day kept
    await authorize(); // issuing a code runs the clean-up
    expect(await count("oauth_tokens")).toBe(0);
    expect(await count("oauth_codes")).toBe(1);
    expect(await count("oauth_families")).toBe(1);
  });
});
