// The free brief is real: a request on the public form is researched by the engine (the fixture web's sites,
// through the one fetcher) into a public brief that get_public_brief returns and the library shows, the
// requesting browser sees it on the thank-you page, and an address that confirmed is emailed its link over real
// SMTP. One brief per domain within the period (a second request gets it at once, with no new research), a site
// that cannot be read or states nothing gives our own reason and publishes nothing, and RIVALS_FREE_BRIEFS=off
// turns the form off. (Abuse — limits, private addresses, review, budgets: free-brief-abuse.test.ts.)
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type FixtureWeb, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { rebuildProjections } from "../../../projections/rebuild.ts";
import { BACKOFF_MINUTES } from "../../../src/domain/attempts.ts";
import { FAILURE_REASONS, FREE_BRIEF_PERIOD_DAYS } from "../../../src/domain/freeBriefs.ts";
import { EMAIL_ATTEMPTS, freeBriefsIdle, kickFreeBriefs } from "../../../src/engine/briefs/freeBriefs.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp-helpers.ts";
import { browse, csrfOf, postForm } from "../../support/web-fixture.ts";

setDefaultTimeout(60_000);

let web: FixtureWeb;
let smtp: TestSmtp;
let t: TestServer;
let mcp: Client;

beforeAll(async () => {
  web = startFixtureWeb();
  smtp = await startSmtp();
  t = await startTestServer({
    RIVALS_FETCH_REWRITE: web.rewrite,
    RIVALS_FETCH_DELAY_MS: "0",
    RIVALS_SMTP_URL: smtp.url,
    // Held briefs are tested in free-brief-abuse.test.ts; here a brief is published as it is written.
    RIVALS_FREE_BRIEF_REVIEW: "off",
  });
  mcp = await mcpClient(t.base);
});
afterAll(async () => {
  await mcp.close();
  await freeBriefsIdle(t.services);
  await t.close();
  await smtp.close();
  await web.stop();
});

/** A browser: its form cookie and, once it has asked, its free-brief cookie. */
class Browser {
  cookies = new Map<string, string>();
  constructor(readonly server: TestServer = t) {}
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  }
  async get(path: string) {
    return this.keep(await browse(this.server, path, this.header()));
  }
  async html(path: string) {
    return (await this.get(path)).text();
  }
  async post(path: string, form: Record<string, string>) {
    return this.keep(await postForm(this.server, path, form, this.header()));
  }
  async request(form: Record<string, string>) {
    const csrf = csrfOf(await this.html("/free-brief"));
    return this.post("/free-brief", { csrf, ...form });
  }
}

/** Follows the confirmation email's link and presses its button. */
async function confirm(mail: { decoded: string }, b = new Browser()) {
  // The email is recorded as sent (with its token's digest) just after the mail server took it.
  await freeBriefsIdle(t.services);
  const link = /http:\/\/127\.0\.0\.1:\d+\/free-brief\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.decoded);
  expect(link).not.toBeNull();
  const page = await b.html(new URL(link![0]).pathname + new URL(link![0]).search);
  expect(page).toContain("Confirm and send me the brief");
  const res = await b.post("/free-brief/confirm", { token: link![1] });
  expect(res.status).toBe(200);
  return link![1];
}

const html = async (path: string) => (await browse(t, path)).text();
const db = () => t.services.database.client;
const homeFetches = (host: string) =>
  web.requests.filter((r) => r.host === host && r.path === "/" && r.method === "GET").length;

let briefUrl = "";

describe("a request is researched into a public brief and emailed", () => {
  test("the form asks for the website; the requester confirms the address, sees the brief and gets its link", async () => {
    const form = await html("/free-brief");
    expect(form).toMatch(/name="website_url"[^>]*required/);
    expect(form).toContain(`One brief per company every ${FREE_BRIEF_PERIOD_DAYS} days`);

    const b = new Browser();
    const seen = smtp.mails.length;
    const res = await b.request({ website_url: "globex.example", email: "buyer@example.com" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/free-brief/thanks?domain=globex.example");
    const thanks = await b.html("/free-brief/thanks?domain=globex.example");
    // Research runs off the request path: the page tells the state it reads, never a promise it cannot keep.
    expect(thanks).toMatch(
      /We are reading <strong>globex\.example<\/strong>|The brief on <strong>globex\.example/,
    );

    // First a confirmation, in our words, naming nothing but the domain; nothing else before it is confirmed.
    const ask = await smtp.next(seen);
    expect(ask.to).toEqual(["buyer@example.com"]);
    expect(ask.decoded).toContain("Subject: Confirm your free brief on globex.example");
    await freeBriefsIdle(t.services);
    expect(smtp.mails.length).toBe(seen + 1);
    const done = await b.html("/free-brief/thanks?domain=globex.example");
    expect(done).toContain("The brief on <strong>globex.example</strong> is published");
    expect(done).toContain("We sent a confirmation email to the address you gave");
    const m = /href="(http:\/\/127\.0\.0\.1:\d+\/briefs\/globex-example\/brief-2026-11-20)"/.exec(done);
    expect(m).not.toBeNull();
    briefUrl = m![1];

    await confirm(ask);
    await freeBriefsIdle(t.services);
    const mail = await smtp.next(seen + 1);
    expect(mail.to).toEqual(["buyer@example.com"]);
    expect(mail.decoded).toContain("Subject: Your free brief on globex.example");
    expect(mail.decoded).toContain(briefUrl);
    // The site's own name is on the brief, not in the email.
    expect(mail.decoded).not.toContain("Globex Insights");
    const row = (await db().execute("SELECT state, email_state, brief_id FROM free_brief_requests")).rows[0];
    expect(row).toMatchObject({ state: "published", email_state: "sent" });
  });

  test("get_public_brief returns it: every finding cites a numbered source the engine fetched", async () => {
    const r = await mcp.callTool({ name: "get_public_brief", arguments: { url: briefUrl } });
    expect(r.isError).toBeFalsy();
    const b = body(r).brief;
    expect(b.company).toEqual({ slug: "globex-example", name: "Globex Insights", domain: "globex.example" });
    expect(b.summary).toContain("Self-serve product analytics for mid-market SaaS teams.");
    expect(b.findings.length).toBeGreaterThanOrEqual(8);
    const fetched = new Set(web.requests.map((q) => `https://${q.host}${q.path}`.replace(/\/$/, "")));
    for (const f of b.findings) {
      expect(f.category).toBeString();
      expect(f.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const cites = [...f.text.matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]));
      expect(cites.length).toBeGreaterThan(0);
      for (const n of cites) {
        const src = b.sources.find((s: { number: number }) => s.number === n);
        expect(src).toBeDefined();
        expect(fetched.has(src.url.replace(/\/$/, ""))).toBe(true);
      }
    }
    const text = (cat: string) =>
      b.findings
        .filter((f: { category: string }) => f.category === cat)
        .map((f: { text: string }) => f.text)
        .join("\n");
    // What the site states, as it states it (fixtures/web/expected.ts).
    expect(text("pricing")).toContain(
      "Free (free), Team ($59 per seat per month) and Enterprise (custom pricing)",
    );
    expect(text("hiring")).toContain("6 open roles");
    expect(text("funding")).toContain("In 2025 we raised a $70M Series C led by Harbor Peak Ventures.");
    expect(text("integrations")).toContain("10 integrations");
    expect(text("regulation")).toContain("SOC 2 Type II");
    expect(
      b.findings.find((f: { text: string }) => f.text.includes("latest is dated 2026-11-12"))?.date,
    ).toBe("2026-11-12");
    // The library lists it and shows its sources.
    expect(await html("/briefs")).toContain("Globex Insights: what its website says");
    const page = await html(new URL(briefUrl).pathname);
    expect(page).toContain('id="source-1"');
    // Each citation in a finding links to its numbered source.
    expect(page).toContain('<a href="#source-3" aria-label="source 3">[3]</a>');
    expect(page).toContain("https://globex.example/pricing");
  });

  test("a second request within the period gets the existing brief at once, with no new research and no email", async () => {
    const before = homeFetches("globex.example");
    const seen = smtp.mails.length;
    t.clock.advance(3 * 86_400_000);
    const b = new Browser();
    const res = await b.request({
      company_name: "Globex",
      website_url: "https://www.globex.example/pricing",
      email: "rep@example.org",
    });
    expect(res.headers.get("location")).toBe("/free-brief/thanks?domain=globex.example");
    const thanks = await b.html("/free-brief/thanks?domain=globex.example");
    expect(thanks).toContain("A brief on <strong>globex.example</strong> was published on");
    expect(thanks).toContain(briefUrl);
    // One email per company within the period, and the first requester's confirmation was it.
    expect(thanks).toContain("we send at most one email per company in that time");
    await freeBriefsIdle(t.services);
    expect(smtp.mails.length).toBe(seen);
    expect(homeFetches("globex.example")).toBe(before);
    const n = await db().execute("SELECT COUNT(*) AS n FROM public_briefs WHERE domain = 'globex.example'");
    expect(Number(n.rows[0].n)).toBe(1);
    // The address that will not be written to is not kept.
    const kept = await db().execute(
      "SELECT COUNT(*) AS n FROM free_brief_requests WHERE email = 'rep@example.org'",
    );
    expect(Number(kept.rows[0].n)).toBe(0);
  });

  test("after the period a request is researched again into a new brief of the same company", async () => {
    t.clock.advance((FREE_BRIEF_PERIOD_DAYS + 1) * 86_400_000);
    const before = homeFetches("globex.example");
    await new Browser().request({ website_url: "globex.example" });
    await freeBriefsIdle(t.services);
    expect(homeFetches("globex.example")).toBe(before + 1);
    const r = await db().execute(
      "SELECT company_slug, slug FROM public_briefs WHERE domain = 'globex.example' ORDER BY id",
    );
    expect(r.rows.map((x) => `${x.company_slug}/${x.slug}`)).toEqual([
      "globex-example/brief-2026-11-20",
      "globex-example/brief-2026-12-24",
    ]);
  });
});

describe("no brief is invented", () => {
  test("a site that cannot be read: our reason on the page and in the confirmed email, nothing published", async () => {
    const seen = smtp.mails.length;
    const b = new Browser();
    await b.request({ website_url: "nosuch.example", email: "a@example.com" });
    await confirm(await smtp.next(seen));
    await freeBriefsIdle(t.services);
    const thanks = await b.html("/free-brief/thanks?domain=nosuch.example");
    expect(thanks).toContain("We could not write a brief on <strong>nosuch.example</strong>");
    expect(thanks).toContain(FAILURE_REASONS.http_error.replaceAll("'", "&#x27;"));
    const mail = await smtp.next(seen + 1);
    expect(mail.decoded).toContain("Subject: We could not write a brief on nosuch.example");
    expect(mail.decoded).toContain("Nothing was published.");
    const n = await db().execute("SELECT COUNT(*) AS n FROM public_briefs WHERE domain = 'nosuch.example'");
    expect(Number(n.rows[0].n)).toBe(0);
  });

  test("a site that states nothing a brief could report: no brief", async () => {
    const b = new Browser();
    await b.request({ website_url: "tallyhq.example" });
    await freeBriefsIdle(t.services);
    const thanks = await b.html("/free-brief/thanks?domain=tallyhq.example");
    expect(thanks).toContain("found nothing it states that a brief could report");
    const n = await db().execute("SELECT COUNT(*) AS n FROM public_briefs WHERE domain = 'tallyhq.example'");
    expect(Number(n.rows[0].n)).toBe(0);
  });

  test("a request without a website is refused with the form kept; nothing is stored", async () => {
    const before = await db().execute("SELECT COUNT(*) AS n FROM free_brief_requests");
    const res = await new Browser().request({ company_name: "Globex", email: "a@example.com" });
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toContain("give the company&#x27;s website");
    expect(page).toMatch(/name="company_name" value="Globex"/);
    const after = await db().execute("SELECT COUNT(*) AS n FROM free_brief_requests");
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  test("the requests are a projection of the log: a rebuild gives the same rows", async () => {
    const rows = async () => (await db().execute("SELECT * FROM free_brief_requests ORDER BY id")).rows;
    const before = await rows();
    await rebuildProjections(t.services.store);
    expect(await rows()).toEqual(before);
  });
});

describe("an email the mail server refuses", () => {
  test("is recorded, tried again after the outbox's backoff, then given up; the answer stays on the page", async () => {
    const refused = await startTestServer({
      RIVALS_FETCH_REWRITE: web.rewrite,
      RIVALS_FETCH_DELAY_MS: "0",
      RIVALS_SMTP_URL: smtp.url.replace(":s3cret@", ":wrong@"),
    });
    try {
      const b = new Browser(refused);
      await b.request({ website_url: "nosuch.example", email: "a@example.com" });
      await freeBriefsIdle(refused.services);
      const state = async () =>
        (
          await refused.services.database.client.execute(
            "SELECT state, confirm_state, confirm_attempts, confirm_error, confirm_digest, email_state FROM free_brief_requests",
          )
        ).rows[0];
      expect(await state()).toMatchObject({ state: "failed", confirm_state: "pending", confirm_attempts: 1 });
      expect(String((await state()).confirm_error)).toContain("Invalid username or password");
      // A token that was never sent is not kept.
      expect((await state()).confirm_digest).toBeNull();
      // Not again before its backoff (the delivery outbox's: 1, 5, 30, 120 minutes) has passed.
      kickFreeBriefs(refused.services);
      await freeBriefsIdle(refused.services);
      expect((await state()).confirm_attempts).toBe(1);
      for (const minutes of BACKOFF_MINUTES.slice(0, EMAIL_ATTEMPTS)) {
        refused.clock.advance(minutes * 60_000);
        kickFreeBriefs(refused.services);
        await freeBriefsIdle(refused.services);
      }
      expect(await state()).toMatchObject({
        confirm_state: "failed",
        confirm_attempts: EMAIL_ATTEMPTS,
        email_state: "waiting",
      });
      const page = await b.html("/free-brief/thanks?domain=nosuch.example");
      expect(page).toContain("We could not write a brief on <strong>nosuch.example</strong>");
      expect(page).toContain("We could not send the confirmation email");
    } finally {
      await refused.close();
    }
  });
});

describe("RIVALS_FREE_BRIEFS=off", () => {
  test("the page says requests are not taken; a post stores nothing", async () => {
    const off = await startTestServer({ RIVALS_FREE_BRIEFS: "off" });
    try {
      const page = await (await browse(off, "/free-brief")).text();
      expect(page).toContain("Free briefs are not offered here");
      expect(page).not.toContain('name="website_url"');
      const res = await postForm(off, "/free-brief", {
        website_url: "globex.example",
        email: "a@example.com",
      });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("nothing was stored");
      const n = await off.services.database.client.execute("SELECT COUNT(*) AS n FROM free_brief_requests");
      expect(Number(n.rows[0].n)).toBe(0);
    } finally {
      await off.close();
    }
  });
});
