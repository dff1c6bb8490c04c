// Invitations end to end: invite_member over MCP, the email on a real SMTP server on loopback, the link
// accepted through the real page with fetch; expiry by the injected clock, single use, re-invitation.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getSession } from "../../src/auth/session.ts";
import { addMember } from "../../src/domain/members.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";
import { hidden, Jar } from "../support/members-helpers.ts";
import { inviteLink, startSmtp, type TestSmtp } from "../support/smtp-helpers.ts";

// Every password check is a deliberate argon2id computation; leave room when the whole suite runs.
setDefaultTimeout(30_000);

let smtp: TestSmtp;
let t: TestServer;
let admin: Client;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestServer({ RIVALS_SMTP_URL: smtp.url, RIVALS_MAIL_FROM: "Rivals <rivals@acme.test>" });
  await t.org("acme", "growth");
  await t.org("other", "growth");
  admin = await mcpClient(t.base, await t.key("acme"));
});
afterAll(async () => {
  await admin.close();
  await t.close();
  await smtp.close();
});

async function invite(email: string, extra: Record<string, unknown> = {}) {
  return body(await admin.callTool({ name: "invite_member", arguments: { email, ...extra } }));
}

/** Opens an invitation link and submits its form. */
async function accept(link: string, fields: Record<string, string>, jar = new Jar()) {
  const page = await jar.fetch(link);
  if (page.status !== 200) return { page, res: undefined, jar };
  const html = await page.text();
  const res = await jar.post(link, { csrf: hidden(html, "csrf")!, ...fields });
  return { page, html, res, jar };
}

async function sessionOf(jar: Jar) {
  return getSession(t.services, new Request(`${t.base}/`, { headers: { cookie: jar.header(t.base) } }));
}

describe("invite_member → email → accept", () => {
  test("the invitee gets an email with a link, sets name and password, joins as member and is signed in", async () => {
    const seen = smtp.mails.length;
    const r = await invite("Carol@Example.com");
    expect(r.email_sent).toBe(true);
    expect(r.invite_url).toBeUndefined();
    expect(r.replaced_earlier_invitation).toBe(false);
    expect(r.invitation).toMatchObject({ email: "carol@example.com", role: "member" });
    expect(Date.parse(r.invitation.expires_at) - t.clock.now.getTime()).toBe(7 * 24 * 3600 * 1000);

    const mail = await smtp.next(seen);
    expect(mail.to).toEqual(["carol@example.com"]);
    expect(mail.from).toBe("rivals@acme.test");
    expect(mail.decoded).toContain("Subject: Join ACME on Rivals");
    const link = inviteLink(mail);
    expect(link).toStartWith(`${t.base}/invite/inv_`);
    // Only the digest of the token is stored.
    const token = link.split("/invite/")[1];
    const rows = await t.services.database.client.execute("SELECT token_hash FROM invitations");
    expect(JSON.stringify(rows.rows)).not.toContain(token);

    const { page, html, res, jar } = await accept(link, { name: "Carol C", password: "a fine password" });
    expect(page.status).toBe(200);
    expect(html).toContain("carol@example.com");
    expect(html).toContain("Join ACME on Rivals");
    expect(res!.status).toBe(303);
    expect(res!.headers.get("location")).toBe("/app");
    const session = await sessionOf(jar);
    expect(session).toMatchObject({ email: "carol@example.com", name: "Carol C" });
    expect(session!.memberships.map((m) => [m.orgSlug, m.role])).toEqual([["acme", "member"]]);

    // The new password signs in.
    const signin = new Jar();
    const form = await (await signin.fetch(`${t.base}/signin`)).text();
    const ok = await signin.post(`${t.base}/signin`, {
      email: "carol@example.com",
      password: "a fine password",
      csrf: hidden(form, "csrf")!,
    });
    expect(ok.status).toBe(303);

    // Single use.
    const reused = await new Jar().fetch(link);
    expect(reused.status).toBe(404);
    expect(await reused.text()).toContain("not valid");
  });

  test("a link stops working after 7 days", async () => {
    const seen = smtp.mails.length;
    await invite("dave@example.com");
    const link = inviteLink(await smtp.next(seen));
    const jar = new Jar();
    const page = await jar.fetch(link);
    expect(page.status).toBe(200);
    const csrf = hidden(await page.text(), "csrf")!;
    t.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    expect((await new Jar().fetch(link)).status).toBe(404);
    const late = await jar.post(link, { csrf, name: "Dave", password: "a fine password" });
    expect(late.status).toBe(404);
    expect(await sessionOf(jar)).toBeNull();
    const users = await t.services.database.client.execute(
      "SELECT 1 FROM users WHERE email = 'dave@example.com'",
    );
    expect(users.rows).toHaveLength(0);
  });

  test("inviting again sends a fresh link; the old one stops working", async () => {
    const seen = smtp.mails.length;
    const first = await invite("erin@example.com");
    const oldLink = inviteLink(await smtp.next(seen));
    const second = await invite("erin@example.com");
    expect(second.replaced_earlier_invitation).toBe(true);
    expect(second.invitation.id).not.toBe(first.invitation.id);
    const newLink = inviteLink(await smtp.next(seen + 1));
    expect(newLink).not.toBe(oldLink);
    expect((await new Jar().fetch(oldLink)).status).toBe(404);
    const { res } = await accept(newLink, { name: "Erin", password: "another password" });
    expect(res!.status).toBe(303);
  });

  test("the form checks its CSRF token and the password rules", async () => {
    const seen = smtp.mails.length;
    await invite("fay@example.com");
    const link = inviteLink(await smtp.next(seen));
    const jar = new Jar();
    await jar.fetch(link);
    const forged = await jar.post(link, { csrf: "forged", name: "Fay", password: "a fine password" });
    expect(forged.status).toBe(403);
    const short = await accept(link, { name: "Fay", password: "short" });
    expect(short.res!.status).toBe(400);
    expect(await short.res!.text()).toContain("at least 8 characters");
    // Still usable after the refusals.
    expect((await accept(link, { name: "Fay", password: "a fine password" })).res!.status).toBe(303);
  });

  test("someone who already has an account confirms with their password", async () => {
    await addMember(t.services.store, {
      org: "other",
      email: "gus@example.com",
      role: "admin",
      password: "gus password",
    });
    const seen = smtp.mails.length;
    await invite("gus@example.com");
    const link = inviteLink(await smtp.next(seen));
    const wrong = await accept(link, { password: "not it at all" });
    expect(wrong.html).toContain("already have a Rivals account");
    expect(wrong.res!.status).toBe(401);
    const right = await accept(link, { password: "gus password", name: "Ignored" });
    expect(right.res!.status).toBe(303);
    const session = await sessionOf(right.jar);
    expect(session!.memberships.map((m) => [m.orgSlug, m.role]).sort()).toEqual([
      ["acme", "member"],
      ["other", "admin"],
    ]);
  });

  test("an address that is already a member is refused; an idempotent retry sends one email", async () => {
    const refused = await invite("carol@example.com");
    expect(refused.error.code).toBe("conflict");
    const seen = smtp.mails.length;
    const a = await invite("hal@example.com", { idempotency_key: "hal-1" });
    const b = await invite("hal@example.com", { idempotency_key: "hal-1" });
    expect(b).toEqual(a);
    await smtp.next(seen);
    await Bun.sleep(300);
    expect(smtp.mails.length).toBe(seen + 1);
  });

  test("list_members: the accepted people as members, pending invitations for the admin", async () => {
    const r = body(await admin.callTool({ name: "list_members", arguments: {} }));
    const emails = r.members.map((m: { email: string }) => m.email);
    expect(emails).toEqual(
      expect.arrayContaining(["carol@example.com", "erin@example.com", "gus@example.com"]),
    );
    expect(r.invitations.map((i: { email: string }) => i.email)).toEqual(["hal@example.com"]);
  });
});

describe("delivery", () => {
  test("when the SMTP server refuses, the tool fails and the link is withdrawn", async () => {
    const s2 = await startTestServer({ RIVALS_SMTP_URL: `smtp://mailer:wrong@127.0.0.1:${smtp.port}` });
    try {
      await s2.org("acme", "starter");
      const c = await mcpClient(s2.base, await s2.key("acme"));
      const r = body(await c.callTool({ name: "invite_member", arguments: { email: "ivy@example.com" } }));
      expect(r.error.code).toBe("delivery_failed");
      const list = body(await c.callTool({ name: "list_members", arguments: {} }));
      expect(list.invitations).toEqual([]);
      await c.close();
    } finally {
      await s2.close();
    }
  });

  test("without RIVALS_SMTP_URL the link comes back in the result instead", async () => {
    const s3 = await startTestServer();
    try {
      await s3.org("acme", "starter");
      const c = await mcpClient(s3.base, await s3.key("acme"));
      const r = body(await c.callTool({ name: "invite_member", arguments: { email: "jo@example.com" } }));
      expect(r.email_sent).toBe(false);
      expect(r.invite_url).toStartWith(`${s3.base}/invite/inv_`);
      expect((await new Jar().fetch(r.invite_url)).status).toBe(200);
      // A retry with the same idempotency key gets the first result without the link: the token is a
      // secret, and no stored result keeps it.
      const args = { email: "kai@example.com", idempotency_key: "invite-kai-1" };
      const first = body(await c.callTool({ name: "invite_member", arguments: args }));
      const token = String(first.invite_url).split("/invite/")[1];
      expect(token).toStartWith("inv_");
      const again = body(await c.callTool({ name: "invite_member", arguments: args }));
      expect(again.invitation).toEqual(first.invitation);
      expect(again.invite_url).toBeUndefined();
      expect(again.invite_url_redacted).toBe(true);
      const stored = await s3.services.database.client.execute("SELECT * FROM idempotency_keys");
      expect(JSON.stringify(stored.rows)).not.toContain(token);
      await c.close();
    } finally {
      await s3.close();
    }
  });
});
