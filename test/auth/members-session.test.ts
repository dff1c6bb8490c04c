// The session API every page and the OAuth server build on (src/auth/session.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  createSession,
  endSession,
  formCsrf,
  getSession,
  loadMemberUser,
  memberPrincipal,
  requireSession,
  SESSION_IDLE_MS,
  safeNext,
  verifyCsrf,
  verifyFormCsrf,
} from "../../src/auth/session.ts";
import { sha256 } from "../../src/auth/tokens.ts";
import { addMember } from "../../src/domain/members.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let adaId: number;
const req = (cookie?: string, path = "/app") =>
  new Request(`http://127.0.0.1${path}`, { headers: cookie ? { cookie } : {} });
const cookiePair = (setCookie: string) => setCookie.split(";")[0];

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  await t.org("beta", "free");
  adaId = (await addMember(t.services.store, { org: "acme", email: "ada@x.io", role: "admin", name: "Ada" }))
    .user_id;
  await addMember(t.services.store, { org: "beta", email: "ada@x.io", role: "member" });
});
afterAll(() => t.close());

describe("sessions", () => {
  test("createSession sets an HttpOnly SameSite=Lax cookie and stores only the digest", async () => {
    const { cookie, token } = await createSession(t.services, adaId);
    expect(cookie).toStartWith(`rivals_session=${token};`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).not.toContain("Secure"); // http base URL
    const rows = await t.services.database.client.execute("SELECT token_hash FROM sessions");
    const hashes = rows.rows.map((r) => String(r.token_hash));
    expect(hashes).toContain(sha256(token));
    expect(hashes).not.toContain(token);
  });

  test("getSession returns the user with every membership", async () => {
    const { cookie } = await createSession(t.services, adaId);
    const s = await getSession(t.services, req(cookiePair(cookie)));
    expect(s).not.toBeNull();
    expect(s!.userId).toBe(adaId);
    expect(s!.email).toBe("ada@x.io");
    expect(s!.name).toBe("Ada");
    expect(s!.csrfToken.length).toBeGreaterThan(30);
    expect(s!.memberships.map((m) => [m.orgSlug, m.role, m.plan])).toEqual([
      ["acme", "admin", "growth"],
      ["beta", "member", "free"],
    ]);
    expect(verifyCsrf(s!, s!.csrfToken)).toBe(true);
    expect(verifyCsrf(s!, `${s!.csrfToken}x`)).toBe(false);
    expect(verifyCsrf(s!, "")).toBe(false);
    expect(verifyCsrf(s!, undefined)).toBe(false);
  });

  test("unknown tokens and no cookie give null; requireSession redirects to sign-in with next", async () => {
    expect(await getSession(t.services, req())).toBeNull();
    expect(await getSession(t.services, req("rivals_session=rs_nope"))).toBeNull();
    const r = await requireSession(t.services, req(undefined, "/app/signals/5?x=1"));
    expect(r).toBeInstanceOf(Response);
    expect((r as Response).status).toBe(303);
    expect((r as Response).headers.get("location")).toBe(
      `/signin?next=${encodeURIComponent("/app/signals/5?x=1")}`,
    );
  });

  test("sessions slide with use and expire after the idle window", async () => {
    const { cookie } = await createSession(t.services, adaId);
    const c = cookiePair(cookie);
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect(await getSession(t.services, req(c))).not.toBeNull(); // used: slides
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect(await getSession(t.services, req(c))).not.toBeNull();
    t.clock.advance(SESSION_IDLE_MS + 1);
    expect(await getSession(t.services, req(c))).toBeNull();
  });

  test("endSession deletes the row and clears the cookie", async () => {
    const { cookie, token } = await createSession(t.services, adaId);
    const clear = await endSession(t.services, req(cookiePair(cookie)));
    expect(clear).toContain("Max-Age=0");
    expect(await getSession(t.services, req(cookiePair(cookie)))).toBeNull();
    const r = await t.services.database.client.execute({
      sql: "SELECT 1 FROM sessions WHERE token_hash = ?",
      args: [sha256(token)],
    });
    expect(r.rows).toHaveLength(0);
  });

  test("memberPrincipal takes the role from the membership", async () => {
    const u = (await loadMemberUser(t.services, adaId))!;
    const acme = u.memberships.find((m) => m.orgSlug === "acme")!;
    const beta = u.memberships.find((m) => m.orgSlug === "beta")!;
    const p = memberPrincipal(u, acme.orgId, ["read"])!;
    expect(p).toMatchObject({
      role: "admin",
      actor: `user:${adaId}`,
      via: "oauth",
      scopes: ["read"],
      plan: "growth",
    });
    expect(memberPrincipal(u, beta.orgId, ["read", "write"])!.role).toBe("member");
    expect(memberPrincipal(u, 999_999, ["read"])).toBeNull();
  });

  test("signed-out forms: double-submit CSRF", () => {
    const first = formCsrf(t.services, req());
    expect(first.cookie).toContain("HttpOnly");
    const again = formCsrf(t.services, req(cookiePair(first.cookie!)));
    expect(again.token).toBe(first.token);
    expect(again.cookie).toBeUndefined();
    expect(verifyFormCsrf(t.services, req(cookiePair(first.cookie!)), first.token)).toBe(true);
    expect(verifyFormCsrf(t.services, req(), first.token)).toBe(false);
    expect(verifyFormCsrf(t.services, req(cookiePair(first.cookie!)), "forged")).toBe(false);
  });

  test("safeNext keeps only same-site relative paths", () => {
    expect(safeNext("/app/signals/1?x=2")).toBe("/app/signals/1?x=2");
    expect(safeNext("/oauth/authorize?client_id=a&state=b")).toBe("/oauth/authorize?client_id=a&state=b");
    for (const bad of [
      "//evil.example/",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "app",
      "/a\nb",
      "",
    ])
      expect(safeNext(bad)).toBeUndefined();
  });
});

describe("secure cookies behind https", () => {
  test("Secure and __Host- prefix when the base URL is https", async () => {
    const h = await startTestServer({ RIVALS_BASE_URL: "https://rivals.example" });
    try {
      await h.org("acme");
      const { user_id } = await addMember(h.services.store, { org: "acme", email: "b@x.io", role: "member" });
      const { cookie } = await createSession(h.services, user_id);
      expect(cookie).toStartWith("__Host-rivals_session=");
      expect(cookie).toContain("; Secure");
      expect(await getSession(h.services, req(cookiePair(cookie)))).not.toBeNull();
    } finally {
      await h.close();
    }
  });
});

describe("projections rebuild", () => {
  test("users, memberships and invitations come back the same; sessions are left alone", async () => {
    const { rebuildProjections } = await import("../../projections/rebuild.ts");
    const { inviteMember, acceptInvitation } = await import("../../src/domain/invitations.ts");
    const { hashPassword } = await import("../../src/domain/members.ts");
    const r = await startTestServer();
    try {
      const acme = await r.org("acme", "growth");
      await addMember(r.services.store, {
        org: "acme",
        email: "a@x.io",
        role: "admin",
        password: "password one",
      });
      await addMember(r.services.store, { org: "acme", email: "a@x.io", role: "member" });
      const by = { orgId: acme.id, actor: "user:1" };
      await inviteMember(r.services.store, by, "b@x.io");
      const again = await inviteMember(r.services.store, by, "b@x.io");
      await acceptInvitation(r.services.store, {
        token: again.token,
        name: "Bee",
        passwordHash: await hashPassword("password two"),
      });
      await inviteMember(r.services.store, by, "c@x.io");
      const { user_id } = await addMember(r.services.store, { org: "acme", email: "d@x.io", role: "member" });
      await createSession(r.services, user_id);
      const dump = async () => {
        const out: Record<string, unknown[]> = {};
        for (const table of ["users", "memberships", "invitations", "sessions"])
          out[table] = (
            await r.services.database.client.execute(`SELECT * FROM ${table} ORDER BY 1, 2`)
          ).rows.map((row) => ({ ...row }));
        return out;
      };
      const before = await dump();
      expect(before.invitations.map((i) => (i as { status: string }).status)).toEqual([
        "replaced",
        "accepted",
        "pending",
      ]);
      await rebuildProjections(r.services.store);
      expect(await dump()).toEqual(before);
    } finally {
      await r.close();
    }
  });
});
