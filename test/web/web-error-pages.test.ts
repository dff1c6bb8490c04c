// Missing pages and server errors on the HTML side are pages of the site: the layout and its navigation, and
// for a signed-in person on an /app address the app's own frame. JSON requests keep problem+json.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Elysia } from "elysia";
import { createSession } from "../../src/auth/session.ts";
import { addMember } from "../../src/domain/members.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let cookie: string;

/** Routes that fail the way a bug would: the error hook answers them like any other. */
const failing = (app: Elysia) =>
  app
    .get("/app/broken", () => {
      throw new Error("boom in an app page");
    })
    .get("/broken", () => {
      throw new Error("boom in a public page");
    }) as unknown as Elysia;

beforeAll(async () => {
  t = await startTestServer({}, failing);
  await t.org("acme", "growth");
  const m = await addMember(t.services.store, { org: "acme", email: "ada@acme.example", role: "admin" });
  cookie = (await createSession(t.services, m.user_id)).cookie.split(";")[0];
});
afterAll(() => t.close());

function browse(path: string, withCookie = true, accept = "text/html,application/xhtml+xml") {
  return fetch(t.base + path, {
    headers: { accept, ...(withCookie ? { cookie } : {}) },
    redirect: "manual",
  });
}

async function htmlOf(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  const html = await res.text();
  expect(html).toStartWith("<!doctype html>");
  expect(html).toContain('<header class="site">'); // the site's layout and navigation
  expect(html).toContain('href="/pricing"');
  expect(html).toContain("<style>");
  return html;
}

describe("HTML 404", () => {
  test("signed in, an /app address: the app's frame with its sections, workspace and sign-out", async () => {
    for (const path of ["/app/nothing-here", "/app/signals/999999999", "/app/competitors/abc"]) {
      const html = await htmlOf(await browse(path), 404);
      expect(html).toContain("<title>Page not found · Rivals</title>");
      expect(html).toContain("<h1>Page not found</h1>");
      expect(html).toContain('<nav class="appnav" aria-label="App">');
      expect(html).toContain('href="/app/competitors"');
      expect(html).toContain("ACME"); // the workspace shown
      expect(html).toContain('action="/signout"');
      expect(html).toContain('href="/app">Go to your signals</a>');
    }
  });

  test("signed out, or a public address: the public layout, with sign-in or the person's links", async () => {
    const out = await htmlOf(await browse("/app/nothing-here", false), 404);
    expect(out).toContain('href="/signin">Sign in</a>');
    expect(out).not.toContain('<nav class="appnav"');
    expect(out).toContain('href="/">Go to the start page</a>');
    const pub = await htmlOf(await browse("/no-such-page", false), 404);
    expect(pub).toContain("<h1>Page not found</h1>");
    const signedIn = await htmlOf(await browse("/briefs/nobody"), 404);
    expect(signedIn).toContain('href="/app">Feed</a>');
    expect(signedIn).not.toContain('<nav class="appnav"');
  });

  test("JSON requests still get problem+json not_found", async () => {
    for (const path of ["/app/nothing-here", "/no-such-page", "/api/v1/nothing"]) {
      const res = await browse(path, true, "application/json");
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(((await res.json()) as { code: string }).code).toBe("not_found");
    }
  });
});

describe("HTML 500", () => {
  test("a failing app page: the app's frame, no internals, the request id as a reference", async () => {
    const res = await browse("/app/broken");
    const id = res.headers.get("x-request-id")!;
    const html = await htmlOf(res, 500);
    expect(html).toContain("<h1>Something went wrong</h1>");
    expect(html).toContain('<nav class="appnav" aria-label="App">');
    expect(html).toContain(`<code>${id}</code>`);
    expect(html).not.toContain("boom");
  });

  test("a failing public page: the public layout; JSON gets problem+json internal_error", async () => {
    const html = await htmlOf(await browse("/broken", false), 500);
    expect(html).toContain("<h1>Something went wrong</h1>");
    expect(html).not.toContain("boom");
    const json = await browse("/broken", false, "application/json");
    expect(json.status).toBe(500);
    expect(json.headers.get("content-type")).toBe("application/problem+json");
    const body = (await json.json()) as { code: string; detail: string };
    expect(body.code).toBe("internal_error");
    expect(body.detail).not.toContain("boom");
  });

  test("with the database gone the page still renders (signed out, since no session can be read)", async () => {
    const down = await startTestServer();
    try {
      down.services.database.client.close();
      const res = await fetch(`${down.base}/app`, {
        headers: { accept: "text/html", cookie },
        redirect: "manual",
      });
      const html = await htmlOf(res, 500);
      expect(html).toContain("<h1>Something went wrong</h1>");
      expect(html).toContain('href="/signin">Sign in</a>');
    } finally {
      await down.close();
    }
  });
});
