// RIVALS_SIGNUP: the operator decides whether anyone may create a workspace from the web (open), only people
// an admin invites get an account (invite-only), or there is no sign-up at all (off).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { hidden, Jar } from "../support/members-helpers.ts";

const FORM = { workspace: "Initrode", email: "owner@initrode.example", password: "long enough pw" };

/** Posts the sign-up form with a valid form token (taken from the sign-in page when /signup shows no form). */
async function postSignup(t: TestServer) {
  const jar = new Jar();
  const html = await (await jar.fetch(`${t.base}/signin`)).text();
  return jar.post(`${t.base}/signup`, { ...FORM, csrf: hidden(html, "csrf")! });
}

const orgCount = async (t: TestServer) =>
  Number((await t.services.database.client.execute("SELECT COUNT(*) AS n FROM orgs")).rows[0].n);

const html = async (t: TestServer, path: string) => {
  const res = await fetch(t.base + path, { headers: { accept: "text/html" } });
  return { status: res.status, text: await res.text() };
};

describe("the setting", () => {
  test("open by default; invite-only and off as written, a few spellings; anything else is a clear error", () => {
    expect(loadConfig({}).signup).toBe("open");
    expect(loadConfig({ RIVALS_SIGNUP: "open" }).signup).toBe("open");
    expect(loadConfig({ RIVALS_SIGNUP: " Invite-Only " }).signup).toBe("invite-only");
    expect(loadConfig({ RIVALS_SIGNUP: "invite_only" }).signup).toBe("invite-only");
    expect(loadConfig({ RIVALS_SIGNUP: "off" }).signup).toBe("off");
    expect(() => loadConfig({ RIVALS_SIGNUP: "closed-ish" })).toThrow(
      "RIVALS_SIGNUP must be open, invite-only or off",
    );
  });
});

describe("open", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  test("the form, the links to it, and a new workspace", async () => {
    expect((await html(t, "/signup")).text).toContain('name="workspace"');
    expect((await html(t, "/")).text).toContain('href="/signup"');
    expect((await html(t, "/signin")).text).toContain('href="/signup"');
    const res = await postSignup(t);
    expect(res.status).toBe(303);
    expect(await orgCount(t)).toBe(1);
  });
});

describe("invite-only", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ RIVALS_SIGNUP: "invite-only" });
  });
  afterAll(() => t.close());

  test("/signup explains how to join and has no form; a post creates nothing; no page links to it", async () => {
    const page = await html(t, "/signup");
    expect(page.status).toBe(200);
    expect(page.text).toContain("invitation");
    expect(page.text).not.toContain('name="workspace"');
    const res = await postSignup(t);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("invitation");
    expect(await orgCount(t)).toBe(0);
    for (const path of ["/", "/pricing", "/signin"])
      expect({ path, link: (await html(t, path)).text.includes('href="/signup"') }).toEqual({
        path,
        link: false,
      });
  });
});

describe("off", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ RIVALS_SIGNUP: "off" });
  });
  afterAll(() => t.close());

  test("/signup answers 404 with a page that says so, a post creates nothing, no page links to it", async () => {
    const page = await html(t, "/signup");
    expect(page.status).toBe(404);
    expect(page.text).toContain("takes no sign-ups");
    expect(page.text).not.toContain('name="workspace"');
    const res = await postSignup(t);
    expect(res.status).toBe(404);
    expect(await orgCount(t)).toBe(0);
    for (const path of ["/", "/pricing", "/signin"])
      expect({ path, link: (await html(t, path)).text.includes('href="/signup"') }).toEqual({
        path,
        link: false,
      });
  });
});
