// Connecting an OAuth app to a workspace the way an agent does (registration, the real consent page in a
// signed-in browser, the token endpoint), and calling /mcp with the token. Shared by the connected-apps
// and member-management tests.
import { expect } from "bun:test";
import type { TestServer } from "./helpers.ts";
import { rawPost, toolsCall } from "./mcp-helpers.ts";
import { authorizeInBrowser, type Browser, type ConsentChoice, pkce, redeemCode } from "./oauth-helpers.ts";

export const REDIRECT = "http://127.0.0.1:53682/callback";

export interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
}

/** Registers a public client with this name; returns its client_id. */
export async function registerApp(t: TestServer, name: string): Promise<string> {
  const res = await fetch(`${t.base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      redirect_uris: [REDIRECT],
      client_name: name,
      token_endpoint_auth_method: "none",
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

export function authorizeUrl(
  t: TestServer,
  clientId: string,
  challenge: string,
  scope = "read write",
): string {
  const u = new URL(`${t.base}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope,
    state: "s1",
    resource: `${t.base}/mcp`,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }))
    u.searchParams.set(k, v);
  return u.href;
}

/** Runs the authorization in the signed-in browser and redeems the code. `consentShown` tells whether the
 * consent page was asked (false when a remembered approval answered at once). */
export async function connectApp(
  t: TestServer,
  b: Browser,
  clientId: string,
  choice: ConsentChoice = {},
  scope = "read write",
): Promise<Tokens & { consentShown: boolean }> {
  const { verifier, challenge } = pkce();
  const out = await authorizeInBrowser(b, authorizeUrl(t, clientId, challenge, scope), choice);
  expect(out.location).toBeDefined();
  const res = await redeemCode(t, out.location!, { clientId, redirectUri: REDIRECT, verifier });
  expect(res.status).toBe(200);
  return { ...((await res.json()) as Tokens), consentShown: out.consentShown };
}

/** HTTP status of a tools/call of get_workspace with this bearer token. */
export async function mcpStatus(t: TestServer, token: string): Promise<number> {
  const res = await rawPost(t.base, toolsCall("get_workspace"), { authorization: `Bearer ${token}` });
  await res.body?.cancel();
  return res.status;
}

/** POSTs a refresh_token grant; returns the status. */
export async function refreshStatus(t: TestServer, clientId: string, refreshToken: string): Promise<number> {
  const res = await fetch(`${t.base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: clientId,
    }),
  });
  await res.body?.cancel();
  return res.status;
}
