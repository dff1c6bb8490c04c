// Single sign-on against a real OpenID Connect provider (`oidc-provider`) on loopback, driven with fetch:
// every redirect followed by hand with each site's cookies, the provider's own login and consent forms
// posted as a browser would.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createServer, type Server } from "node:http";
import Provider from "oidc-provider";
import { getSession } from "../../src/auth/session.ts";
import { addMember } from "../../src/domain/members.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { hidden, Jar } from "../support/members-helpers.ts";

// Every password check is a deliberate argon2id computation; leave room when the whole suite runs.
setDefaultTimeout(30_000);

const CLIENT_ID = "rivals-test";
const CLIENT_SECRET = "a-test-client-secret-of-some-length";

/** Accounts the provider knows: login name → claims. */
const ACCOUNTS: Record<string, { email: string; email_verified: boolean; name: string }> = {
  ada: { email: "Ada@X.io", email_verified: true, name: "Ada Lovelace" },
  stranger: { email: "stranger@x.io", email_verified: true, name: "A Stranger" },
  invitee: { email: "newbie@x.io", email_verified: true, name: "New Bie" },
  unverified: { email: "bob@x.io", email_verified: false, name: "Not Bob" },
};

let idp: Server;
let issuer: string;
let t: TestServer;

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

beforeAll(async () => {
  const idpPort = await freePort();
  issuer = `http://127.0.0.1:${idpPort}`;
  t = await startTestServer({
    RIVALS_OIDC_ISSUER: issuer,
    RIVALS_OIDC_CLIENT_ID: CLIENT_ID,
    RIVALS_OIDC_CLIENT_SECRET: CLIENT_SECRET,
  });
  // The provider signs tokens with the real time; the service checks expiry with its clock.
  t.clock.now = new Date();
  await t.org("acme", "growth");
  await addMember(t.services.store, { org: "acme", email: "ada@x.io", role: "admin" });
  await addMember(t.services.store, { org: "acme", email: "bob@x.io", role: "member" });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${t.base}/signin/sso/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ["a-cookie-signing-key-for-tests"] },
    async findAccount(_ctx: unknown, id: string) {
      const a = ACCOUNTS[id];
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...a }) };
    },
  });
  idp = createServer(provider.callback());
  await new Promise<void>((resolve) => idp.listen(idpPort, "127.0.0.1", resolve));
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => idp.close(r));
});

/** Starts SSO at /signin/sso, signs in at the provider as `login`, approves, and stops at the callback's answer. */
async function ssoAs(login: string, next = "/app", jar = new Jar()) {
  let url = `${t.base}/signin/sso?next=${encodeURIComponent(next)}`;
  let res = await jar.fetch(url);
  const hops: string[] = [url];
  let flowCookie: string | undefined;
  for (let i = 0; i < 30; i++) {
    if (res.status >= 300 && res.status < 400) {
      const fromCallback = url.startsWith(`${t.base}/signin/sso/callback`);
      url = new URL(res.headers.get("location")!, url).href;
      hops.push(url);
      // The callback's own answer (or any other page of the service) is where this stops.
      if (fromCallback || (url.startsWith(t.base) && !url.startsWith(`${t.base}/signin/sso`))) break;
      if (url.startsWith(`${t.base}/signin/sso/callback`)) flowCookie = jar.get(t.base, "rivals_sso");
      res = await jar.fetch(url);
      continue;
    }
    if (url.startsWith(issuer) && res.status === 200) {
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = hidden(html, "prompt");
      if (!action || !prompt) throw new Error(`unexpected provider page: ${html.slice(0, 300)}`);
      const fields: Record<string, string> =
        prompt === "login" ? { prompt, login, password: "any" } : { prompt };
      url = new URL(action.replaceAll("&amp;", "&"), url).href;
      res = await jar.post(url, fields);
      continue;
    }
    break;
  }
  return { res, url, hops, jar, flowCookie };
}

async function sessionOf(jar: Jar) {
  return getSession(t.services, new Request(`${t.base}/`, { headers: { cookie: jar.header(t.base) } }));
}

describe("single sign-on with OpenID Connect", () => {
  test("the sign-in page offers SSO when configured", async () => {
    const html = await (await new Jar().fetch(`${t.base}/signin`)).text();
    expect(html).toContain("Sign in with SSO");
    expect(html).toContain('action="/signin/sso"');
  });

  test("the authorization request uses PKCE S256, state and nonce", async () => {
    const jar = new Jar();
    const res = await jar.fetch(`${t.base}/signin/sso?next=/app`);
    expect(res.status).toBe(303);
    const auth = new URL(res.headers.get("location")!);
    expect(auth.origin).toBe(issuer);
    expect(auth.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(auth.searchParams.get("state")).toBeTruthy();
    expect(auth.searchParams.get("nonce")).toBeTruthy();
    expect(auth.searchParams.get("scope")).toBe("openid email profile");
    const flow = res.headers.getSetCookie().find((c) => c.startsWith("rivals_sso="))!;
    expect(flow).toContain("HttpOnly");
    expect(flow).toContain("SameSite=Lax");
  });

  test("a member whose verified email matches is signed in and sent to next", async () => {
    const { res, url, jar } = await ssoAs("ada", "/app/signals/12");
    expect(url).toBe(`${t.base}/app/signals/12`);
    expect(res.status).toBe(303);
    const session = await sessionOf(jar);
    expect(session).not.toBeNull();
    expect(session!.email).toBe("ada@x.io");
    expect(session!.memberships.map((m) => [m.orgSlug, m.role])).toEqual([["acme", "admin"]]);
    const via = await t.services.database.client.execute({
      sql: "SELECT via FROM sessions WHERE token_hash = ?",
      args: [session!.sessionId],
    });
    expect(via.rows[0].via).toBe("sso");
  });

  test("someone with no account and no invitation is refused; nothing is created", async () => {
    const { res, jar } = await ssoAs("stranger");
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Ask a workspace admin to invite you");
    expect(await sessionOf(jar)).toBeNull();
    const users = await t.services.database.client.execute(
      "SELECT 1 FROM users WHERE email = 'stranger@x.io'",
    );
    expect(users.rows).toHaveLength(0);
  });

  test("an address the provider has not verified is refused", async () => {
    const { res, jar } = await ssoAs("unverified");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("not verified");
    expect(await sessionOf(jar)).toBeNull();
  });

  test("a pending invitation lets a new person in through SSO, as member", async () => {
    const { inviteMember } = await import("../../src/domain/invitations.ts");
    const org = (await t.services.database.client.execute("SELECT id FROM orgs WHERE slug = 'acme'")).rows[0];
    await inviteMember(t.services.store, { orgId: Number(org.id), actor: "user:1" }, "newbie@x.io");
    const { res, jar } = await ssoAs("invitee");
    expect(res.status).toBe(303);
    const session = await sessionOf(jar);
    expect(session).toMatchObject({ email: "newbie@x.io", name: "New Bie" });
    expect(session!.memberships.map((m) => [m.orgSlug, m.role])).toEqual([["acme", "member"]]);
    const inv = await t.services.database.client.execute(
      "SELECT status FROM invitations WHERE email = 'newbie@x.io'",
    );
    expect(inv.rows.map((r) => r.status)).toEqual(["accepted"]);
  });

  test("a callback whose state does not match the browser's attempt is refused", async () => {
    const jar = new Jar();
    const start = await jar.fetch(`${t.base}/signin/sso`);
    const state = new URL(start.headers.get("location")!).searchParams.get("state");
    const forged = await jar.fetch(`${t.base}/signin/sso/callback?code=abc&state=${state}x`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("does not match");
    // Without the flow cookie (another browser) the answer is refused as well.
    const other = await new Jar().fetch(`${t.base}/signin/sso/callback?code=abc&state=${state}`);
    expect(other.status).toBe(400);
    expect(await sessionOf(jar)).toBeNull();
  });

  test("a replayed callback (code already used) does not sign in", async () => {
    const { hops, flowCookie } = await ssoAs("ada");
    const callback = hops.find((h) => h.startsWith(`${t.base}/signin/sso/callback`))!;
    expect(callback).toContain("code=");
    expect(flowCookie).toBeTruthy();
    // Even with the original browser's flow cookie, the provider refuses a code that was redeemed.
    const replay = await fetch(callback, {
      headers: { cookie: `rivals_sso=${flowCookie}`, accept: "text/html" },
      redirect: "manual",
    });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("did not confirm");
    expect(replay.headers.getSetCookie().some((c) => c.startsWith("rivals_session="))).toBe(false);
  });

  test("an answer naming another issuer (mix-up) is refused", async () => {
    const jar = new Jar();
    const start = await jar.fetch(`${t.base}/signin/sso`);
    const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
    const res = await jar.fetch(
      `${t.base}/signin/sso/callback?code=abc&state=${state}&iss=${encodeURIComponent("https://evil.example")}`,
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("another issuer");
  });

  test("an ID token is refused once the service's clock is past its expiry", async () => {
    const saved = t.clock.now;
    try {
      t.clock.now = new Date(Date.now() + 2 * 3600 * 1000);
      const { res, jar } = await ssoAs("ada");
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("could not be verified");
      expect(await sessionOf(jar)).toBeNull();
    } finally {
      t.clock.now = saved;
    }
  });
});
