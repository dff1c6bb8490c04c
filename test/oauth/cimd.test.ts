// Client ID metadata documents: fetched from a loopback server that RIVALS_OAUTH_CIMD_ALLOW_HOSTS names
// (plain http is accepted only for such an allow-listed loopback host), checked, cached per its headers;
// private addresses refused without the allow-list. The fetch goes through the engine's fetcher
// (src/engine/fetch), whose address guard this file's last test checks as well.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isPublicAddress } from "../../src/engine/fetch/index.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { rawPost } from "../support/mcp-helpers.ts";
import {
  authorizeInBrowser,
  type Member,
  member,
  oauthError,
  pkce,
  postToken,
  redeemCode,
  signedIn,
} from "../support/oauth-helpers.ts";

const REDIRECT = "http://127.0.0.1:53682/callback";

let docs: ReturnType<typeof Bun.serve>;
let docBase: string;
const hits = new Map<string, number>();
let t: TestServer;
let bare: TestServer;
let alice: Member;

/** Starts a test server with the allow-list configured (or none). */
function serverWithAllowList(value: string | undefined) {
  return startTestServer(value === undefined ? {} : { RIVALS_OAUTH_CIMD_ALLOW_HOSTS: value });
}

function authUrl(server: TestServer, clientId: string, challenge: string, redirect = REDIRECT) {
  const u = new URL(`${server.base}/oauth/authorize`);
  u.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirect,
    scope: "read",
    state: "s1",
    resource: `${server.base}/mcp`,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }).toString();
  return u.href;
}

beforeAll(async () => {
  docs = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const self = `${docBase}${path}`;
      const doc = (extra: object = {}) => ({
        client_id: self,
        client_name: "Metadata Document Agent",
        client_uri: "https://agent.example",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        ...extra,
      });
      const json = (body: unknown, headers: Record<string, string> = {}) =>
        new Response(JSON.stringify(body), { headers: { "content-type": "application/json", ...headers } });
      switch (path) {
        case "/client.json":
          return json(doc(), { "cache-control": "public, max-age=60" });
        case "/nocache.json":
          return json(doc(), { "cache-control": "no-store" });
        case "/mismatch.json":
          return json(doc({ client_id: `${docBase}/other.json` }));
        case "/secret.json":
          return json(doc({ token_endpoint_auth_method: "client_secret_basic" }));
        case "/big.json":
          return json(doc({ padding: "x".repeat(6000) }));
        case "/redirect.json":
          return new Response(null, { status: 302, headers: { location: "/client.json" } });
        case "/slow.json":
          return new Promise<Response>((resolve) => setTimeout(() => resolve(json(doc())), 8000));
        case "/notjson.json":
          return new Response("<html>", { headers: { "content-type": "text/html" } });
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
  docBase = `http://127.0.0.1:${docs.port}`;
  t = await serverWithAllowList(`127.0.0.1:${docs.port}`);
  bare = await serverWithAllowList(undefined);
  await t.org("acme", "growth");
  alice = await member(t, "acme", "admin");
});
afterAll(async () => {
  await t.close();
  await bare.close();
  docs.stop(true);
});

describe("client ID metadata documents", () => {
  test("full flow: consent shows the document's name, the token works for MCP", async () => {
    const clientId = `${docBase}/client.json`;
    const b = await signedIn(t, alice);
    const { verifier, challenge } = pkce();
    const page = await b.request(authUrl(t, clientId, challenge));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Metadata Document Agent");
    expect(html).toContain(clientId);
    const out = await authorizeInBrowser(b, authUrl(t, clientId, challenge));
    const res = await redeemCode(t, out.location!, { clientId, redirectUri: REDIRECT, verifier });
    expect(res.status).toBe(200);
    const set = (await res.json()) as { access_token: string; scope: string };
    expect(set.scope).toBe("read");
    const call = await rawPost(
      t.base,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_competitors", arguments: {} } },
      { authorization: `Bearer ${set.access_token}` },
    );
    expect(call.status).toBe(200);
  });

  test("cached per Cache-Control max-age, fetched again after it", async () => {
    const clientId = `${docBase}/client.json`;
    const b = await signedIn(t, alice);
    const before = hits.get("/client.json") ?? 0;
    await (await b.request(authUrl(t, clientId, pkce().challenge))).body?.cancel();
    await (await b.request(authUrl(t, clientId, pkce().challenge))).body?.cancel();
    expect(hits.get("/client.json") ?? 0).toBe(before);
    t.clock.advance(61_000);
    await (await b.request(authUrl(t, clientId, pkce().challenge))).body?.cancel();
    expect(hits.get("/client.json")).toBe(before + 1);
  });

  test("no-store documents are fetched every time", async () => {
    const b = await signedIn(t, alice);
    const before = hits.get("/nocache.json") ?? 0;
    await (await b.request(authUrl(t, `${docBase}/nocache.json`, pkce().challenge))).body?.cancel();
    await (await b.request(authUrl(t, `${docBase}/nocache.json`, pkce().challenge))).body?.cancel();
    expect(hits.get("/nocache.json")).toBe(before + 2);
  });

  test("refused documents and requests are an error page, never a redirect", async () => {
    const b = await signedIn(t, alice);
    const cases: [string, string, string?][] = [
      [`${docBase}/mismatch.json`, "does not equal"],
      [`${docBase}/secret.json`, "none"],
      [`${docBase}/big.json`, "larger than"],
      [`${docBase}/redirect.json`, "HTTP 302"],
      [`${docBase}/notjson.json`, "not JSON"],
      [`${docBase}/missing.json`, "HTTP 404"],
      [`${docBase}/client.json#frag`, "fragment"],
      [`${docBase}/`, "path"],
      [`${docBase}/a/../client.json`, ". or .."],
      [`${docBase}/client.json`, "not one the app registered", "https://attacker.example/cb"],
    ];
    for (const [clientId, why, redirect] of cases) {
      const res = await b.request(authUrl(t, clientId, pkce().challenge, redirect));
      const html = await res.text();
      expect({ clientId, status: res.status }).toEqual({ clientId, status: 400 });
      expect(res.headers.get("location")).toBeNull();
      expect({ clientId, has: html.includes(why) }).toEqual({ clientId, has: true });
    }
  });

  test("a document that does not arrive within 5 seconds is refused", async () => {
    const b = await signedIn(t, alice);
    const started = Date.now();
    const res = await b.request(authUrl(t, `${docBase}/slow.json`, pkce().challenge));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("within 5 seconds");
    expect(Date.now() - started).toBeLessThan(7000);
  }, 10_000);

  test("without the allow-list, a loopback (private) host is refused", async () => {
    await bare.org("acme", "growth");
    const m = await member(bare, "acme", "admin");
    const b = await signedIn(bare, m);
    const res = await b.request(authUrl(bare, `${docBase}/client.json`, pkce().challenge));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/must use https|is not allowed/);
    // an https URL to a loopback address is refused for the address
    const https = await b.request(authUrl(bare, "https://127.0.0.1:9/client.json", pkce().challenge));
    expect(await https.text()).toContain("127.0.0.1 is not allowed");
    const ten = await b.request(authUrl(bare, "https://10.1.2.3/client.json", pkce().challenge));
    expect(await ten.text()).toContain("10.1.2.3 is not allowed");
    // a name tells nothing about where it resolves, or whether it does: both answers are the same
    const named = await (
      await b.request(authUrl(bare, "https://localhost./client.json", pkce().challenge))
    ).text();
    expect(named).toContain("localhost is not allowed");
    expect(named).not.toContain("127.0.0.1");
  });

  test("the token endpoint authenticates a document client as public (no secret)", async () => {
    const res = await postToken(t, {
      grant_type: "refresh_token",
      refresh_token: "rvr_x",
      client_id: `${docBase}/client.json`,
      client_secret: "guess",
    });
    expect(res.status).toBe(401);
    expect(await oauthError(res)).toBe("invalid_client");
  });
});

describe("address classification", () => {
  test("private, loopback, link-local, reserved and mapped addresses are non-public", () => {
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "fc00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "2001:db8::1",
      "not an address",
    ])
      expect({ a, blocked: !isPublicAddress(a) }).toEqual({ a, blocked: true });
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "172.32.0.1"])
      expect({ a, blocked: !isPublicAddress(a) }).toEqual({ a, blocked: false });
  });
});
