// The authorization endpoint's refusals and the consent page: PKCE, redirect URI, resource, plans,
// fewer scopes, several workspaces, denial, role and membership changes, audience.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addMember } from "../../src/domain/members.ts";
import { setPlan } from "../../src/domain/orgs.ts";
import { toolsByName } from "../../src/mcp/registry.ts";
import { Grants } from "../../src/oauth/grants.ts";
import { memberDirectory } from "../../src/oauth/members.ts";
import { oauthTokenResolver } from "../../src/oauth/resolver.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { rawPost } from "../support/mcp-helpers.ts";
import {
  authorizeInBrowser,
  Browser,
  type ConsentChoice,
  type Member,
  member,
  oauthError,
  pkce,
  postToken,
  redeemCode,
  signedIn,
} from "../support/oauth-helpers.ts";

const REDIRECT = "http://127.0.0.1:53682/callback";

let t: TestServer;
let clientId: string;
let admin: Member;

async function register(body: object) {
  return fetch(`${t.base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function authUrl(over: Record<string, string | null> = {}, verifierChallenge = pkce().challenge) {
  const p: Record<string, string | null> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: "read write spend",
    state: "st-123",
    resource: `${t.base}/mcp`,
    code_challenge: verifierChallenge,
    code_challenge_method: "S256",
    ...over,
  };
  const u = new URL(`${t.base}/oauth/authorize`);
  for (const [k, v] of Object.entries(p)) if (v !== null) u.searchParams.set(k, v);
  return u.href;
}

async function tokenFor(b: Browser, choice: ConsentChoice = {}, scope = "read write spend") {
  const { verifier, challenge } = pkce();
  const out = await authorizeInBrowser(b, authUrl({ scope }, challenge), choice);
  expect(out.location).toBeDefined();
  const res = await redeemCode(t, out.location!, { clientId, redirectUri: REDIRECT, verifier });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string; scope: string };
}

const call = (token: string, name: string, args: object = {}) =>
  rawPost(
    t.base,
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    { authorization: `Bearer ${token}` },
  );

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  await t.org("beta", "starter");
  await t.org("freebie", "free");
  admin = await member(t, "acme", "admin");
  const reg = await register({
    redirect_uris: [REDIRECT],
    client_name: "Negative agent",
    token_endpoint_auth_method: "none",
  });
  clientId = ((await reg.json()) as { client_id: string }).client_id;
});
afterAll(() => t.close());

describe("errors that are never redirected", () => {
  test("unknown client, missing or unregistered redirect_uri: an error page", async () => {
    const b = await signedIn(t, admin);
    for (const url of [
      authUrl({ client_id: "rvc_unknown" }),
      authUrl({ client_id: null }),
      authUrl({ redirect_uri: null }),
      authUrl({ redirect_uri: "http://127.0.0.1:53682/other" }),
      authUrl({ redirect_uri: "https://attacker.example/callback" }),
      authUrl({ redirect_uri: `${REDIRECT}?x=1` }),
    ]) {
      const res = await b.request(url);
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
      await res.body?.cancel();
    }
  });

  test("a loopback redirect URI may use another port (RFC 8252 7.3)", async () => {
    const b = await signedIn(t, admin);
    const out = await authorizeInBrowser(b, authUrl({ redirect_uri: "http://127.0.0.1:40001/callback" }));
    expect(out.location).toStartWith("http://127.0.0.1:40001/callback?");
  });
});

describe("before anyone signs in", () => {
  test("an error is a page, never a redirect to a self-registered app's redirect_uri (RFC 9700 4.11.2)", async () => {
    const reg = await register({
      redirect_uris: ["https://phish.example/cb"],
      client_name: "Open redirect",
      token_endpoint_auth_method: "none",
    });
    const id = ((await reg.json()) as { client_id: string }).client_id;
    const overs: Record<string, string | null>[] = [
      { response_type: "token" },
      { response_type: null },
      { code_challenge_method: "plain" },
      { code_challenge: null },
      { resource: "https://elsewhere.example/mcp" },
      { scope: "admin" },
      { request: "eyJhbGciOiJub25lIn0.e30." },
      { prompt: "none" },
    ];
    for (const over of overs) {
      const url = authUrl({ client_id: id, redirect_uri: "https://phish.example/cb", ...over });
      const res = await new Browser(t).request(url);
      expect({ over, status: res.status, location: res.headers.get("location") }).toEqual({
        over,
        status: 400,
        location: null,
      });
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("This app's request cannot be completed");
    }
    // Signed in, the same error goes back to the app as RFC 6749 says.
    const b = await signedIn(t, admin);
    const res = await b.request(
      authUrl({ client_id: id, redirect_uri: "https://phish.example/cb", response_type: "token" }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toStartWith(
      "https://phish.example/cb?error=unsupported_response_type",
    );
  });
});

describe("errors returned to the client", () => {
  async function errorOf(url: string) {
    const b = await signedIn(t, admin);
    const res = await b.request(url);
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get("location")!);
    expect(loc.origin + loc.pathname).toBe(REDIRECT);
    expect(loc.searchParams.get("state")).toBe("st-123");
    expect(loc.searchParams.get("iss")).toBe(t.base);
    expect(loc.searchParams.get("code")).toBeNull();
    return { error: loc.searchParams.get("error"), description: loc.searchParams.get("error_description") };
  }

  test("PKCE: plain or missing is refused", async () => {
    expect((await errorOf(authUrl({ code_challenge_method: "plain" }))).error).toBe("invalid_request");
    expect((await errorOf(authUrl({ code_challenge_method: null }))).error).toBe("invalid_request");
    expect((await errorOf(authUrl({ code_challenge: null }))).error).toBe("invalid_request");
    expect((await errorOf(authUrl({ code_challenge: "short" }))).error).toBe("invalid_request");
  });

  test("resource must be this server's MCP URL; a missing one means it", async () => {
    expect((await errorOf(authUrl({ resource: "https://elsewhere.example/mcp" }))).error).toBe(
      "invalid_target",
    );
    expect((await errorOf(authUrl({ resource: t.base }))).error).toBe("invalid_target");
    const b = await signedIn(t, admin);
    const out = await authorizeInBrowser(b, authUrl({ resource: null }));
    expect(new URL(out.location!).searchParams.get("code")).toBeTruthy();
  });

  test("response_type and scope", async () => {
    expect((await errorOf(authUrl({ response_type: "token" }))).error).toBe("unsupported_response_type");
    expect((await errorOf(authUrl({ scope: "read admin" }))).error).toBe("invalid_scope");
  });

  test("denial returns access_denied with state and iss", async () => {
    const b = await signedIn(t, await member(t, "acme", "admin"));
    const out = await authorizeInBrowser(b, authUrl({ scope: "spend" }), { decision: "deny" });
    const loc = new URL(out.location!);
    expect(loc.searchParams.get("error")).toBe("access_denied");
    expect(loc.searchParams.get("state")).toBe("st-123");
    expect(loc.searchParams.get("iss")).toBe(t.base);
  });

  test("prompt=none without approval is consent_required", async () => {
    const other = await member(t, "acme", "member");
    const b = await signedIn(t, other);
    expect((await b.request(authUrl({ prompt: "none" }))).headers.get("location")).toContain(
      "error=consent_required",
    );
  });
});

describe("the consent page", () => {
  test("shows the client's name (escaped) and redirect host, needs the CSRF token", async () => {
    const reg = await register({
      redirect_uris: ["https://agent.example/cb"],
      client_name: '<script>alert("x")</script> Agent',
      token_endpoint_auth_method: "none",
    });
    const id = ((await reg.json()) as { client_id: string }).client_id;
    const b = await signedIn(t, admin);
    const res = await b.request(authUrl({ client_id: id, redirect_uri: "https://agent.example/cb" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toContain("form-action 'self' https://agent.example");
    const html = await res.text();
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("agent.example");
    expect(html).toContain('name="grant_scope" value="spend"');
    // POST without the CSRF token
    const form = new URLSearchParams({
      response_type: "code",
      client_id: id,
      redirect_uri: "https://agent.example/cb",
      scope: "read",
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      decision: "approve",
      org_id: "1",
    });
    const forged = await b.post("/oauth/authorize", form);
    expect(forged.status).toBe(403);
    expect(forged.headers.get("location")).toBeNull();
  });

  test("not signed in: sent to /signin and back", async () => {
    const b = new Browser(t);
    const res = await b.request(authUrl());
    expect(res.status).toBe(303);
    const loc = new URL(res.headers.get("location")!, t.base);
    expect(loc.pathname).toBe("/signin");
    expect(loc.searchParams.get("next")).toStartWith("/oauth/authorize?");
    const out = await authorizeInBrowser(b, authUrl(), {}, admin);
    expect(new URL(out.location!).searchParams.get("code")).toBeTruthy();
  });

  test("fewer scopes can be granted; the token holds only those", async () => {
    const m = await member(t, "acme", "admin");
    const b = await signedIn(t, m);
    const set = await tokenFor(b, { scopes: ["write"] });
    expect(set.scope).toBe("write");
    const res = await call(set.access_token, "list_competitors");
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(res.headers.get("www-authenticate")).toContain('scope="read"');
    // remembered for write only: asking for read again shows the page
    const again = await authorizeInBrowser(b, authUrl({ scope: "read" }), { decision: "deny" });
    expect(again.consentShown).toBe(true);
    const same = await authorizeInBrowser(b, authUrl({ scope: "write" }));
    expect(same.consentShown).toBe(false);
    expect(new URL(same.location!).searchParams.get("code")).toBeTruthy();
  });

  test("a member of a free workspace cannot approve", async () => {
    const m = await member(t, "freebie", "admin");
    const b = await signedIn(t, m);
    const out = await authorizeInBrowser(b, authUrl());
    expect(out.consentShown).toBe(true);
    expect(out.location).toBeUndefined(); // no Allow button
    expect(out.html).toContain("paid plan");
    // posting approval anyway is refused, no code issued
    const html = out.html!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1];
    const orgId = (await t.services.database.client.execute("SELECT id FROM orgs WHERE slug = 'freebie'"))
      .rows[0].id;
    const form = new URLSearchParams(new URL(authUrl()).searchParams);
    form.set("csrf", csrf);
    form.set("decision", "approve");
    form.set("org_id", String(orgId));
    form.append("grant_scope", "read");
    const res = await b.post("/oauth/authorize", form);
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
    // The refusal is the plan table's, as every paid-only feature's (src/domain/plans.ts).
    expect(await res.text()).toContain("Approving an app needs a paid plan (Starter or higher);");
  });

  test("with several workspaces, the member chooses one; the token reads that one", async () => {
    const m = await member(t, "acme", "admin");
    await addMember(t.services.store, { org: "beta", email: m.email, role: "member" });
    const beta = Number(
      (await t.services.database.client.execute("SELECT id FROM orgs WHERE slug = 'beta'")).rows[0].id,
    );
    const b = await signedIn(t, m);
    const out = await authorizeInBrowser(b, authUrl({ scope: "read" }), { decision: "deny" });
    expect(out.html ?? "").toBe(""); // denied: redirected
    const page = await (await b.request(authUrl({ scope: "read" }))).text();
    expect(page).toContain("ACME");
    expect(page).toContain("BETA");
    const set = await tokenFor(b, { orgId: beta }, "read");
    const principal = await resolve(set.access_token);
    expect(principal?.orgSlug).toBe("beta");
    expect(principal?.role).toBe("member");
  });
});

async function resolve(token: string, resource = `${t.base}/mcp`) {
  const members = memberDirectory(t.services);
  const r = await oauthTokenResolver(new Grants(t.services, members.active), members)(token, { resource });
  return r?.kind === "ok" ? r.principal : r?.kind === "invalid" ? undefined : null;
}

describe("what a token acts as", () => {
  test("the approving member's current role, and the org's current plan", async () => {
    const m = await member(t, "acme", "admin");
    const b = await signedIn(t, m);
    const set = await tokenFor(b);
    expect((await resolve(set.access_token))?.role).toBe("admin");
    expect((await resolve(set.access_token))?.via).toBe("oauth");
    await addMember(t.services.store, { org: "acme", email: m.email, role: "member" });
    const p = await resolve(set.access_token);
    expect(p?.role).toBe("member");
    expect(p?.actor).toBe(`user:${m.userId}`);
    if (toolsByName.has("get_delivery_settings")) {
      const res = await call(set.access_token, "get_delivery_settings");
      const body = (await res.json()) as { result: { isError?: boolean; content: { text: string }[] } };
      expect(body.result.isError).toBe(true);
      expect(JSON.parse(body.result.content[0].text).error.code).toBe("forbidden");
    }
    if (toolsByName.has("get_workspace")) {
      const res = await call(set.access_token, "get_workspace");
      expect(await res.text()).toContain('\\"role\\":\\"member\\"');
    }
    await setPlan(t.services.store, "acme", "enterprise");
    expect((await resolve(set.access_token))?.plan).toBe("enterprise");
    await setPlan(t.services.store, "acme", "growth");
  });

  test("a token issued for this server's MCP URL is refused for another audience", async () => {
    const b = await signedIn(t, admin);
    const set = await tokenFor(b);
    expect(await resolve(set.access_token)).toBeTruthy();
    expect(await resolve(set.access_token, "https://other.example/mcp")).toBeUndefined();
  });

  test("a member who left the workspace: the token stops working and cannot be refreshed", async () => {
    const m = await member(t, "acme", "member");
    const b = await signedIn(t, m);
    const set = await tokenFor(b);
    expect((await call(set.access_token, "list_competitors")).status).toBe(200);
    // No removal command exists yet; the membership row goes as the projection would remove it.
    await t.services.store.execute(async ({ tx }) => {
      await tx.execute({ sql: "DELETE FROM memberships WHERE user_id = ?", args: [m.userId] });
      return { events: [], result: null };
    });
    const res = await call(set.access_token, "list_competitors");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const r = await postToken(t, {
      grant_type: "refresh_token",
      refresh_token: set.refresh_token,
      client_id: clientId,
    });
    expect(await oauthError(r)).toBe("invalid_grant");
  });
});

describe("registration (RFC 7591)", () => {
  test("redirect URIs and metadata are checked", async () => {
    const cases: [object, string][] = [
      [{ redirect_uris: ["http://example.com/cb"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://example.com/cb#frag"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{}, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://example.com/cb"], grant_types: ["implicit"] }, "invalid_client_metadata"],
      [
        { redirect_uris: ["https://example.com/cb"], grant_types: ["client_credentials"] },
        "invalid_client_metadata",
      ],
      [{ redirect_uris: ["https://example.com/cb"], response_types: ["token"] }, "invalid_client_metadata"],
      [
        { redirect_uris: ["https://example.com/cb"], token_endpoint_auth_method: "private_key_jwt" },
        "invalid_client_metadata",
      ],
      [{ redirect_uris: ["https://example.com/cb"], scope: "read admin" }, "invalid_client_metadata"],
    ];
    for (const [body, error] of cases) {
      const res = await register(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect({ body, error: await oauthError(res) }).toEqual({ body, error });
    }
    const ok = await register({
      redirect_uris: [
        "http://localhost:8080/cb",
        "http://[::1]:9/cb",
        "https://example.com/cb",
        "com.example.app:/cb",
      ],
      token_endpoint_auth_method: "none",
      scope: "read",
    });
    expect(ok.status).toBe(201);
    const info = (await ok.json()) as Record<string, unknown>;
    expect(info.grant_types).toEqual(["authorization_code", "refresh_token"]);
    expect(info.scope).toBe("read");
    // a client registered for read only cannot ask for more
    const b = await signedIn(t, admin);
    const res = await b.request(
      authUrl({
        client_id: String(info.client_id),
        redirect_uri: "https://example.com/cb",
        scope: "read write",
      }),
    );
    expect(res.headers.get("location")).toContain("error=invalid_scope");
  });
});
