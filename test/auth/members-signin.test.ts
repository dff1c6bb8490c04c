// Email + password sign-in through the real pages: success, failure, slow-down, CSRF, sign-out, cookies.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { getSession } from "../../src/auth/session.ts";
import { sha256 } from "../../src/auth/tokens.ts";
import { addMember } from "../../src/domain/members.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { hidden, Jar } from "../support/members-helpers.ts";

// Every password check is a deliberate argon2id computation; leave room when the whole suite runs.
setDefaultTimeout(30_000);

const PASSWORD = "correct horse battery";

async function server(env: Record<string, string> = {}) {
  const t = await startTestServer(env);
  await t.org("acme", "growth");
  await addMember(t.services.store, { org: "acme", email: "ada@x.io", role: "admin", password: PASSWORD });
  await addMember(t.services.store, { org: "acme", email: "bob@x.io", role: "member", password: PASSWORD });
  return t;
}

/** Opens the sign-in page (getting the form cookie and token) and posts the form. */
async function signIn(t: TestServer, jar: Jar, email: string, password: string, next?: string) {
  const page = await jar.fetch(`${t.base}/signin${next ? `?next=${encodeURIComponent(next)}` : ""}`);
  const html = await page.text();
  const csrf = hidden(html, "csrf")!;
  return jar.post(`${t.base}/signin`, { email, password, csrf, next: hidden(html, "next") ?? "" });
}

const sessionCookie = (res: Response) =>
  res.headers.getSetCookie().find((c) => c.includes("rivals_session="));

describe("sign-in", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await server();
  });
  afterAll(() => t.close());

  test("the page has the form, a CSRF token and no-store", async () => {
    const jar = new Jar();
    const res = await jar.fetch(`${t.base}/signin`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain('action="/signin"');
    expect(hidden(html, "csrf")).toBe(jar.get(t.base, "rivals_form"));
    expect(html).not.toContain("Sign in with SSO"); // not configured
  });

  test("right password: a session cookie, HttpOnly and SameSite=Lax, and a redirect to next", async () => {
    const jar = new Jar();
    const res = await signIn(t, jar, "Ada@X.io", PASSWORD, "/app/signals/7?tab=evidence");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/app/signals/7?tab=evidence");
    const cookie = sessionCookie(res)!;
    expect(cookie).toMatch(/^rivals_session=rs_[\w-]+; /);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).not.toContain("Secure");
    const token = jar.get(t.base, "rivals_session")!;
    const stored = await t.services.database.client.execute("SELECT token_hash FROM sessions");
    expect(stored.rows.map((r) => r.token_hash)).toContain(sha256(token));
    // Signing in again from the same browser replaces the session instead of adding one.
    const count = async () =>
      Number((await t.services.database.client.execute("SELECT COUNT(*) AS n FROM sessions")).rows[0].n);
    const before = await count();
    const page2 = await (await jar.fetch(`${t.base}/signin?next=/x`)).text();
    expect(page2).toBe(""); // already signed in: a redirect, no form
    const again2 = await jar.post(`${t.base}/signin`, {
      email: "ada@x.io",
      password: PASSWORD,
      csrf: jar.get(t.base, "rivals_form")!,
    });
    expect(again2.status).toBe(303);
    expect(await count()).toBe(before);
    expect(jar.get(t.base, "rivals_session")).not.toBe(token);
    // Signed in: /signin sends the person on.
    const again = await jar.fetch(`${t.base}/signin?next=/app/digests/1`);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/app/digests/1");
  });

  test("next is honoured only for same-site relative paths", async () => {
    for (const next of [
      "//evil.example/x",
      "https://evil.example/",
      "/\\evil.example",
      "javascript:alert(1)",
    ]) {
      const jar = new Jar();
      const page = await (await jar.fetch(`${t.base}/signin?next=${encodeURIComponent(next)}`)).text();
      expect(page).not.toContain("evil.example");
      const res = await jar.post(`${t.base}/signin`, {
        email: "bob@x.io",
        password: PASSWORD,
        csrf: hidden(page, "csrf")!,
        next,
      });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/app");
    }
  });

  test("next is checked after normalisation: dot segments, encoded dots and backslashes never leave the site", async () => {
    const payloads = [
      "/.//evil.example/phish",
      "/..//evil.example/x",
      "/%2e//evil.example/x",
      "/%2E%2E//evil.example/x",
      "/a/..//evil.example/x",
      "/a/b/../..//evil.example/x",
      "/./\\evil.example/x",
      "/.\\/evil.example/x",
      "/\\/evil.example/x",
      "/%5c%5cevil.example/x",
      "/\t/evil.example/x",
    ];
    const leaves = (location: string | null) => {
      expect(location).not.toBeNull();
      const at = new URL(location!, t.base);
      return at.origin !== new URL(t.base).origin || /^[/\\]{2}/.test(location!) || at.host.includes("evil");
    };
    const member = new Jar();
    expect((await signIn(t, member, "bob@x.io", PASSWORD)).status).toBe(303);
    for (const next of payloads) {
      // Signed in: /signin sends the member on at once.
      const on = await member.fetch(`${t.base}/signin?next=${encodeURIComponent(next)}`);
      expect(on.status).toBe(303);
      expect(leaves(on.headers.get("location"))).toBe(false);
      // Signing in: the form's next, as the page wrote it and as posted raw.
      const jar = new Jar();
      const res = await signIn(t, jar, "bob@x.io", PASSWORD, next);
      expect(res.status).toBe(303);
      expect(leaves(res.headers.get("location"))).toBe(false);
      const raw = new Jar();
      const page = await (await raw.fetch(`${t.base}/signin?next=${encodeURIComponent(next)}`)).text();
      expect(leaves(hidden(page, "next") ?? "/app")).toBe(false);
      const posted = await raw.post(`${t.base}/signin`, {
        email: "bob@x.io",
        password: PASSWORD,
        csrf: hidden(page, "csrf")!,
        next,
      });
      expect(posted.status).toBe(303);
      expect(leaves(posted.headers.get("location"))).toBe(false);
    }
    // A path that only looks odd keeps its meaning.
    const fine = await member.fetch(
      `${t.base}/signin?next=${encodeURIComponent("/app/./signals/../digests/1")}`,
    );
    expect(fine.headers.get("location")).toBe("/app/digests/1");
  });

  test("wrong password and unknown account get the same generic answer", async () => {
    const wrong = await signIn(t, new Jar(), "bob@x.io", "not the password");
    const unknown = await signIn(t, new Jar(), "nobody@x.io", "not the password");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(sessionCookie(wrong)).toBeUndefined();
    const a = (await wrong.text()).replace(/name="csrf" value="[^"]*"|value="[^"]*@x\.io"/g, "");
    const b = (await unknown.text()).replace(/name="csrf" value="[^"]*"|value="[^"]*@x\.io"/g, "");
    expect(a).toBe(b);
    expect(a).toContain("do not match an account");
  });

  test("a post without the form's CSRF token is refused", async () => {
    const jar = new Jar();
    await jar.fetch(`${t.base}/signin`);
    const forged = await jar.post(`${t.base}/signin`, {
      email: "ada@x.io",
      password: PASSWORD,
      csrf: "forged",
    });
    expect(forged.status).toBe(403);
    expect(sessionCookie(forged)).toBeUndefined();
    // A cross-site form post carries no form cookie at all.
    const bare = await fetch(`${t.base}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "ada@x.io", password: PASSWORD, csrf: "x" }),
      redirect: "manual",
    });
    expect(bare.status).toBe(403);
    expect(sessionCookie(bare)).toBeUndefined();
  });

  test("sign-out needs the session's CSRF token and deletes the session", async () => {
    const jar = new Jar();
    await signIn(t, jar, "ada@x.io", PASSWORD);
    const request = new Request(`${t.base}/`, { headers: { cookie: jar.header(t.base) } });
    const session = (await getSession(t.services, request))!;
    expect(session.email).toBe("ada@x.io");

    const forged = await jar.post(`${t.base}/signout`, { csrf: "nope" });
    expect(forged.status).toBe(403);
    expect(await getSession(t.services, request)).not.toBeNull();

    const out = await jar.post(`${t.base}/signout`, { csrf: session.csrfToken });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/signin?signed_out=1");
    expect(
      out.headers.getSetCookie().some((c) => c.startsWith("rivals_session=;") && c.includes("Max-Age=0")),
    ).toBe(true);
    expect(await getSession(t.services, request)).toBeNull();
    const rows = await t.services.database.client.execute({
      sql: "SELECT COUNT(*) AS n FROM sessions WHERE token_hash = ?",
      args: [session.sessionId],
    });
    expect(Number(rows.rows[0].n)).toBe(0);
  });
});

describe("slow-down of failed sign-ins", () => {
  test("per account: after 5 failures a growing lock, 429 with Retry-After, even for the right password", async () => {
    const t = await server();
    try {
      for (let i = 0; i < 5; i++) {
        const r = await signIn(t, new Jar(), "ada@x.io", `guess ${i}`);
        expect(r.status).toBe(i < 4 ? 401 : 429);
      }
      const locked = await signIn(t, new Jar(), "ada@x.io", PASSWORD);
      expect(locked.status).toBe(429);
      expect(locked.headers.get("retry-after")).toBe("30");
      expect(await locked.text()).toContain("Too many failed sign-ins");
      expect(sessionCookie(locked)).toBeUndefined();
      // Another account from the same address is not locked.
      expect((await signIn(t, new Jar(), "bob@x.io", PASSWORD)).status).toBe(303);

      t.clock.advance(31_000);
      expect((await signIn(t, new Jar(), "ada@x.io", "guess again")).status).toBe(429);
      // The second lock is twice as long.
      const retry = Number((await signIn(t, new Jar(), "ada@x.io", PASSWORD)).headers.get("retry-after"));
      expect(retry).toBe(60);
      t.clock.advance(61_000);
      const ok = await signIn(t, new Jar(), "ada@x.io", PASSWORD);
      expect(ok.status).toBe(303);
      // Success clears the account's count.
      expect((await signIn(t, new Jar(), "ada@x.io", "typo")).status).toBe(401);
    } finally {
      await t.close();
    }
  });

  test("per address: 20 failures over many accounts lock that address", async () => {
    const t = await server();
    try {
      for (let i = 0; i < 20; i++) {
        const r = await signIn(t, new Jar(), `spray${i}@x.io`, "password1");
        expect(r.status).toBe(i < 19 ? 401 : 429);
      }
      const r = await signIn(t, new Jar(), "bob@x.io", PASSWORD);
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      t.clock.advance(31_000);
      expect((await signIn(t, new Jar(), "bob@x.io", PASSWORD)).status).toBe(303);
    } finally {
      await t.close();
    }
  });
});

describe("behind https", () => {
  test("the session cookie is Secure with the __Host- prefix", async () => {
    const t = await server({ RIVALS_BASE_URL: "https://rivals.example" });
    try {
      const port = t.services.config.port;
      const local = `http://127.0.0.1:${port}`;
      const jar = new Jar();
      const page = await (await jar.fetch(`${local}/signin`)).text();
      const form = jar.header(local);
      expect(form).toStartWith("__Host-rivals_form=");
      const res = await jar.post(`${local}/signin`, {
        email: "ada@x.io",
        password: PASSWORD,
        csrf: hidden(page, "csrf")!,
      });
      expect(res.status).toBe(303);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-rivals_session="))!;
      expect(cookie).toContain("; Secure");
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Lax");
    } finally {
      await t.close();
    }
  });
});
