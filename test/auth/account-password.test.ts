// The Account page: changing one's own password (current password required, 8–200 characters, argon2id
// through UserPasswordSet), the other sessions ending, refusals, the slow-down, and SSO-only accounts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { createSession } from "../../src/auth/session.ts";
import { addMember } from "../../src/domain/members.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { Browser, formValues, type Member, member, parseForms, signedIn } from "../support/oauth-helpers.ts";

const PAGE = "/app/settings/account";
const ACTION = `${PAGE}/password`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
});
afterAll(() => t.close());

async function changeForm(b: Browser, current: string, next: string, again = next): Promise<URLSearchParams> {
  const html = await (await b.request(PAGE)).text();
  const form = parseForms(html).find((f) => f.action === ACTION);
  if (!form) throw new Error("no password form");
  const v = formValues(form);
  v.set("current_password", current);
  v.set("new_password", next);
  v.set("new_password_again", again);
  return v;
}

async function hashOf(userId: number): Promise<string> {
  const r = await t.services.database.client.execute({
    sql: "SELECT password_hash FROM users WHERE id = ?",
    args: [userId],
  });
  return String(r.rows[0].password_hash);
}

async function signInStatus(m: Member, password: string): Promise<number> {
  const b = new Browser(t);
  const page = await b.request("/signin");
  const form = parseForms(await page.text()).find((f) => f.action === "/signin")!;
  const v = formValues(form);
  v.set("email", m.email);
  v.set("password", password);
  const res = await b.post("/signin", v);
  await res.body?.cancel();
  return res.status;
}

describe("changing the password", () => {
  test("the page shows the account and the form", async () => {
    const ann = await member(t, "acme", "member");
    const html = await (await (await signedIn(t, ann)).request(PAGE)).text();
    expect(html).toContain(ann.email);
    expect(html).toContain('name="current_password"');
    expect(html).toContain('href="/app/settings/account" aria-current="page"');
  });

  test("succeeds with the current password: argon2id, an event, this session stays, the others end", async () => {
    const bob = await member(t, "acme", "member");
    const here = await signedIn(t, bob);
    const elsewhere = await signedIn(t, bob);
    const before = await hashOf(bob.userId);
    const res = await here.post(ACTION, await changeForm(here, bob.password, "a brand new passphrase"));
    expect(res.status).toBe(303);
    const after = await hashOf(bob.userId);
    expect(after).not.toBe(before);
    expect(after).toStartWith("$argon2id$");
    expect(await Bun.password.verify("a brand new passphrase", after)).toBe(true);

    const notice = await (await here.request(res.headers.get("location")!)).text();
    expect(notice).toContain("Your password was changed. Your other sessions were signed out.");
    expect((await here.request("/app")).status).toBe(200);
    const gone = await elsewhere.request("/app");
    expect(gone.status).toBe(303);
    expect(gone.headers.get("location")).toStartWith("/signin");

    expect(await signInStatus(bob, bob.password)).toBe(401);
    expect(await signInStatus(bob, "a brand new passphrase")).toBe(303);
    const events = await t.services.database.client.execute({
      sql: "SELECT metadata FROM events WHERE type = 'UserPasswordSet' AND stream_id = ?",
      args: [String(bob.userId)],
    });
    expect(events.rows).toHaveLength(2); // set by `member add`, then changed here
    expect(JSON.parse(String(events.rows[1].metadata)).actor).toBe(`user:${bob.userId}`);
    await rebuildProjections(t.services.store);
    expect(await hashOf(bob.userId)).toBe(after);
  });

  test("refusals change nothing: wrong current password, differing, too short or too long new ones", async () => {
    const cat = await member(t, "acme", "member");
    const b = await signedIn(t, cat);
    const before = await hashOf(cat.userId);
    const cases: [URLSearchParams, string][] = [
      [await changeForm(b, "not my password", "another passphrase"), "The current password is not correct."],
      [
        await changeForm(b, cat.password, "another passphrase", "another passphrasf"),
        "The two new passwords differ",
      ],
      [await changeForm(b, cat.password, "short"), "the new password must be at least 8 characters"],
      [await changeForm(b, cat.password, "x".repeat(201)), "the new password must be at most 200 characters"],
    ];
    for (const [form, message] of cases) {
      const res = await b.post(ACTION, form);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
    expect(await hashOf(cat.userId)).toBe(before);
    expect((await b.request("/app")).status).toBe(200);
  });

  test("CSRF: without the session's token nothing changes", async () => {
    const dan = await member(t, "acme", "member");
    const b = await signedIn(t, dan);
    const form = await changeForm(b, dan.password, "another passphrase");
    form.delete("csrf");
    expect((await b.post(ACTION, form)).status).toBe(403);
    form.set("csrf", "forged");
    expect((await b.post(ACTION, form)).status).toBe(403);
    expect(await Bun.password.verify(dan.password, await hashOf(dan.userId))).toBe(true);
  });

  test("signed out: sent to sign in", async () => {
    const res = await fetch(`${t.base}${ACTION}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "current_password=x",
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toStartWith("/signin");
  });
});

test("guessing the current password is slowed down like sign-in: 429 with Retry-After", async () => {
  const eve = await member(t, "acme", "member");
  const b = await signedIn(t, eve);
  for (let i = 0; i < 5; i++)
    expect((await b.post(ACTION, await changeForm(b, `guess ${i} wrong`, "another passphrase"))).status).toBe(
      400,
    );
  const locked = await b.post(ACTION, await changeForm(b, eve.password, "another passphrase"));
  expect(locked.status).toBe(429);
  expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await locked.text()).toContain("Too many wrong passwords. Wait");
  t.clock.advance(31_000);
  expect((await b.post(ACTION, await changeForm(b, eve.password, "another passphrase"))).status).toBe(303);
});

test("an account without a password (single sign-on) is told so and cannot set one here", async () => {
  const { user_id } = await addMember(t.services.store, {
    org: "acme",
    email: "sso@example.test",
    role: "member",
  });
  const b = new Browser(t);
  b.jar.set((await createSession(t.services, user_id)).cookie);
  const html = await (await b.request(PAGE)).text();
  expect(html).toContain("signs in with single sign-on");
  expect(html).not.toContain('name="current_password"');
  const csrf = formValues(parseForms(html).find((f) => f.action === "/signout")!).get("csrf")!;
  const res = await b.post(
    ACTION,
    new URLSearchParams({
      csrf,
      current_password: "",
      new_password: "a new passphrase",
      new_password_again: "a new passphrase",
    }),
  );
  expect(res.status).toBe(409);
  expect(await res.text()).toContain("has no password here");
});
