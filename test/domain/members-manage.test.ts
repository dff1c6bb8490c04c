// The Members page: who sees what, role changes, removal (access, sessions and OAuth grants end), the
// last-admin rule, invitations withdrawn, refusals (CSRF, members, other workspaces), and the rebuild.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { inviteMember } from "../../src/domain/invitations.ts";
import { addMember } from "../../src/domain/members.ts";
import { connectApp, mcpStatus, refreshStatus, registerApp } from "../support/app-grants.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import {
  type Browser,
  formValues,
  type Member,
  member,
  parseForms,
  signedIn,
} from "../support/oauth-helpers.ts";

const PAGE = "/app/settings/members";

let t: TestServer;
let acmeId: number;
let zed: Member; // admin of zulu only

beforeAll(async () => {
  t = await startTestServer();
  acmeId = (await t.org("acme", "growth")).id;
  await t.org("zulu", "growth");
  await t.org("beta", "growth");
  zed = await member(t, "zulu", "admin");
});
afterAll(() => t.close());

async function page(b: Browser, org = "acme"): Promise<{ status: number; html: string }> {
  const res = await b.request(`${PAGE}?org=${org}`);
  return { status: res.status, html: await res.text() };
}

/** The form posting to `action` on the page, with its values as the browser would send them. */
function formFor(html: string, action: string): URLSearchParams {
  const form = parseForms(html).find((f) => f.action === action);
  if (!form) throw new Error(`no form for ${action}`);
  return formValues(form);
}

async function roleOf(userId: number, orgId = acmeId): Promise<string | undefined> {
  const r = await t.services.database.client.execute({
    sql: "SELECT role FROM memberships WHERE org_id = ? AND user_id = ?",
    args: [orgId, userId],
  });
  return r.rows[0] ? String(r.rows[0].role) : undefined;
}

describe("the list", () => {
  test("an admin sees members with roles and pending invitations; a member sees people only", async () => {
    const ann = await member(t, "acme", "admin");
    const bob = await member(t, "acme", "member");
    await addMember(t.services.store, {
      org: "acme",
      email: "x@example.test",
      role: "member",
      name: "<i>X</i>",
    });
    await inviteMember(
      t.services.store,
      { orgId: acmeId, actor: `user:${ann.userId}`, actorName: "Ann" },
      "new@example.test",
    );
    const a = await page(await signedIn(t, ann));
    expect(a.status).toBe(200);
    expect(a.html).toContain(ann.email);
    expect(a.html).toContain(bob.email);
    expect(a.html).toContain("&lt;i&gt;X&lt;/i&gt;");
    expect(a.html).not.toContain("<i>X</i>");
    expect(a.html).toContain("new@example.test");
    expect(a.html).toContain("Pending invitations");
    expect(a.html).toContain(`${PAGE}/${bob.userId}/role`);
    expect(a.html).toContain(`${PAGE}/${bob.userId}/remove`);

    const b = await page(await signedIn(t, bob));
    expect(b.status).toBe(200);
    expect(b.html).toContain(ann.email);
    expect(b.html).toContain("Only admins can change roles");
    expect(b.html).not.toContain("new@example.test");
    expect(parseForms(b.html).filter((f) => f.action.startsWith(PAGE))).toHaveLength(0);
  });

  test("signed out: sent to sign in", async () => {
    const res = await fetch(`${t.base}${PAGE}`, { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toStartWith("/signin?next=");
  });
});

describe("roles", () => {
  test("an admin promotes and demotes a member; the change is an event and applies at once", async () => {
    const ann = await member(t, "acme", "admin");
    const cat = await member(t, "acme", "member");
    const a = await signedIn(t, ann);
    const c = await signedIn(t, cat);
    const form = formFor((await page(a)).html, `${PAGE}/${cat.userId}/role`);
    form.set("role", "admin");
    const res = await a.post(`${PAGE}/${cat.userId}/role`, form);
    expect(res.status).toBe(303);
    expect(await roleOf(cat.userId)).toBe("admin");
    expect(await (await a.request(res.headers.get("location")!)).text()).toContain("The role was changed");
    expect((await page(c)).html).toContain("Pending invitations"); // cat is an admin now
    form.set("role", "member");
    expect((await a.post(`${PAGE}/${cat.userId}/role`, form)).status).toBe(303);
    expect(await roleOf(cat.userId)).toBe("member");
    const events = await t.services.database.client.execute({
      sql: "SELECT data FROM events WHERE type = 'MembershipRoleChanged' AND stream_id = ?",
      args: [`${acmeId}:${cat.userId}`],
    });
    expect(events.rows.map((r) => JSON.parse(String(r.data)).role)).toEqual(["admin", "member"]);
  });

  test("an unknown role is 400 and changes nothing", async () => {
    const ann = await member(t, "acme", "admin");
    const dan = await member(t, "acme", "member");
    const a = await signedIn(t, ann);
    const form = formFor((await page(a)).html, `${PAGE}/${dan.userId}/role`);
    form.set("role", "owner");
    const res = await a.post(`${PAGE}/${dan.userId}/role`, form);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("role must be one of admin, member");
    expect(await roleOf(dan.userId)).toBe("member");
  });
});

describe("the last admin", () => {
  test("is never demoted or removed: 409 with a clear message; with a second admin it works", async () => {
    const solo = await t.org("solo", "growth");
    const only = await member(t, "solo", "admin");
    const b = await signedIn(t, only);
    const html = (await page(b, "solo")).html;
    const demote = formFor(html, `${PAGE}/${only.userId}/role`);
    demote.set("role", "member");
    const res = await b.post(`${PAGE}/${only.userId}/role`, demote);
    expect(res.status).toBe(409);
    const text = await res.text();
    expect(text).toContain("is the only admin of this workspace, so they cannot be demoted");
    expect(text).toContain("Make another member an admin first.");
    const remove = await b.post(
      `${PAGE}/${only.userId}/remove`,
      formFor(html, `${PAGE}/${only.userId}/remove`),
    );
    expect(remove.status).toBe(409);
    expect(await remove.text()).toContain("so they cannot be removed");
    expect(await roleOf(only.userId, solo.id)).toBe("admin");

    const second = await member(t, "solo", "admin");
    expect((await b.post(`${PAGE}/${only.userId}/role`, demote)).status).toBe(303);
    expect(await roleOf(only.userId, solo.id)).toBe("member");
    // now `second` is the last admin; they cannot leave either
    const s2 = await signedIn(t, second);
    const leave = await s2.post(
      `${PAGE}/${second.userId}/remove`,
      formFor((await page(s2, "solo")).html, `${PAGE}/${second.userId}/remove`),
    );
    expect(leave.status).toBe(409);
  });

  test("an admin may leave when another admin remains", async () => {
    const two = await t.org("two", "growth");
    const first = await member(t, "two", "admin");
    await member(t, "two", "admin");
    const b = await signedIn(t, first);
    const res = await b.post(
      `${PAGE}/${first.userId}/remove`,
      formFor((await page(b, "two")).html, `${PAGE}/${first.userId}/remove`),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/app");
    expect(await roleOf(first.userId, two.id)).toBeUndefined();
  });
});

describe("removal", () => {
  test("ends the person's access here (pages, sessions, OAuth tokens, remembered approval), not elsewhere", async () => {
    await t.load([
      { kind: "competitor", org: "acme", key: "globex", name: "Globex", watch: "core", tracking: "active" },
    ]);
    const cid = Number(
      (
        await t.services.database.client.execute({
          sql: "SELECT id FROM competitors WHERE org_id = ? AND key = 'globex'",
          args: [acmeId],
        })
      ).rows[0].id,
    );
    const ann = await member(t, "acme", "admin");
    const eve = await member(t, "acme", "member");
    await addMember(t.services.store, { org: "beta", email: eve.email, role: "member" });
    const a = await signedIn(t, ann);
    const e = await signedIn(t, eve);
    const app = await registerApp(t, "Eve's agent");
    const tokens = await connectApp(t, e, app, { orgId: acmeId });
    expect(await mcpStatus(t, tokens.access_token)).toBe(200);
    expect((await e.request(`/app/competitors/${cid}`)).status).toBe(200);

    const res = await a.post(
      `${PAGE}/${eve.userId}/remove`,
      formFor((await page(a)).html, `${PAGE}/${eve.userId}/remove`),
    );
    expect(res.status).toBe(303);
    expect(await (await a.request(res.headers.get("location")!)).text()).toContain("The member was removed");
    expect(await roleOf(eve.userId)).toBeUndefined();
    expect((await page(a)).html).not.toContain(eve.email);

    // the same browser session: acme is gone, beta is still there
    expect((await e.request(`/app/competitors/${cid}`)).status).toBe(404);
    const list = await e.request("/app/competitors?org=acme");
    const html = await list.text();
    expect(html).not.toContain("Globex");
    expect(html).toContain("BETA");
    expect((await e.request("/app/settings/integrations?org=acme")).status).toBe(200); // shows beta
    // OAuth: the access token is refused at once, the refresh token too, and the approval is forgotten
    expect(await mcpStatus(t, tokens.access_token)).toBe(401);
    expect(await refreshStatus(t, app, tokens.refresh_token)).toBe(400);
    const consent = await t.services.database.client.execute({
      sql: "SELECT 1 FROM oauth_consents WHERE user_id = ? AND org_id = ?",
      args: [eve.userId, acmeId],
    });
    expect(consent.rows).toHaveLength(0);
    const revoked = await t.services.database.client.execute({
      sql: "SELECT type FROM events WHERE org_id = ? AND type IN ('MembershipRevoked', 'OAuthConsentRevoked') AND (stream_id = ? OR stream_id LIKE ?)",
      args: [acmeId, `${acmeId}:${eve.userId}`, `${acmeId}:${eve.userId}:%`],
    });
    expect(revoked.rows.map((r) => r.type).sort()).toEqual(["MembershipRevoked", "OAuthConsentRevoked"]);
  });

  test("a removed person can be invited back", async () => {
    const ann = await member(t, "acme", "admin");
    const fay = await member(t, "acme", "member");
    const a = await signedIn(t, ann);
    await a.post(
      `${PAGE}/${fay.userId}/remove`,
      formFor((await page(a)).html, `${PAGE}/${fay.userId}/remove`),
    );
    expect(await roleOf(fay.userId)).toBeUndefined();
    const inv = await inviteMember(
      t.services.store,
      { orgId: acmeId, actor: `user:${ann.userId}` },
      fay.email,
    );
    const f = await signedIn(t, fay);
    const join = await f.request(`/invite/${inv.token}`);
    const form = parseForms(await join.text()).find((x) => x.action.startsWith("/invite/"))!;
    const values = formValues(form);
    values.set("password", fay.password);
    expect((await f.post(form.action, values)).status).toBe(303);
    expect(await roleOf(fay.userId)).toBe("member");
  });
});

describe("refusals", () => {
  test("a member cannot change roles or remove people (403, nothing changes)", async () => {
    const ann = await member(t, "acme", "admin");
    const gus = await member(t, "acme", "member");
    const g = await signedIn(t, gus);
    const csrf = formValues(parseForms((await page(g)).html).find((f) => f.action === "/signout")!).get(
      "csrf",
    )!;
    const form = new URLSearchParams({ csrf, org: "acme", role: "member" });
    const demote = await g.post(`${PAGE}/${ann.userId}/role`, form);
    expect(demote.status).toBe(403);
    expect(await demote.text()).toContain("Only admins of this workspace can change members");
    expect((await g.post(`${PAGE}/${ann.userId}/remove`, form)).status).toBe(403);
    expect(await roleOf(ann.userId)).toBe("admin");
  });

  test("CSRF: without the session's token nothing changes", async () => {
    const ann = await member(t, "acme", "admin");
    const hal = await member(t, "acme", "member");
    const a = await signedIn(t, ann);
    const form = formFor((await page(a)).html, `${PAGE}/${hal.userId}/remove`);
    form.delete("csrf");
    expect((await a.post(`${PAGE}/${hal.userId}/remove`, form)).status).toBe(403);
    form.set("csrf", "forged");
    expect((await a.post(`${PAGE}/${hal.userId}/remove`, form)).status).toBe(403);
    expect(await roleOf(hal.userId)).toBe("member");
  });

  test("another workspace's admin gets 404 for acme's people, whichever org the form names", async () => {
    const ivy = await member(t, "acme", "member");
    const z = await signedIn(t, zed);
    const csrf = formValues(
      parseForms((await page(z, "zulu")).html).find((f) => f.action === "/signout")!,
    ).get("csrf")!;
    for (const org of ["acme", "zulu"]) {
      const form = new URLSearchParams({ csrf, org, role: "admin" });
      expect((await z.post(`${PAGE}/${ivy.userId}/role`, form)).status).toBe(404);
      expect((await z.post(`${PAGE}/${ivy.userId}/remove`, form)).status).toBe(404);
    }
    expect(await roleOf(ivy.userId)).toBe("member");
  });
});

test("an admin withdraws an invitation: its link stops working", async () => {
  const ann = await member(t, "acme", "admin");
  const inv = await inviteMember(
    t.services.store,
    { orgId: acmeId, actor: `user:${ann.userId}` },
    "gone@example.test",
  );
  expect((await fetch(`${t.base}/invite/${inv.token}`)).status).toBe(200);
  const a = await signedIn(t, ann);
  const action = `${PAGE}/invitations/${inv.invitation.id}/withdraw`;
  const res = await a.post(action, formFor((await page(a)).html, action));
  expect(res.status).toBe(303);
  expect((await fetch(`${t.base}/invite/${inv.token}`)).status).toBe(404);
  expect((await page(a)).html).not.toContain("gone@example.test");
  expect((await a.post(action, formFor((await page(a)).html, `${PAGE}/${ann.userId}/remove`))).status).toBe(
    404,
  );
});

test("memberships, invitations and approvals rebuild from the log to the same rows", async () => {
  const dump = async () => {
    const out: Record<string, unknown[]> = {};
    for (const table of ["users", "memberships", "invitations", "oauth_consents"])
      out[table] = (
        await t.services.database.client.execute(`SELECT * FROM ${table} ORDER BY 1, 2, 3`)
      ).rows.map((row) => ({ ...row }));
    return out;
  };
  const before = await dump();
  await rebuildProjections(t.services.store);
  expect(await dump()).toEqual(before);
});
