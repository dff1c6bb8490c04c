// The Members page's "Invite someone" form, end to end: the real server on a loopback port with a temp libSQL
// file and a real SMTP server on loopback. The form runs the same command as the invite_member tool
// (src/mail/invitation.ts): one email with a working link, re-invitation replacing the old link, the
// link shown once without a mail server, and every refusal (CSRF, member, free/trial plan, seats, bad
// email, already a member, delivery failure) with the typed address kept.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { Browser, formValues, type Member, member, parseForms, signedIn } from "../support/oauth-helpers.ts";
import { inviteLink, startSmtp, type TestSmtp } from "../support/smtp-helpers.ts";

// Sign-ins and accepted invitations are argon2id work; leave room when the whole suite runs.
setDefaultTimeout(30_000);

const PAGE = "/app/settings/members";
const INVITE = `${PAGE}/invite`;

let smtp: TestSmtp;
let t: TestServer;
let acmeId: number;
let ann: Member; // admin of acme
let bob: Member; // member of acme
let a: Browser; // ann, signed in

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestServer({ RIVALS_SMTP_URL: smtp.url, RIVALS_MAIL_FROM: "Rivals <rivals@acme.test>" });
  acmeId = (await t.org("acme", "growth")).id;
  await t.org("zulu", "growth");
  await t.org("freebie", "free");
  await t.org("newbie", "trial");
  await t.org("tiny", "starter");
  ann = await member(t, "acme", "admin");
  bob = await member(t, "acme", "member");
  a = await signedIn(t, ann);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function page(b: Browser, org = "acme"): Promise<{ status: number; html: string }> {
  const res = await b.request(`${PAGE}?org=${org}`);
  return { status: res.status, html: await res.text() };
}

/** The invitation form of a page, as the browser would send it. */
function inviteForm(html: string): URLSearchParams {
  const form = parseForms(html).find((f) => f.action === INVITE);
  if (!form) throw new Error("no invitation form on the page");
  return formValues(form);
}

/** Fills in the page's invitation form and sends it. */
async function invite(
  b: Browser,
  email: string,
  org = "acme",
): Promise<{ status: number; html: string; headers: Headers }> {
  const form = inviteForm((await page(b, org)).html);
  form.set("email", email);
  const res = await b.post(INVITE, form);
  return { status: res.status, html: await res.text(), headers: res.headers };
}

/** A second server, configured by `env`, with workspace acme (growth) and its admin signed in. */
async function onServer(
  env: Record<string, string>,
  run: (srv: TestServer, admin: Browser) => Promise<void>,
) {
  const srv = await startTestServer(env);
  try {
    await srv.org("acme", "growth");
    await run(srv, await signedIn(srv, await member(srv, "acme", "admin")));
  } finally {
    await srv.close();
  }
}

/** The email field's value in a page (as the browser shows it). */
function typedEmail(html: string): string | undefined {
  return parseForms(html)
    .find((f) => f.action === INVITE)
    ?.inputs.find((i) => i.name === "email")?.value;
}

async function invitations(email: string, status = "pending") {
  const r = await t.services.database.client.execute({
    sql: "SELECT id, org_id, invited_by FROM invitations WHERE email = ? AND status = ?",
    args: [email, status],
  });
  return r.rows.map((row) => ({ ...row }));
}

/** Gives a mail in flight time to arrive, then counts the mails to the address. */
async function mailsTo(email: string): Promise<number> {
  await Bun.sleep(300);
  return smtp.mails.filter((m) => m.to.includes(email)).length;
}

/** Opens an invitation link as a new person and accepts it with a name and a password. */
async function accept(link: string): Promise<Response> {
  const b = new Browser(t);
  const opened = await b.request(link);
  expect(opened.status).toBe(200);
  const form = parseForms(await opened.text()).find((f) => f.action.startsWith("/invite/"))!;
  const values = formValues(form);
  values.set("name", "New Person");
  values.set("password", "a fine password");
  return b.post(form.action, values);
}

describe("the form", () => {
  test("admins see it; members do not, and the page still renders for them", async () => {
    const mine = await page(a);
    expect(mine.status).toBe(200);
    expect(mine.html).toContain("Invite someone");
    const form = inviteForm(mine.html);
    expect(form.get("csrf")).toBeTruthy();
    expect(form.get("org")).toBe("acme");
    expect(form.get("email")).toBe("");
    expect(mine.html).toContain('type="email"');
    expect(mine.html).toContain("They join as a member");
    expect(mine.html).not.toContain("needs a paid plan");

    const theirs = await page(await signedIn(t, bob));
    expect(theirs.status).toBe(200);
    expect(theirs.html).toContain(ann.email);
    expect(theirs.html).toContain(bob.email);
    expect(theirs.html).toContain("see pending invitations and invite people");
    expect(parseForms(theirs.html).filter((f) => f.action === INVITE)).toHaveLength(0);
    expect(theirs.html).not.toContain("Invite someone");
  });

  test("success: one email with a working link; the invitee joins as a member", async () => {
    const seen = smtp.mails.length;
    const res = await invite(a, "Nia@Example.com");
    expect(res.status).toBe(200);
    expect(res.html).toContain("Invitation sent to nia@example.com.");
    expect(typedEmail(res.html)).toBe(""); // the form is ready for the next one
    expect(res.html).toContain('data-invitation-id="'); // listed as pending
    expect(res.html).not.toContain("/invite/inv_"); // the link is in the email only

    const mail = await smtp.next(seen);
    expect(mail.to).toEqual(["nia@example.com"]);
    expect(mail.from).toBe("rivals@acme.test");
    expect(mail.decoded).toContain("Subject: Join ACME on Rivals");
    expect(mail.decoded).toContain("Person "); // the admin's name signs it
    const link = inviteLink(mail);
    expect(link).toStartWith(`${t.base}/invite/inv_`);
    expect(await mailsTo("nia@example.com")).toBe(1);

    const [row] = await invitations("nia@example.com");
    expect(row.org_id).toBe(acmeId);
    const event = await t.services.database.client.execute({
      sql: "SELECT data, metadata FROM events WHERE type = 'InvitationCreated' AND stream_id = ?",
      args: [String(row.id)],
    });
    expect(JSON.parse(String(event.rows[0].data))).toMatchObject({
      email: "nia@example.com",
      role: "member",
    });
    expect(JSON.parse(String(event.rows[0].metadata)).actor).toBe(`user:${ann.userId}`);

    const joined = await accept(link);
    expect(joined.status).toBe(303);
    const role = await t.services.database.client.execute({
      sql: "SELECT m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ? AND m.org_id = ?",
      args: ["nia@example.com", acmeId],
    });
    expect(role.rows.map((r) => r.role)).toEqual(["member"]);
    expect((await page(a)).html).toContain("nia@example.com");
  });

  test("inviting the same address again replaces the invitation: a new email, the old link stops working", async () => {
    const seen = smtp.mails.length;
    expect((await invite(a, "omar@example.com")).status).toBe(200);
    const oldLink = inviteLink(await smtp.next(seen));
    const again = await invite(a, "omar@example.com");
    expect(again.status).toBe(200);
    expect(again.html).toContain("Invitation sent to omar@example.com.");
    expect(again.html).toContain("It replaces the earlier invitation to this address");
    const newLink = inviteLink(await smtp.next(seen + 1));
    expect(newLink).not.toBe(oldLink);
    expect(await mailsTo("omar@example.com")).toBe(2);
    expect(await invitations("omar@example.com")).toHaveLength(1);
    expect(await invitations("omar@example.com", "replaced")).toHaveLength(1);
    // Listed once.
    expect(again.html.split("omar@example.com</td>").length - 1).toBe(1);
    expect((await new Browser(t).request(oldLink)).status).toBe(404);
    expect((await new Browser(t).request(newLink)).status).toBe(200);
  });

  test("without a mail server the admin gets the link once, and it works", async () => {
    await onServer({}, async (bare, admin) => {
      const res = await invite(admin, "pia@example.com");
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.html).toContain("No mail server is configured, so no email was sent.");
      const link = /<input id="invite-link"[^>]*\svalue="([^"]*)"/.exec(res.html)?.[1] ?? "";
      expect(link).toStartWith(`${bare.base}/invite/inv_`);
      expect(res.html).toContain("pia@example.com");
      // Shown once: the next view of the page does not have it.
      expect((await page(admin)).html).not.toContain(link);
      const opened = await new Browser(bare).request(link);
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain("pia@example.com");
      expect(await mailsTo("pia@example.com")).toBe(0);
    });
  });
});

describe("refusals", () => {
  test("CSRF: without the session's token nothing is sent", async () => {
    const form = inviteForm((await page(a)).html);
    form.set("email", "quinn@example.com");
    form.delete("csrf");
    const missing = await a.post(INVITE, form);
    expect(missing.status).toBe(403);
    expect(await missing.text()).toContain("Nothing was changed");
    form.set("csrf", "forged");
    expect((await a.post(INVITE, form)).status).toBe(403);
    expect(await invitations("quinn@example.com")).toHaveLength(0);
    expect(await mailsTo("quinn@example.com")).toBe(0);
  });

  test("a member (not an admin) gets 403 and nothing is sent", async () => {
    const b = await signedIn(t, bob);
    const csrf = formValues(parseForms((await page(b)).html).find((f) => f.action === "/signout")!).get(
      "csrf",
    )!;
    const res = await b.post(INVITE, new URLSearchParams({ csrf, org: "acme", email: "rex@example.com" }));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Only admins of this workspace can invite people.");
    expect(await invitations("rex@example.com")).toHaveLength(0);
    expect(await mailsTo("rex@example.com")).toBe(0);
  });

  test("another workspace's admin gets 404 for acme, whichever org the form names", async () => {
    const z = await signedIn(t, await member(t, "zulu", "admin"));
    const form = inviteForm((await page(z, "zulu")).html);
    form.set("org", "acme");
    form.set("email", "sam@example.com");
    expect((await z.post(INVITE, form)).status).toBe(404);
    expect(await invitations("sam@example.com")).toHaveLength(0);
  });

  test("free and trial plans: a notice naming the plan needed, with a link to the pricing", async () => {
    for (const [org, label] of [
      ["freebie", "Free"],
      ["newbie", "Free trial week"],
    ]) {
      const b = await signedIn(t, await member(t, org, "admin"));
      const shown = await page(b, org);
      expect(shown.html).toContain("Inviting people needs a paid plan (Starter or higher)");
      const res = await invite(b, "tess@example.com", org);
      expect(res.status).toBe(402);
      expect(res.html).toContain(
        `Inviting people needs a paid plan (Starter or higher); this workspace is on ${label}.`,
      );
      expect(res.html).toContain('href="/pricing"');
      expect(res.html).toContain('role="alert"');
      expect(typedEmail(res.html)).toBe("tess@example.com");
    }
    expect(await invitations("tess@example.com")).toHaveLength(0);
    expect(await mailsTo("tess@example.com")).toBe(0);
  });

  test("the plan's seats bound members plus pending invitations", async () => {
    // starter: 5 seats; the admin holds one.
    const b = await signedIn(t, await member(t, "tiny", "admin"));
    for (let i = 1; i <= 4; i++) expect((await invite(b, `seat${i}@example.com`, "tiny")).status).toBe(200);
    expect((await page(b, "tiny")).html).toContain("Seats used: 5 of 5");
    const full = await invite(b, "seat5@example.com", "tiny");
    expect(full.status).toBe(409);
    expect(full.html).toContain("5 member seats are taken by members and pending invitations.");
    expect(full.html).toContain("Withdraw a pending invitation or remove a member to free a seat");
    expect(typedEmail(full.html)).toBe("seat5@example.com");
    expect(await invitations("seat5@example.com")).toHaveLength(0);
    expect(await mailsTo("seat5@example.com")).toBe(0);
    // Re-inviting a pending address replaces it and needs no new seat.
    const again = await invite(b, "seat1@example.com", "tiny");
    expect(again.status).toBe(200);
    expect(again.html).toContain("It replaces the earlier invitation");
  });

  test("a malformed email is refused, kept in the form and escaped", async () => {
    const bad = await invite(a, "not an email");
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("Not sent: email must be an email address.");
    expect(typedEmail(bad.html)).toBe("not an email");
    const evil = '"><script>alert(1)</script>@x.io';
    const hostile = await invite(a, evil);
    expect(hostile.status).toBe(400);
    // Kept inside the quoted attribute, which it cannot leave (its quote is escaped).
    expect(hostile.html).not.toContain('"><script>');
    expect(hostile.html).toContain('value="&#34;><script>alert(1)</script>@x.io"');
    const count = await t.services.database.client.execute({
      sql: "SELECT COUNT(*) AS n FROM invitations WHERE email LIKE '%not an email%' OR email LIKE '%script%'",
      args: [],
    });
    expect(Number(count.rows[0].n)).toBe(0);
  });

  test("an address that is already a member is refused with 409", async () => {
    const res = await invite(a, bob.email.toUpperCase());
    expect(res.status).toBe(409);
    expect(res.html).toContain(`${bob.email} is already a member of this workspace.`);
    expect(typedEmail(res.html)).toBe(bob.email.toUpperCase());
    expect(await mailsTo(bob.email)).toBe(0);
  });

  test("when the mail server refuses, the link is withdrawn and the admin is told", async () => {
    const env = { RIVALS_SMTP_URL: `smtp://mailer:wrong@127.0.0.1:${smtp.port}` };
    await onServer(env, async (wrong, admin) => {
      const res = await invite(admin, "uma@example.com");
      expect(res.status).toBe(502);
      expect(res.html).toContain("The invitation email could not be sent, so its link was withdrawn.");
      expect(typedEmail(res.html)).toBe("uma@example.com");
      const rows = await wrong.services.database.client.execute(
        "SELECT status FROM invitations WHERE email = 'uma@example.com'",
      );
      expect(rows.rows.map((r) => r.status)).toEqual(["revoked"]);
      const events = await wrong.services.database.client.execute(
        "SELECT data FROM events WHERE type = 'InvitationRevoked'",
      );
      expect(events.rows.map((r) => JSON.parse(String(r.data)).reason)).toEqual(["delivery_failed"]);
      expect((await page(admin)).html).not.toContain("uma@example.com</td>");
    });
  });
});
