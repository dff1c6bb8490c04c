// The monitoring settings page: an admin sets the cadence as the plan allows, the delivery channels,
// connects the team chat, sends a test message (to a webhook receiver on loopback, through
// RIVALS_FETCH_REWRITE) and disconnects; each channel's delivery status is shown; members get 403.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadSettings } from "../../src/domain/workspace.ts";
import type { FinishedCycle } from "../../src/engine/cycle/types.ts";
import { queueCycleDelivery } from "../../src/engine/deliver/outbox.ts";
import { type SlackHook, startSlackHook } from "../support/fixture-workspace.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { type Browser, formValues, member, parseForms, signedIn } from "../support/oauth-helpers.ts";

// Three sign-ins hash passwords; on a loaded machine the setup takes more than the default 5 s.
setDefaultTimeout(30_000);

const PAGE = "/app/settings/monitoring";
const HOOK_URL = "https://hooks.slack.com/services/T0/B0/secret";

let t: TestServer;
let hook: SlackHook;
let ann: Browser; // admin of acme (growth)
let bob: Browser; // member of acme
let fay: Browser; // admin of freeco (free plan)
let acmeId: number;

beforeAll(async () => {
  hook = startSlackHook();
  t = await startTestServer({
    RIVALS_FETCH_REWRITE: `https://hooks.slack.com=${hook.origin}`,
    RIVALS_FETCH_DELAY_MS: "0",
  });
  acmeId = (await t.org("acme", "growth")).id;
  await t.org("freeco", "free");
  ann = await signedIn(t, await member(t, "acme", "admin"));
  bob = await signedIn(t, await member(t, "acme", "member"));
  fay = await signedIn(t, await member(t, "freeco", "admin"));
});
afterAll(async () => {
  await t.close();
  await hook.stop();
});

async function page(b: Browser, org = "acme"): Promise<string> {
  const res = await b.request(`${PAGE}?org=${org}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return res.text();
}

/** Submits the page's form whose action ends with `action`, with some fields set or removed. */
async function submit(
  b: Browser,
  html: string,
  action: string,
  set: Record<string, string | null> = {},
): Promise<Response> {
  const form = parseForms(html).find((f) => f.action === `${PAGE}${action}`);
  if (!form) throw new Error(`no form ${action}`);
  const values = formValues(form);
  for (const [k, v] of Object.entries(set)) {
    if (v === null) values.delete(k);
    else values.set(k, v);
  }
  return b.post(form.action, values);
}

async function after(b: Browser, res: Response): Promise<string> {
  expect(res.status).toBe(303);
  const loc = res.headers.get("location")!;
  const next = await b.request(loc);
  expect(next.status).toBe(200);
  return next.text();
}

const settings = () => loadSettings(t.services.database.client, acmeId);

describe("access", () => {
  test("the app navigation links the page; a member gets 403 in the site layout and cannot post", async () => {
    const html = await page(ann);
    expect(html).toContain(`href="${PAGE}"`);
    const res = await bob.request(`${PAGE}?org=acme`);
    expect(res.status).toBe(403);
    const body = await res.text();
    expect(body).toContain("Admins only");
    expect(body).toContain("<html");
    // A member posting the admin's form (with their own CSRF token) is refused and nothing changes.
    const appHtml = await (await bob.request("/app?org=acme")).text();
    const csrf = parseForms(appHtml)
      .flatMap((f) => f.inputs)
      .find((i) => i.name === "csrf")!.value;
    const post = await bob.post(
      `${PAGE}/cadence`,
      new URLSearchParams({ csrf, org: "acme", cadence: "daily" }),
    );
    expect(post.status).toBe(403);
    expect((await settings()).cadence).toBeNull();
  });

  test("signed out: to sign in; a stale CSRF token: 403", async () => {
    const res = await fetch(t.base + PAGE, { headers: { accept: "text/html" }, redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain("/signin");
    const html = await page(ann);
    expect((await submit(ann, html, "/cadence", { csrf: "wrong", cadence: "daily" })).status).toBe(403);
    expect((await settings()).cadence).toBeNull();
  });
});

describe("cadence", () => {
  test("an admin chooses among the plan's cadences; the change is the same command as the tool", async () => {
    let html = await page(ann);
    expect(html).toContain('<option value="daily"');
    html = await after(ann, await submit(ann, html, "/cadence", { cadence: "daily" }));
    expect(html).toContain("The monitoring cadence was saved.");
    expect(html).toMatch(/<option value="daily" selected/);
    expect((await settings()).cadence).toBe("daily");
    const ev = await t.services.database.client.execute(
      "SELECT metadata FROM events WHERE type = 'MonitoringCadenceSet' ORDER BY position DESC LIMIT 1",
    );
    expect(String(ev.rows[0].metadata)).toContain('"source":"web"');
  });

  test("a cadence outside the plan is refused with the reason and changes nothing", async () => {
    const res = await submit(ann, await page(ann), "/cadence", { cadence: "hourly" });
    expect(res.status).toBe(402);
    expect(await res.text()).toContain("not in the Growth plan");
    expect((await settings()).cadence).toBe("daily");
  });

  test("a free workspace is told a cadence needs a paid plan", async () => {
    const html = await page(fay, "freeco");
    expect(html).toContain("needs a paid plan");
    const res = await submit(fay, html, "/cadence", { cadence: "weekly" });
    expect(res.status).toBe(402);
    expect(await res.text()).toContain("needs a paid plan");
  });
});

describe("chat connection, channels, test message, status", () => {
  test("team chat cannot be switched on before a connection; email can be switched off", async () => {
    const res = await submit(ann, await page(ann), "/channels", { slack: "1" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("team-chat connection");
    const html = await after(ann, await submit(ann, await page(ann), "/channels", { email: null }));
    expect(html).toContain("The delivery channels were saved.");
    expect((await settings()).email).toBe(false);
  });

  test("a webhook that is not https is refused; a Slack webhook connects", async () => {
    let res = await submit(ann, await page(ann), "/chat", { webhook: "http://example.com/hook" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("https");
    res = await submit(ann, await page(ann), "/chat", { webhook: HOOK_URL });
    const html = await after(ann, res);
    expect(html).toContain("The team chat is connected.");
    expect(html).toContain("Send a test message");
    expect((await settings()).chatConnectedAt).not.toBeNull();
  });

  test("with a connection, team chat and email are switched on", async () => {
    await after(ann, await submit(ann, await page(ann), "/channels", { email: "1", slack: "1" }));
    const st = await settings();
    expect(st.email).toBe(true);
    expect(st.slack).toBe(true);
    const html = await page(ann);
    expect(html).toMatch(/name="slack" value="1" checked/);
  });

  test("a test message goes to the webhook through the fetcher, and a failing receiver is reported", async () => {
    const res = await submit(ann, await page(ann), "/chat/test");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Test message sent: the webhook answered 200.");
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].text).toContain("ACME");
    expect(hook.received[0].blocks.length).toBeGreaterThan(0);
    hook.failing = true;
    const bad = await submit(ann, await page(ann), "/chat/test");
    hook.failing = false;
    expect(bad.status).toBe(502);
    expect(await bad.text()).toContain("The test message failed: the webhook answered 500");
    expect(hook.received).toHaveLength(1);
  });

  test("the delivery status per channel: last success, then a failure with its next try and a pending one", async () => {
    let html = await page(ann);
    expect(html).toMatch(/data-channel="slack">[\s\S]*?never/);
    // Two finished cycles with findings go through the real outbox: the first reaches the receiver, the
    // second meets a failing receiver and waits for its retry.
    const cycle = (id: number): FinishedCycle => ({
      id,
      orgId: acmeId,
      startedAt: t.clock.now.toISOString(),
      finishedAt: t.clock.now.toISOString(),
      signalIds: { created: [1], updated: [], closed: [] },
      competitorIds: [],
    });
    const before = hook.received.length;
    await queueCycleDelivery(t.services, cycle(9001));
    expect(hook.received.length).toBe(before + 1);
    t.clock.advance(60_000);
    hook.failing = true;
    await queueCycleDelivery(t.services, cycle(9002));
    hook.failing = false;
    html = await page(ann);
    const row = /<tr data-channel="slack">([\s\S]*?)<\/tr>/.exec(html)![1];
    expect(row).toContain("20 Nov 2026, 12:00 UTC");
    expect(row).toContain("the webhook answered 500");
    expect(row).toContain("1 try");
    expect(row).toMatch(/next try <time[^>]*>20 Nov 2026, 12:02 UTC/);
    expect(row).toMatch(/data-label="Pending">1</);
  });

  test("disconnect forgets the webhook; chat delivery stays chosen but inactive and says so", async () => {
    const html = await after(ann, await submit(ann, await page(ann), "/chat/disconnect"));
    expect(html).toContain("The team chat was disconnected.");
    expect(html).not.toContain("Send a test message");
    expect(html).toContain("switched on but inactive");
    const st = await settings();
    expect(st.chatConnectedAt).toBeNull();
    const r = await t.services.database.client.execute({
      sql: "SELECT chat_webhook_url FROM workspace_settings WHERE id = ?",
      args: [acmeId],
    });
    expect(r.rows[0].chat_webhook_url).toBeNull();
  });
});
