// Per-client-address limits on the public sign-up and free-brief forms: the 11th submission in an hour is
// 429 with Retry-After and a readable page, stores nothing, and other addresses are not affected.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freeBriefsIdle } from "../../src/engine/briefs/freeBriefs.ts";
import { FORM_LIMITS } from "../../src/web/formLimit.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { hidden } from "../support/members-helpers.ts";

let t: TestServer; // the socket address (127.0.0.1) is the client address
let proxied: TestServer; // RIVALS_TRUST_PROXY: X-Forwarded-For is
beforeAll(async () => {
  t = await startTestServer();
  proxied = await startTestServer({ RIVALS_TRUST_PROXY: "1" });
});
afterAll(async () => {
  await freeBriefsIdle(proxied.services);
  await t.close();
  await proxied.close();
});

/** The form's cookie and token, as a browser gets them with the page. */
async function formToken(s: TestServer, path: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(s.base + path);
  const cookie = res.headers.getSetCookie()[0].split(";")[0];
  return { cookie, csrf: hidden(await res.text(), "csrf")! };
}

function post(s: TestServer, path: string, form: Record<string, string>, headers: Record<string, string>) {
  return fetch(s.base + path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
}

async function count(s: TestServer, table: string): Promise<number> {
  return Number((await s.services.database.client.execute(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0].n);
}

describe("sign-up", () => {
  test("every submission counts; the one over the limit is 429 with Retry-After and creates nothing", async () => {
    const { cookie, csrf } = await formToken(t, "/signup");
    const bad = { csrf, workspace: "Acme", email: "a@example.test", password: "short" };
    // a POST without the form token is refused before it counts
    expect((await post(t, "/signup", { ...bad, csrf: "" }, { cookie })).status).toBe(403);
    for (let i = 0; i < FORM_LIMITS.signup; i++)
      expect((await post(t, "/signup", bad, { cookie })).status).toBe(400);
    const good = { csrf, workspace: "Acme", email: "a@example.test", password: "a long passphrase" };
    const res = await post(t, "/signup", good, { cookie });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3600");
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("Too many requests");
    expect(html).toContain("more than 10 times in an hour");
    expect(html).toContain("try again in 60 minutes");
    expect(await count(t, "orgs")).toBe(0);

    t.clock.advance(30 * 60_000);
    const later = await post(t, "/signup", good, { cookie });
    expect(later.status).toBe(429);
    expect(later.headers.get("retry-after")).toBe("1800");
    await later.body?.cancel();
    t.clock.advance(30 * 60_000);
    const created = await post(t, "/signup", good, { cookie });
    expect(created.status).toBe(303);
    expect(await count(t, "orgs")).toBe(1);
  });
});

describe("free brief", () => {
  test("ten requests an hour from one address; the eleventh is 429 and stores nothing", async () => {
    const { cookie, csrf } = await formToken(proxied, "/free-brief");
    const from = (ip: string) => ({ cookie, "x-forwarded-for": ip });
    const form = { csrf, website_url: "globex.example", email: "v@example.test" };
    for (let i = 0; i < FORM_LIMITS.freeBrief; i++)
      expect((await post(proxied, "/free-brief", form, from("203.0.113.7"))).status).toBe(303);
    const res = await post(proxied, "/free-brief", form, from("203.0.113.7"));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBe(3600);
    expect(await res.text()).toContain("Nothing was sent this time.");
    expect(await count(proxied, "free_brief_requests")).toBe(10);

    // another address is not affected, and the two forms are counted apart
    expect((await post(proxied, "/free-brief", form, from("198.51.100.9"))).status).toBe(303);
    const signup = await formToken(proxied, "/signup");
    const ok = await post(
      proxied,
      "/signup",
      { csrf: signup.csrf, workspace: "Beta", email: "b@example.test", password: "a long passphrase" },
      { cookie: signup.cookie, "x-forwarded-for": "203.0.113.7" },
    );
    expect(ok.status).toBe(303);
  });
});
