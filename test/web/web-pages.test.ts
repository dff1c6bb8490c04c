// Every page of docs/web.md over real HTTP: status, content type, key content, escaping of hostile records,
// 404 both ways, CSRF refusals, tenancy, the integrations page's key life cycle, the public forms.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { createSession } from "../../src/auth/session.ts";
import { PROBLEM_CODES } from "../../src/contract/problem.ts";
import { PLAN_NAMES, PLANS } from "../../src/domain/plans.ts";
import { labelInText } from "../../src/domain/vocabulary.ts";
import { freeBriefsIdle } from "../../src/engine/briefs/freeBriefs.ts";
import { READ_API_PATHS, startTestServer, type TestServer } from "../support/helpers.ts";
import { rawPost, toolsCall } from "../support/mcp-helpers.ts";
import {
  browse,
  csrfOf,
  FEED_SIGNALS,
  loadWebFixture,
  postForm,
  type WebFixture,
  XSS,
  XSS_ESCAPED,
} from "../support/web-fixture.ts";

let t: TestServer;
let f: WebFixture;

beforeAll(async () => {
  t = await startTestServer();
  f = await loadWebFixture(t);
});
afterAll(async () => {
  await freeBriefsIdle(t.services);
  await t.close();
});

const id = (k: string) => {
  const v = f.ids[k];
  if (v === undefined) throw new Error(`no id for ${k}`);
  return v;
};

async function page(path: string, cookie?: string, status = 200) {
  const res = await browse(t, path, cookie);
  const html = await res.text();
  expect({ path, status: res.status }).toEqual({ path, status });
  if (status === 200) {
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('name="viewport"');
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    // No third-party assets: no CDN, fonts or scripts from elsewhere.
    expect(html).not.toMatch(/<(script|link)\b[^>]*(src|href)="https?:/i);
    expect(html).not.toContain(XSS);
  }
  return { res, html };
}

describe("public pages", () => {
  test("landing, pricing, developers, free brief and signup render", async () => {
    expect((await page("/")).html).toContain('href="/signup"');
    expect((await page("/free-brief")).html).toContain('name="email"');
    const signup = (await page("/signup")).html;
    for (const name of ["workspace", "email", "password", "csrf"]) expect(signup).toContain(`name="${name}"`);
  });

  test("pricing shows every number of the plan table", async () => {
    const { html } = await page("/pricing");
    const row = (label: string) => {
      const m = new RegExp(`<th scope="row">${label}</th>(.*?)</tr>`, "s").exec(html);
      if (!m) throw new Error(`no row ${label}`);
      return [...m[1].matchAll(/<td>(.*?)<\/td>/g)].map((x) => x[1]);
    };
    const plans = PLAN_NAMES.map((n) => PLANS[n]);
    for (const p of plans) expect(html).toContain(p.label);
    expect(row("Core competitor slots")).toEqual(plans.map((p) => String(p.coreSlots)));
    expect(row("Research updates per week")).toEqual(plans.map((p) => String(p.weeklyResearchAllowance)));
    expect(row("Battlecards generated per day")).toEqual(plans.map((p) => String(p.dailyCaps.battlecards)));
    expect(row("ICP updates per day")).toEqual(plans.map((p) => String(p.dailyCaps.icpUpdates)));
    expect(row("Positioning drafts per day")).toEqual(
      plans.map((p) => String(p.dailyCaps.positioningDrafts)),
    );
    expect(row("Pages read in a browser per day")).toEqual(plans.map((p) => String(p.dailyCaps.renders)));
    expect(row("Member seats")).toEqual(plans.map((p) => String(p.memberSeats)));
    expect(row("Monitored pages per competitor")).toEqual(
      plans.map((p) => String(p.monitoredPagesPerCompetitor)),
    );
    row("Share link lifetime").forEach((cell, i) => {
      expect(cell).toContain(`${plans[i].shareLinkHours} hours`);
    });
    row("Monitoring cadences").forEach((cell, i) => {
      for (const c of plans[i].cadences) expect(cell).toContain(labelInText(c));
    });
    for (const feature of PLANS.free.paidOnlyFeatures) expect(html).toContain(feature);
  });

  test("developers: base URL, both headers, every endpoint, an anchor per problem code, OpenAPI and MCP links", async () => {
    const { html } = await page("/developers");
    expect(html).toContain(`${t.base}/api/v1`);
    expect(html).toContain("Authorization: Bearer");
    expect(html).toContain("X-API-Key:");
    for (const e of READ_API_PATHS) expect(html).toContain(`GET ${e}</code>`);
    for (const p of ["competitor_id", "severity", "since", "q", "page", "per_page", "type"])
      expect(html).toContain(`<code>${p}</code>`);
    for (const code of PROBLEM_CODES) expect(html).toContain(`id="errors-${code}"`);
    expect(html).toContain('href="/openapi.json"');
    expect(html).toContain('href="/developers/openapi.yaml"');
    for (const p of [
      "/mcp",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-authorization-server",
      "/oauth/register",
      "/oauth/revoke",
      "/.well-known/mcp/server-card.json",
    ])
      expect(html).toContain(`${t.base}${p}</code>`);
    expect(html).toContain("600");
  });

  test("every problem's type points at an anchor that exists on /developers", async () => {
    const res = await fetch(`${t.base}/api/v1/competitors`);
    const body = (await res.json()) as { type: string };
    const u = new URL(body.type);
    const { html } = await page(u.pathname);
    expect(html).toContain(`id="${u.hash.slice(1)}"`);
  });
});

describe("public library", () => {
  test("briefs: list, search, a company's briefs, one brief with findings and numbered sources", async () => {
    const list = (await page("/briefs")).html;
    expect(list.indexOf("pricing-2026")).toBeLessThan(list.indexOf("launch-2026"));
    expect(list).toContain('href="/briefs/initech/hiring"');
    expect(list).toContain(`Globex pricing ${XSS_ESCAPED}`);
    const found = (await page("/briefs?q=hiring")).html;
    expect(found).toContain("Initech hiring spree");
    expect(found).not.toContain("Globex launches Ask");
    const company = (await page("/briefs/globex")).html;
    expect(company).toContain('href="/briefs/globex/pricing-2026"');
    expect(company).toContain('href="/briefs/globex/launch-2026"');
    expect(company).not.toContain("Initech");
    const brief = (await page("/briefs/globex/pricing-2026")).html;
    expect(brief).toContain(`Team plan +20% ${XSS_ESCAPED}`);
    expect(brief).toContain('id="source-1"');
    expect(brief).toContain('href="https://globex.example/pricing"');
    expect(brief).toContain('id="source-2"');
    for (const missing of ["/briefs/nobody", "/briefs/globex/nothing", "/briefs/initech/pricing-2026"])
      await page(missing, undefined, 404);
  });

  test("the URLs the public tools return are these pages", async () => {
    const res = await rawPost(t.base, toolsCall("search_public_briefs"));
    const text = await res.text();
    const urls = [...text.matchAll(/https?:\/\/[^"\\]+\/(?:briefs|guides)\/[^"\\]+/g)].map((m) => m[0]);
    expect(urls.length).toBeGreaterThan(0);
    for (const u of new Set(urls)) await page(new URL(u).pathname);
  });

  test("guides: list, search, one guide with its Markdown rendered safely", async () => {
    const list = (await page("/guides")).html;
    expect(list.indexOf("win-loss")).toBeLessThan(list.indexOf("battlecards-101"));
    expect((await page("/guides?q=interview")).html).toContain('href="/guides/win-loss"');
    const g = (await page("/guides/win-loss")).html;
    expect(g).toContain("<strong>buyer</strong>");
    expect(g).toContain("<h2>Interview</h2>");
    expect(g).toContain('href="https://guides.example/t"');
    expect(g).not.toContain('href="javascript:');
    expect(g.match(/Running a win\/loss review<\/h1>/g)).toHaveLength(1);
    await page("/guides/nothing", undefined, 404);
  });
});

describe("not found", () => {
  test("unknown pages and ids: HTML 404 for browsers, problem+json not_found for JSON requests", async () => {
    const paths = [
      "/no-such-page",
      "/app/signals/999999999",
      "/app/signals/abc",
      "/app/signals/1e3",
      "/app/competitors/999999999",
      "/app/digests/no-such-digest",
      "/app/battlecards/999999999",
    ];
    for (const path of paths) {
      const html = await browse(t, path, f.ann.cookie);
      expect({ path, status: html.status }).toEqual({ path, status: 404 });
      expect(html.headers.get("content-type")).toStartWith("text/html");
      const json = await browse(t, path, f.ann.cookie, "application/json");
      expect({ path, status: json.status }).toEqual({ path, status: 404 });
      expect(json.headers.get("content-type")).toBe("application/problem+json");
      expect(((await json.json()) as { code: string }).code).toBe("not_found");
    }
  });

  test("a draft digest is not a page", async () => {
    await page("/app/digests/draft-digest", f.ann.cookie, 404);
  });
});

describe("the app", () => {
  test("signed out: every app page redirects to sign in and comes back", async () => {
    for (const path of ["/app", `/app/signals/${id("acme:signals:xss")}`, "/app/settings/integrations"]) {
      const res = await browse(t, path);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/signin?next=${encodeURIComponent(path)}`);
    }
  });

  test("the app bar signs out through the sign-in module's form", async () => {
    const { html } = await page("/app", f.bob.cookie);
    expect(html).toContain('action="/signout"');
    const { cookie } = await createSession(t.services, f.bob.userId);
    const own = cookie.split(";")[0];
    const out = await postForm(t, "/signout", { csrf: csrfOf((await page("/app", own)).html) }, own);
    expect(out.status).toBe(303);
    expect((await browse(t, "/app", own)).status).toBe(303);
  });

  test("feed: open signals newest first, filters, pagination", async () => {
    const { html } = await page("/app", f.ann.cookie);
    const titles = [...html.matchAll(/<a href="\/app\/signals\/(\d+)">/g)].map((m) => Number(m[1]));
    expect(titles).toHaveLength(20);
    expect(titles[0]).toBe(id("acme:signals:xss"));
    expect(html).not.toContain("Closed Initech thing");
    expect(html).not.toContain("Zulu only signal");
    expect(html).toContain("Price change &lt;script&gt;");
    expect(html).toContain('rel="next"');
    const p2 = (await page("/app?page=2", f.ann.cookie)).html;
    const rest = [...p2.matchAll(/<a href="\/app\/signals\/(\d+)">/g)].map((m) => Number(m[1]));
    expect(rest).toHaveLength(FEED_SIGNALS - 20);
    expect(new Set([...titles, ...rest]).size).toBe(FEED_SIGNALS);
    expect(p2).toContain('rel="prev"');
    const high = (await page("/app?severity=high", f.ann.cookie)).html;
    expect([...high.matchAll(/<a href="\/app\/signals\/(\d+)">/g)].map((m) => Number(m[1]))).toEqual([
      id("acme:signals:xss"),
    ]);
    const initech = (await page(`/app?competitor=${id("acme:competitors:initech")}`, f.ann.cookie)).html;
    expect(initech).toContain("Feed signal 1<");
    expect(initech).not.toContain("Feed signal 0<");
    const words = (await page("/app?q=feed%20signal%2012", f.ann.cookie)).html;
    expect(words).toContain("Feed signal 12<");
    expect(words).not.toContain("Feed signal 11<");
    // Nonsense filters are ignored rather than failing the page.
    await page("/app?severity=extreme&competitor=abc&page=-3", f.ann.cookie);
  });

  test("signal page: the record, its evidence, links; hostile text escaped; javascript: never a link", async () => {
    const { html } = await page(`/app/signals/${id("acme:signals:xss")}`, f.ann.cookie);
    expect(html).toContain(`Evidence ${XSS_ESCAPED}`);
    expect(html).toContain('href="https://globex.example/pricing"');
    expect(html).toContain(`href="/app/competitors/${id("acme:competitors:globex")}"`);
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("Not a link");
    // A closed signal is readable by id, as in the API.
    expect((await page(`/app/signals/${id("acme:signals:closed")}`, f.ann.cookie)).html).toContain("Closed");
  });

  test("competitor, digest and battlecard pages", async () => {
    const c = (await page(`/app/competitors/${id("acme:competitors:globex")}`, f.ann.cookie)).html;
    expect(c).toContain(`Globex ${XSS_ESCAPED}`);
    expect(c).toContain(`per seat ${XSS_ESCAPED}`);
    expect(c).toContain(`href="/app/battlecards/${id("acme:battlecards:globex-card")}"`);
    expect(c).toContain(`href="/app/signals/${id("acme:signals:xss")}"`);
    for (const key of ["weekly-46", String(id("acme:digests:w46"))]) {
      const d = (await page(`/app/digests/${key}`, f.ann.cookie)).html;
      expect(d).toContain(`TLDR ${XSS_ESCAPED}`);
      expect(d).toContain("<strong>Globex</strong>");
      expect(d).toContain(
        '<a href="https://globex.example/pricing" rel="nofollow noopener noreferrer">safe link</a>',
      );
      expect(d).not.toContain('href="javascript:');
      expect(d).not.toContain("<img");
      expect(d).toContain(`href="/app/signals/${id("acme:signals:s0")}"`);
    }
    const b = (await page(`/app/battlecards/${id("acme:battlecards:globex-card")}`, f.ann.cookie)).html;
    expect(b).toContain(`Overview ${XSS_ESCAPED}`);
    expect(b).toContain("Ask about SSO");
    expect(b).toContain('href="https://globex.example/pricing"');
    await page("/app/competitors", f.ann.cookie);
    await page("/app/digests", f.ann.cookie);
    await page("/app/battlecards", f.ann.cookie);
  });

  test("the API's url fields open these pages", async () => {
    const key = await t.key("acme");
    for (const path of ["/api/v1/signals", "/api/v1/competitors", "/api/v1/digests", "/api/v1/battlecards"]) {
      const body = (await (await t.get(path, { authorization: `Bearer ${key}` })).json()) as {
        data: { url: string }[];
      };
      expect(body.data.length).toBeGreaterThan(0);
      for (const item of body.data.slice(0, 3)) {
        expect(item.url.startsWith(`${t.base}/app/`)).toBe(true);
        await page(new URL(item.url).pathname, f.ann.cookie);
      }
    }
  });

  test("tenancy: another workspace's records are 404, for a browser and for JSON", async () => {
    for (const path of [
      `/app/signals/${id("zulu:signals:z1")}`,
      `/app/competitors/${id("zulu:competitors:globex")}`,
      `/app/battlecards/${id("zulu:battlecards:zc")}`,
      `/app/digests/${id("zulu:digests:zd")}`,
    ]) {
      expect((await browse(t, path, f.ann.cookie)).status).toBe(404);
      expect((await browse(t, path, f.ann.cookie, "application/json")).status).toBe(404);
      expect((await browse(t, path, f.zed.cookie)).status).toBe(200);
    }
    // The same slug in two workspaces: each member sees their own.
    expect((await page("/app/digests/weekly-46", f.zed.cookie)).html).toContain("Zulu weekly");
    expect((await page("/app/digests/weekly-46", f.ann.cookie)).html).not.toContain("Zulu weekly");
  });

  test("a member of two workspaces switches with ?org= (remembered) and opens records of both", async () => {
    const first = (await page("/app", f.cat.cookie)).html;
    expect(first).toContain('name="org"');
    expect(first).toContain("Feed signal");
    const res = await browse(t, "/app?org=zulu", f.cat.cookie);
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toStartWith("rivals_org=zulu");
    const zulu = await res.text();
    expect(zulu).toContain("Zulu only signal");
    expect(zulu).not.toContain("Feed signal");
    const both = `${f.cat.cookie}; ${cookie.split(";")[0]}`;
    expect((await page("/app", both)).html).toContain("Zulu only signal");
    // A record of the other workspace opens from either.
    await page(`/app/signals/${id("acme:signals:xss")}`, both);
    await page(`/app/signals/${id("zulu:signals:z1")}`, f.cat.cookie);
    // ?org= naming a workspace the person is not in changes nothing.
    expect((await page("/app?org=nope", f.ann.cookie)).html).toContain("Feed signal");
  });
});

describe("integrations", () => {
  const PATH = "/app/settings/integrations";

  test("a member sees no keys and no form", async () => {
    await t.key("acme");
    const { html } = await page(PATH, f.bob.cookie);
    expect(html).toContain("Only admins");
    expect(html).not.toContain("rvl_");
    expect(html).not.toContain('action="/app/settings/integrations/keys"');
  });

  test("an admin creates a key (shown once), uses it, sees it listed, revokes it", async () => {
    const { html } = await page(PATH, f.ann.cookie);
    const csrf = csrfOf(html);
    const created = await postForm(
      t,
      `${PATH}/keys`,
      { csrf, org: "acme", name: `CI ${XSS}`, scopes: ["read", "write"] },
      f.ann.cookie,
    );
    expect(created.status).toBe(200);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const shown = await created.text();
    expect(shown).not.toContain(XSS);
    const token = /id="new-token"[^>]*value="(rvl_[0-9A-Za-z]+)"/.exec(shown)?.[1] ?? "";
    expect(token).toMatch(/^rvl_/);
    const api = await t.get("/api/v1/competitors", { authorization: `Bearer ${token}` });
    expect(api.status).toBe(200);
    const keyId = Number(/data-key-id="(\d+)"/.exec(shown)?.[1]);
    // Last use is written off the request's path: wait for it, then the list shows it.
    for (let i = 0; i < 50 && !(await lastUsed(keyId)); i++) await Bun.sleep(20);
    expect(await lastUsed(keyId)).toBe(t.clock.now.toISOString());
    const again = (await page(PATH, f.ann.cookie)).html;
    const rowHtml = new RegExp(`data-key-id="${keyId}".*?</tr>`, "s").exec(again)?.[0] ?? "";
    expect(rowHtml).toContain('data-label="Last used"><time');
    expect(rowHtml).not.toContain("never");
    expect(again).not.toContain(token);
    expect(again).toContain(token.slice(0, 12));
    expect(again).toContain(`CI ${XSS_ESCAPED}`);
    expect(again).toContain("read, write");
    const row = (
      await t.services.database.client.execute({
        sql: "SELECT scopes, org_id FROM api_keys WHERE id = ?",
        args: [keyId],
      })
    ).rows[0];
    expect(row.scopes).toBe("read,write");
    // Revoke.
    const revoked = await postForm(t, `${PATH}/keys/${keyId}/revoke`, { csrf, org: "acme" }, f.ann.cookie);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(`${PATH}?org=acme&revoked=${keyId}`);
    expect((await t.get("/api/v1/competitors", { "x-api-key": token })).status).toBe(401);
    const after = (await page(`${PATH}?org=acme&revoked=${keyId}`, f.ann.cookie)).html;
    expect(after).toContain("was revoked");
  });

  test("no scope chosen: 400 and nothing created", async () => {
    const csrf = csrfOf((await page(PATH, f.ann.cookie)).html);
    const before = await countKeys();
    const res = await postForm(t, `${PATH}/keys`, { csrf, org: "acme", name: "none" }, f.ann.cookie);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("at least one scope");
    expect(await countKeys()).toBe(before);
  });

  test("CSRF: a POST without the token, or with another session's, changes nothing", async () => {
    const before = await countKeys();
    const none = await postForm(t, `${PATH}/keys`, { org: "acme", name: "x", scopes: "read" }, f.ann.cookie);
    expect(none.status).toBe(403);
    const other = csrfOf((await page(PATH, f.zed.cookie)).html);
    const wrong = await postForm(
      t,
      `${PATH}/keys`,
      { csrf: other, org: "acme", name: "x", scopes: "read" },
      f.ann.cookie,
    );
    expect(wrong.status).toBe(403);
    expect(await countKeys()).toBe(before);
    const keyId = await t.key("acme").then(() => latestKeyId());
    const revoke = await postForm(t, `${PATH}/keys/${keyId}/revoke`, { org: "acme" }, f.ann.cookie);
    expect(revoke.status).toBe(403);
    expect(await revokedAt(keyId)).toBeNull();
  });

  test("a member cannot create or revoke; an admin cannot touch another workspace's keys", async () => {
    const keyId = await t.key("acme").then(() => latestKeyId());
    const bobCsrf = await sessionCsrf(f.bob.userId);
    expect(
      (await postForm(t, `${PATH}/keys`, { csrf: bobCsrf, org: "acme", scopes: "read" }, f.bob.cookie))
        .status,
    ).toBe(403);
    expect(
      (await postForm(t, `${PATH}/keys/${keyId}/revoke`, { csrf: bobCsrf, org: "acme" }, f.bob.cookie))
        .status,
    ).toBe(403);
    const zedCsrf = csrfOf((await page(PATH, f.zed.cookie)).html);
    // Naming a workspace zed is not in, or a key of another workspace under his own: 404.
    expect(
      (await postForm(t, `${PATH}/keys/${keyId}/revoke`, { csrf: zedCsrf, org: "acme" }, f.zed.cookie))
        .status,
    ).toBe(404);
    expect(
      (await postForm(t, `${PATH}/keys/${keyId}/revoke`, { csrf: zedCsrf, org: "zulu" }, f.zed.cookie))
        .status,
    ).toBe(404);
    expect(await revokedAt(keyId)).toBeNull();
  });

  /** A member's page has no form, so read the session's token where the server keeps it. */
  async function sessionCsrf(userId: number) {
    const r = await t.services.database.client.execute({
      sql: "SELECT csrf_token FROM sessions WHERE user_id = ? ORDER BY created_at DESC LIMIT 1",
      args: [userId],
    });
    return String(r.rows[0].csrf_token);
  }
  async function lastUsed(keyId: number) {
    const r = await t.services.database.client.execute({
      sql: "SELECT last_used_at FROM api_key_usage WHERE key_id = ?",
      args: [keyId],
    });
    return r.rows[0]?.last_used_at;
  }
  async function countKeys() {
    const r = await t.services.database.client.execute("SELECT count(*) AS n FROM api_keys");
    return Number(r.rows[0].n);
  }
  async function latestKeyId() {
    const r = await t.services.database.client.execute("SELECT max(id) AS id FROM api_keys");
    return Number(r.rows[0].id);
  }
  async function revokedAt(keyId: number) {
    const r = await t.services.database.client.execute({
      sql: "SELECT revoked_at FROM api_keys WHERE id = ?",
      args: [keyId],
    });
    return r.rows[0].revoked_at;
  }
});

describe("public forms", () => {
  async function formSession(path: string) {
    const res = await browse(t, path);
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toContain("=");
    return { cookie, csrf: csrfOf(await res.text()) };
  }

  test("free brief: stored through an event, then a thank-you page", async () => {
    const { cookie, csrf } = await formSession("/free-brief");
    const res = await postForm(
      t,
      "/free-brief",
      { csrf, company_name: `Globex ${XSS}`, website_url: "globex.example", email: "buyer@example.com" },
      cookie,
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/free-brief/thanks?domain=globex.example");
    // The thank-you page tells where the request stands to the browser that sent it (its cookie), to no other.
    const mine = `${cookie}; ${res.headers.getSetCookie()[0].split(";")[0]}`;
    expect((await page("/free-brief/thanks?domain=globex.example", mine)).html).toContain("Thank you");
    // The library already holds a brief on this domain from the period: the request is answered with it.
    expect((await page("/free-brief/thanks?domain=globex.example", mine)).html).toContain(
      `${t.base}/briefs/globex/pricing-2026</a>`,
    );
    expect((await page("/free-brief/thanks?domain=globex.example")).html).not.toContain("pricing-2026");
    const db = t.services.database.client;
    const row = (await db.execute("SELECT * FROM free_brief_requests ORDER BY id DESC LIMIT 1")).rows[0];
    expect(row.company_name).toBe(`Globex ${XSS}`);
    expect(row.website_url).toBe("https://globex.example/");
    expect(row.email).toBe("buyer@example.com");
    const ev = (await db.execute("SELECT type, org_id FROM events WHERE type = 'FreeBriefRequested'")).rows;
    expect(ev).toHaveLength(1);
    expect(ev[0].org_id).toBeNull();
    // The table is a projection: a rebuild from the log gives the same rows.
    const before = (await db.execute("SELECT * FROM free_brief_requests ORDER BY id")).rows;
    await rebuildProjections(t.services.store);
    expect((await db.execute("SELECT * FROM free_brief_requests ORDER BY id")).rows).toEqual(before);
  });

  test("free brief: a bad email re-shows the form with the values (escaped); no token is 403", async () => {
    const { cookie, csrf } = await formSession("/free-brief");
    const bad = await postForm(t, "/free-brief", { csrf, company_name: `A ${XSS}`, email: "nope" }, cookie);
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("email");
    expect(html).not.toContain(XSS);
    expect(html).toMatch(/name="company_name" value="A /);
    const none = await postForm(t, "/free-brief", { company_name: "A", email: "a@b.example" }, cookie);
    expect(none.status).toBe(403);
    const stolen = await postForm(t, "/free-brief", { csrf, company_name: "A", email: "a@b.example" });
    expect(stolen.status).toBe(403);
  });

  test("signup: a trial workspace with its first admin, signed in at once", async () => {
    const { cookie, csrf } = await formSession("/signup");
    const res = await postForm(
      t,
      "/signup",
      { csrf, workspace: "Initrode Ltd", email: "Owner@Initrode.example", password: "long enough pw" },
      cookie,
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/app?org=initrode-ltd");
    const session = (res.headers.get("set-cookie") ?? "").split(";")[0];
    const app = await page("/app?org=initrode-ltd", session);
    expect(app.html).toContain("Initrode Ltd");
    const db = t.services.database.client;
    const org = (await db.execute("SELECT id, plan FROM orgs WHERE slug = 'initrode-ltd'")).rows[0];
    expect(org.plan).toBe("trial");
    const m = (
      await db.execute({
        sql: "SELECT m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ? AND m.org_id = ?",
        args: ["owner@initrode.example", Number(org.id)],
      })
    ).rows[0];
    expect(m.role).toBe("admin");
    // The new admin can create a key on the integrations page (the read API needs a paid plan: noted).
    const integ = (await page("/app/settings/integrations", session)).html;
    expect(integ).toContain("paid plan");
    // Same workspace name again: another slug. Same email again: refused.
    const again = await formSession("/signup");
    const dup = await postForm(
      t,
      "/signup",
      {
        csrf: again.csrf,
        workspace: "Initrode Ltd",
        email: "owner@initrode.example",
        password: "long enough pw",
      },
      again.cookie,
    );
    expect(dup.status).toBe(400);
    expect(await dup.text()).toContain("already exists");
    const other = await postForm(
      t,
      "/signup",
      {
        csrf: again.csrf,
        workspace: "Initrode Ltd",
        email: "two@initrode.example",
        password: "long enough pw",
      },
      again.cookie,
    );
    expect(other.headers.get("location")).toBe("/app?org=initrode-ltd-2");
  });

  test("signup: short password and missing token are refused", async () => {
    const { cookie, csrf } = await formSession("/signup");
    const short = await postForm(
      t,
      "/signup",
      { csrf, workspace: "W", email: "w@w.example", password: "short" },
      cookie,
    );
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("at least 8");
    const none = await postForm(
      t,
      "/signup",
      { workspace: "W", email: "w@w.example", password: "long enough pw" },
      cookie,
    );
    expect(none.status).toBe(403);
  });
});
