// The free-brief form cannot be turned against others by an anonymous visitor or a hostile site: an address is
// written to only once it confirms (a one-time link whose token is kept as a digest), emails are limited per
// company (subdomains are one), per recipient and per client network (an IPv6 /64 is one), mail and reasons are
// our own words (nothing a hostile site chose is quoted), private and special-use hosts are refused by the form,
// the thank-you page tells nothing to another browser, new briefs wait for an operator's review, and research
// has a time budget, runs several domains at once and caps the Crawl-delay it waits. Real SMTP, the fixture web
// and a hostile site on loopback.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type FixtureWeb, startFixtureWeb } from "../../../fixtures/web/server.ts";
import { FAILURE_REASONS } from "../../../src/domain/freeBriefs.ts";
import { FREE_BRIEF } from "../../../src/domain/limits.ts";
import { budgetedFetcher, freeBriefsIdle, kickFreeBriefs } from "../../../src/engine/briefs/freeBriefs.ts";
import { createFetcher } from "../../../src/engine/fetch/index.ts";
import { FORM_LIMITS } from "../../../src/web/formLimit.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp-helpers.ts";
import { browse, csrfOf } from "../../support/web-fixture.ts";

setDefaultTimeout(60_000);

const PHISH = "URGENT your account is suspended, verify at https://phish.example/login";
const GLOBEX_HOME = await Bun.file(
  join(import.meta.dir, "../../../fixtures/web/sites/globex.example/v1/index.html"),
).text();

/** Hostile and slow sites on loopback, by Host header; counts the requests in flight at once. */
function startHostile() {
  let inFlight = 0;
  let most = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
      const path = new URL(req.url).pathname;
      if (host.startsWith("slow")) {
        inFlight++;
        most = Math.max(most, inFlight);
        await Bun.sleep(3000);
        inFlight--;
        return new Response("<html><body>late</body></html>", { headers: { "content-type": "text/html" } });
      }
      if (path === "/robots.txt")
        return new Response(host.startsWith("crawl") ? "User-agent: *\nCrawl-delay: 10\n" : "", {
          headers: { "content-type": "text/plain" },
        });
      if (host === "ctype.example")
        return new Response("<html><body>hello</body></html>", {
          headers: { "content-type": `text/x-${PHISH}` },
        });
      if (host === "broken.example") return new Response(PHISH, { status: 503 });
      if (path === "/")
        // A real company's home page whose name is a phishing line.
        return new Response(
          GLOBEX_HOME.replace("<head>", `<head><meta property="og:site_name" content="${PHISH}">`),
          { headers: { "content-type": "text/html; charset=utf-8" } },
        );
      return new Response("not found", { status: 404 });
    },
  });
  return {
    server,
    origin: `http://127.0.0.1:${server.port}`,
    most: () => most,
    stop: () => server.stop(true),
  };
}

let web: FixtureWeb;
let hostile: ReturnType<typeof startHostile>;
let smtp: TestSmtp;
let t: TestServer;
let mcp: Client;

const rewrite = () =>
  [
    ...[
      "phish.example",
      "a.phish.example",
      "b.phish.example",
      "ctype.example",
      "broken.example",
      "slow1.example",
      "slow2.example",
    ].map((h) => `https://${h}=${hostile.origin}`),
    web.rewrite,
  ].join(",");

beforeAll(async () => {
  web = startFixtureWeb();
  hostile = startHostile();
  smtp = await startSmtp();
  // The default: new briefs are held for review. Client addresses come from X-Forwarded-For.
  t = await startTestServer({
    RIVALS_FETCH_REWRITE: rewrite(),
    RIVALS_FETCH_DELAY_MS: "0",
    RIVALS_SMTP_URL: smtp.url,
    RIVALS_TRUST_PROXY: "1",
  });
  mcp = await mcpClient(t.base);
});
afterAll(async () => {
  await mcp.close();
  await freeBriefsIdle(t.services);
  await t.close();
  await smtp.close();
  hostile.stop();
  await web.stop();
});

/** A browser on one client address: its cookies, kept as a browser keeps them. */
class Browser {
  cookies = new Map<string, string>();
  constructor(
    readonly address: string,
    readonly server: TestServer = t,
  ) {}
  private headers() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  private keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  }
  async get(path: string) {
    return this.keep(
      await fetch(this.server.base + path, {
        headers: { accept: "text/html", cookie: this.headers(), "x-forwarded-for": this.address },
        redirect: "manual",
      }),
    );
  }
  async html(path: string) {
    return (await this.get(path)).text();
  }
  async post(path: string, form: Record<string, string>) {
    return this.keep(
      await fetch(this.server.base + path, {
        method: "POST",
        headers: {
          accept: "text/html",
          "content-type": "application/x-www-form-urlencoded",
          cookie: this.headers(),
          "x-forwarded-for": this.address,
          origin: this.server.base,
        },
        body: new URLSearchParams(form),
        redirect: "manual",
      }),
    );
  }
  async request(form: Record<string, string>) {
    const csrf = csrfOf(await this.html("/free-brief"));
    return this.post("/free-brief", { csrf, ...form });
  }
}

const db = () => t.services.database.client;
const requests = async () =>
  Number((await db().execute("SELECT COUNT(*) AS n FROM free_brief_requests")).rows[0].n);
const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));
/** The token of the newest confirmation email to `address`, once the server has recorded that it was sent. */
async function confirmation(address: string): Promise<string> {
  for (let seen = 0; ; seen++) {
    const m = await smtp.next(seen);
    const token = m.to.includes(address) ? tokenOf(m) : undefined;
    if (token && !smtp.mails.slice(seen + 1).some((x) => x.to.includes(address) && tokenOf(x))) {
      await freeBriefsIdle(t.services);
      return token;
    }
  }
}
const tokenOf = (mail: { decoded: string }) =>
  /\/free-brief\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.decoded)?.[1];

describe("the form refuses private and special-use addresses itself", () => {
  test("loopback, link-local, metadata, local names and private IP literals: a clear message, nothing stored or fetched", async () => {
    const before = await requests();
    const fetched = web.requests.length;
    let n = 0;
    for (const site of [
      "127.0.0.1",
      "http://169.254.169.254/latest/meta-data/",
      "metadata.google.internal",
      "localhost:8080",
      "admin.internal",
      "printer.local",
      "10.0.0.5",
      "192.168.1.1",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://0x7f.1/",
    ]) {
      const res = await new Browser(`203.0.113.${100 + n++}`).request({
        website_url: site,
        email: "a@example.com",
      });
      expect({ site, status: res.status }).toEqual({ site, status: 400 });
      expect(await res.text()).toContain("is a private or special-use address, not a public website");
    }
    const ip = await new Browser("203.0.113.99").request({ website_url: "8.8.8.8" });
    expect(ip.status).toBe(400);
    expect(await ip.text()).toContain("not by an IP address");
    expect(await requests()).toBe(before);
    expect(web.requests.length).toBe(fetched);
  });
});

describe("double opt-in", () => {
  test("only a confirmation goes out; its token is kept as a digest only; the link works once", async () => {
    const b = new Browser("203.0.113.2");
    const seen = smtp.mails.length;
    await b.request({ website_url: "northwind.example", email: "Optin@Example.com" });
    const ask = await smtp.next(seen);
    await freeBriefsIdle(t.services);
    expect(ask.to).toEqual(["Optin@Example.com".toLowerCase()]);
    expect(ask.decoded).toContain("Subject: Confirm your free brief on northwind.example");
    const token = tokenOf(ask)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The server keeps the token's SHA-256 digest, never the token.
    const digest = createHash("sha256").update(token).digest("hex");
    const row = (
      await db().execute("SELECT confirm_digest FROM free_brief_requests WHERE email = 'optin@example.com'")
    ).rows[0];
    expect(row.confirm_digest).toBe(digest);
    const log = (await db().execute("SELECT data FROM events")).rows.map((r) => String(r.data)).join("\n");
    expect(log).not.toContain(token);
    expect(log).toContain(digest);

    // Nothing else is sent while the address has not confirmed, whatever the research does.
    await freeBriefsIdle(t.services);
    expect(mailsTo("optin@example.com")).toHaveLength(1);

    // A mail scanner that opens the link confirms nothing: the page asks for a press of its button.
    const page = await new Browser("198.51.100.50").get(`/free-brief/confirm?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await page.text()).toContain("northwind.example");
    expect(
      (await db().execute("SELECT confirmed_at FROM free_brief_requests WHERE email = 'optin@example.com'"))
        .rows[0].confirmed_at,
    ).toBeNull();

    // A wrong token of the right shape, and a malformed one, are refused alike.
    const wrong = await b.post("/free-brief/confirm", { token: "A".repeat(43) });
    expect(wrong.status).toBe(404);
    expect((await b.post("/free-brief/confirm", { token: "x" })).status).toBe(404);
    const ok = await b.post("/free-brief/confirm", { token });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Email confirmed");
    const again = await b.post("/free-brief/confirm", { token });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("not valid, or was already used");
    expect((await b.get(`/free-brief/confirm?token=${token}`)).status).toBe(404);
  });

  test("a link followed after it expired confirms nothing", async () => {
    const b = new Browser("203.0.113.3");
    await b.request({ website_url: "kestrel.example", email: "late@example.com" });
    const token = await confirmation("late@example.com");
    t.clock.advance((FREE_BRIEF.confirmHours + 1) * 3_600_000);
    const page = await b.get(`/free-brief/confirm?token=${token}`);
    expect(page.status).toBe(410);
    expect(await page.text()).not.toContain("Confirm and send me the brief");
    const res = await b.post("/free-brief/confirm", { token });
    expect(res.status).toBe(410);
    expect(await res.text()).toContain("has expired");
    const row = (
      await db().execute(
        "SELECT confirmed_at, email_state FROM free_brief_requests WHERE email = 'late@example.com'",
      )
    ).rows[0];
    expect(row).toMatchObject({ confirmed_at: null, email_state: "waiting" });
  });
});

describe("email limits", () => {
  test("one email per company in the period: a subdomain is the same company", async () => {
    const seen = smtp.mails.length;
    const first = new Browser("203.0.113.4");
    const res = await first.request({ website_url: "a.phish.example", email: "first@example.com" });
    expect(res.headers.get("location")).toBe("/free-brief/thanks?domain=phish.example");
    await smtp.next(seen);
    const second = new Browser("203.0.113.5");
    await second.request({ website_url: "https://b.phish.example/", email: "second@example.com" });
    const page = await second.html("/free-brief/thanks?domain=phish.example");
    expect(page).toContain("we send at most one email per company in that time");
    await freeBriefsIdle(t.services);
    expect(mailsTo("second@example.com")).toHaveLength(0);
    // One company, one research: the two requests share it.
    const r = await db().execute(
      "SELECT DISTINCT domain FROM free_brief_requests WHERE website_url LIKE 'https://_.phish.example/'",
    );
    expect(r.rows.map((x) => x.domain)).toEqual(["phish.example"]);
    const n = await db().execute("SELECT COUNT(*) AS n FROM public_briefs WHERE domain = 'phish.example'");
    expect(Number(n.rows[0].n)).toBe(1);
  });

  test("confirmations to one address are limited", async () => {
    const seen = smtp.mails.length;
    for (let i = 0; i < FREE_BRIEF.emailsPerRecipient; i++)
      await new Browser(`203.0.113.${20 + i}`).request({
        website_url: `gone${i}.example`,
        email: "victim@example.com",
      });
    const over = new Browser("203.0.113.30");
    await over.request({ website_url: "gone9.example", email: "Victim@example.com" });
    expect(await over.html("/free-brief/thanks?domain=gone9.example")).toContain(
      `The address you gave was sent ${FREE_BRIEF.emailsPerRecipient} confirmation requests`,
    );
    await freeBriefsIdle(t.services);
    expect(smtp.mails.length - seen).toBe(FREE_BRIEF.emailsPerRecipient);
    expect(mailsTo("victim@example.com")).toHaveLength(FREE_BRIEF.emailsPerRecipient);
  });

  test("an IPv6 /64 is one network: its confirmations and its form posts are counted together", async () => {
    const net = "2001:db8:77:1";
    const seen = smtp.mails.length;
    for (let i = 0; i < FREE_BRIEF.emailsPerNetwork; i++)
      await new Browser(`${net}::${i + 1}`).request({
        website_url: `netco${i}.example`,
        email: `n${i}@example.com`,
      });
    const over = new Browser(`${net}:ffff:ffff:ffff:ffff`);
    await over.request({ website_url: "netco9.example", email: "n9@example.com" });
    expect(await over.html("/free-brief/thanks?domain=netco9.example")).toContain(
      `Your network asked for ${FREE_BRIEF.emailsPerNetwork} emails today`,
    );
    // Another /64 is another network.
    await new Browser("2001:db8:77:2::1").request({
      website_url: "netco10.example",
      email: "other@example.com",
    });
    await freeBriefsIdle(t.services);
    expect(smtp.mails.length - seen).toBe(FREE_BRIEF.emailsPerNetwork + 1);
    expect(mailsTo("n9@example.com")).toHaveLength(0);
    expect(mailsTo("other@example.com")).toHaveLength(1);

    // The form's hourly limit counts the /64 too: more addresses of it do not buy more posts.
    for (let i = FREE_BRIEF.emailsPerNetwork + 1; i < FORM_LIMITS.freeBrief; i++)
      expect(
        (await new Browser(`${net}::${i + 100}`).request({ website_url: "netco0.example" })).status,
      ).toBe(303);
    const res = await new Browser(`${net}::abcd`).request({ website_url: "netco0.example" });
    expect(res.status).toBe(429);
  });
});

describe("nothing a hostile site chose reaches a reader", () => {
  test("its og:site_name is in no email; its Content-Type and error text are no reason", async () => {
    const b = new Browser("203.0.113.40");
    await b.request({ website_url: "ctype.example", email: "c@example.com" });
    const c = await confirmation("c@example.com");
    await b.post("/free-brief/confirm", { token: c });
    await b.request({ website_url: "broken.example", email: "d@example.com" });
    const d = await confirmation("d@example.com");
    await b.post("/free-brief/confirm", { token: d });
    await freeBriefsIdle(t.services);
    const ctype = await b.html("/free-brief/thanks?domain=ctype.example");
    expect(ctype).toContain(FAILURE_REASONS.unsupported_content.replaceAll("'", "&#x27;"));
    const broken = await b.html("/free-brief/thanks?domain=broken.example");
    expect(broken).toContain(FAILURE_REASONS.http_error.replaceAll("'", "&#x27;"));
    expect(mailsTo("c@example.com").at(-1)?.decoded).toContain(
      "Subject: We could not write a brief on ctype.example",
    );
    expect(mailsTo("d@example.com").at(-1)?.decoded).toContain(
      "Subject: We could not write a brief on broken.example",
    );
    const reasons = (
      await db().execute("SELECT reason FROM free_brief_requests WHERE reason IS NOT NULL")
    ).rows.map((r) => String(r.reason));
    for (const r of reasons) expect(Object.values(FAILURE_REASONS) as string[]).toContain(r);
    for (const page of [ctype, broken]) expect(page).not.toContain("suspended");
    for (const m of smtp.mails) {
      expect(m.decoded).not.toContain("suspended");
      expect(m.decoded).not.toContain("phish.example/login");
    }
  });
});

describe("the thank-you page answers only the browser that asked", () => {
  test("another browser sees the same page for a requested domain as for one nobody asked for", async () => {
    const asker = new Browser("203.0.113.50");
    await asker.request({ website_url: "halcyon.example" });
    await freeBriefsIdle(t.services);
    expect(await asker.html("/free-brief/thanks?domain=halcyon.example")).toContain("halcyon.example");
    const other = new Browser("203.0.113.51");
    const seen = await other.html("/free-brief/thanks?domain=halcyon.example");
    const never = await other.html("/free-brief/thanks?domain=never-asked.example");
    expect(seen).toBe(never);
    expect(seen).not.toContain("halcyon");
    // A made-up cookie is no other browser's.
    other.cookies.set("rivals_brief", "B".repeat(43));
    expect(await other.html("/free-brief/thanks?domain=halcyon.example")).toBe(never);
  });
});

describe("new briefs wait for an operator's review", () => {
  let briefId = 0;
  const cli = async (...args: string[]) => {
    const p = Bun.spawn([process.execPath, "src/main.ts", "briefs", ...args], {
      cwd: join(import.meta.dir, "../../.."),
      env: { ...process.env, RIVALS_DB: `file:${join(t.dir, "rivals.db")}` },
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = await new Response(p.stdout).text();
    expect(await p.exited).toBe(0);
    return out
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  };

  test("a held brief is served by no public page or tool; the requester's page says it is being read", async () => {
    const b = new Browser("203.0.113.60");
    await b.request({ website_url: "globex.example", email: "held@example.com" });
    await b.post("/free-brief/confirm", { token: await confirmation("held@example.com") });
    await freeBriefsIdle(t.services);
    const row = (await db().execute("SELECT id, review FROM public_briefs WHERE domain = 'globex.example'"))
      .rows[0];
    expect(row.review).toBe("pending");
    briefId = Number(row.id);
    expect(await b.html("/free-brief/thanks?domain=globex.example")).toContain(
      "New briefs are read by a person",
    );
    // Only the confirmation went out.
    expect(mailsTo("held@example.com")).toHaveLength(1);
    const url = `${t.base}/briefs/globex-example/brief-${t.clock.now.toISOString().slice(0, 10)}`;
    expect((await browse(t, new URL(url).pathname)).status).toBe(404);
    expect(await (await browse(t, "/briefs")).text()).not.toContain("globex-example");
    const got = await mcp.callTool({ name: "get_public_brief", arguments: { url } });
    expect(got.isError).toBe(true);
    const found = await mcp.callTool({
      name: "search_public_briefs",
      arguments: { company: "globex.example" },
    });
    expect(body(found).briefs).toEqual([]);
  });

  test("`rivals briefs held` lists it; `publish` serves it and its confirmed requester is emailed", async () => {
    const held = await cli("held");
    expect(held.map((h) => h.id)).toContain(briefId);
    const h = held.find((x) => x.id === briefId);
    expect(h.domain).toBe("globex.example");
    expect(h.findings.length).toBeGreaterThan(0);
    expect(await cli("publish", "--id", String(briefId))).toEqual([{ id: briefId, review: "published" }]);
    const seen = smtp.mails.length;
    kickFreeBriefs(t.services);
    await freeBriefsIdle(t.services);
    const mail = await smtp.next(seen);
    expect(mail.to).toEqual(["held@example.com"]);
    expect(mail.decoded).toContain("Subject: Your free brief on globex.example");
    const found = await mcp.callTool({
      name: "search_public_briefs",
      arguments: { company: "globex.example" },
    });
    expect(body(found).briefs).toHaveLength(1);
    expect(await (await browse(t, "/briefs")).text()).toContain("globex-example");
  });

  test("`reject`: never served; the requester is told it was not published", async () => {
    const b = new Browser("203.0.113.61");
    await b.request({ website_url: "phish.example" });
    await b.request({ website_url: "quantive.example", email: "rej@example.com" });
    await b.post("/free-brief/confirm", { token: await confirmation("rej@example.com") });
    await freeBriefsIdle(t.services);
    const held = await cli("held");
    const q = held.find((x) => x.domain === "quantive.example");
    expect(q).toBeDefined();
    // The phishing name is on the held brief for the operator to read, and nowhere public.
    expect(held.find((x) => x.domain === "phish.example")?.company_name).toBe(PHISH);
    expect(await cli("reject", "--id", String(q.id))).toEqual([{ id: q.id, review: "rejected" }]);
    kickFreeBriefs(t.services);
    await freeBriefsIdle(t.services);
    expect(mailsTo("rej@example.com").at(-1)?.decoded).toContain(
      "Subject: We could not publish a brief on quantive.example",
    );
    expect(await b.html("/free-brief/thanks?domain=quantive.example")).toContain(
      "We could not publish a brief on <strong>quantive.example</strong>",
    );
    const found = await mcp.callTool({ name: "search_public_briefs", arguments: { company: "quantive" } });
    expect(body(found).briefs).toEqual([]);
  });
});

describe("research is bounded", () => {
  test("a slow site is given up at the budget, and several domains are researched at once", async () => {
    const slow = await startTestServer({
      RIVALS_FETCH_REWRITE: rewrite(),
      RIVALS_FETCH_DELAY_MS: "0",
      RIVALS_FREE_BRIEF_BUDGET_MS: "800",
    });
    try {
      const b = new Browser("203.0.113.70", slow);
      await b.request({ website_url: "slow1.example" });
      await b.request({ website_url: "slow2.example" });
      const started = performance.now();
      await freeBriefsIdle(slow.services);
      // Both at once, each given up at its budget: well before one slow answer (3 s) arrives.
      expect(performance.now() - started).toBeLessThan(2500);
      expect(hostile.most()).toBeGreaterThanOrEqual(2);
      // Our own words for it: the budget spent, or (a connection the slow site dropped first) not reached.
      const ours = [FAILURE_REASONS.out_of_time, FAILURE_REASONS.unreachable].map((x) =>
        x.replaceAll("'", "&#x27;"),
      );
      for (const d of ["slow1.example", "slow2.example"]) {
        const page = await b.html(`/free-brief/thanks?domain=${d}`);
        expect(ours.some((x) => page.includes(x))).toBe(true);
      }
    } finally {
      await slow.close();
    }
  });

  test("a free brief waits at most the lower Crawl-delay ceiling between two requests to a host", async () => {
    const pauses: number[] = [];
    const base = createFetcher({
      userAgent: "RivalsBot/1.0",
      delayMs: 0,
      rewrite: [{ from: "https://crawl.example", to: hostile.origin }],
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
    const brief = budgetedFetcher(base, 60_000, () => new Date());
    await brief.fetch({ url: "https://crawl.example/" });
    await brief.fetch({ url: "https://crawl.example/pricing" });
    expect(pauses.length).toBeGreaterThan(0);
    expect(Math.max(...pauses)).toBeLessThanOrEqual(FREE_BRIEF.crawlDelayCeilingMs);
    expect(Math.max(...pauses)).toBeGreaterThan(FREE_BRIEF.crawlDelayCeilingMs - 200);
    // Monitoring waits the site's 10 s.
    pauses.length = 0;
    await base.fetch({ url: "https://crawl.example/about" });
    expect(Math.max(...pauses)).toBeGreaterThan(9_000);
  });
});
