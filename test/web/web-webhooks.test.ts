// Webhook endpoints on the integrations page: an admin adds one (the secret shown once), sends a test event
// to a receiver on loopback (through RIVALS_FETCH_REWRITE) and sees it in the endpoint's recent messages,
// turns a disabled endpoint back on and removes it; an unknown event type is refused naming the valid ones;
// members cannot post.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { type Browser, formValues, member, parseForms, signedIn } from "../support/oauth-helpers.ts";

setDefaultTimeout(30_000);

const PAGE = "/app/settings/integrations";
const received: { headers: Headers; raw: string }[] = [];
const rx = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    received.push({ headers: req.headers, raw: await req.text() });
    return new Response(null, { status: 204 });
  },
});

let t: TestServer;
let ann: Browser;
let bob: Browser;

beforeAll(async () => {
  t = await startTestServer({
    RIVALS_FETCH_REWRITE: `https://hooks.example.com=http://127.0.0.1:${rx.port}`,
    RIVALS_FETCH_DELAY_MS: "0",
  });
  await t.org("acme", "growth");
  ann = await signedIn(t, await member(t, "acme", "admin"));
  bob = await signedIn(t, await member(t, "acme", "member"));
});
afterAll(async () => {
  await t.close();
  rx.stop(true);
});

const page = async (b: Browser) => (await b.request(`${PAGE}?org=acme`)).text();
const formOf = (html: string, action: string) => {
  const f = parseForms(html).find((x) => x.action === action);
  if (!f) throw new Error(`no form ${action}`);
  return f;
};

let secret = "";

test("an admin adds an endpoint and sees its secret once", async () => {
  const html = await page(ann);
  const values = formValues(formOf(html, `${PAGE}/webhooks`));
  values.set("url", "https://hooks.example.com/in");
  const res = await ann.post(`${PAGE}/webhooks`, values);
  expect(res.status).toBe(200);
  const out = await res.text();
  expect(out).toContain("it is shown only once");
  secret = /id="new-webhook-secret"[^>]*value="(whsec_[^"]+)"/.exec(out)?.[1] ?? "";
  expect(secret).toMatch(/^whsec_/);
  const again = await page(ann);
  expect(again).not.toContain(secret);
  expect(again).toContain(`whsec_…${secret.slice(-4)}`);
  expect(again).toContain("https://hooks.example.com/in");
});

test("an unknown event type is refused naming the valid ones; a member cannot add", async () => {
  const html = await page(ann);
  const values = formValues(formOf(html, `${PAGE}/webhooks`));
  values.set("url", "https://hooks.example.com/other");
  values.delete("event_types");
  values.append("event_types", "signal.created");
  const res = await ann.post(`${PAGE}/webhooks`, values);
  expect(res.status).toBe(400);
  const out = await res.text();
  expect(out).toContain("unknown event type &quot;signal.created&quot;");
  expect(out).toContain("signal.opened, signal.updated, signal.closed");
  const csrf = parseForms(await (await bob.request("/app?org=acme")).text())
    .flatMap((f) => f.inputs)
    .find((i) => i.name === "csrf")!.value;
  const post = await bob.post(
    `${PAGE}/webhooks`,
    new URLSearchParams({
      csrf,
      org: "acme",
      url: "https://hooks.example.com/x",
      event_types: "signal.opened",
    }),
  );
  expect(post.status).toBe(403);
});

test("send a test event: signed, received, and in the endpoint's recent messages", async () => {
  const html = await page(ann);
  const form = parseForms(html).find((f) => /\/webhooks\/\d+\/test$/.test(f.action))!;
  const res = await ann.post(form.action, formValues(form));
  expect(res.status).toBe(303);
  expect(received).toHaveLength(1);
  const m = received[0];
  const json = JSON.parse(m.raw);
  expect(json.type).toBe("webhook.test");
  const key = Buffer.from(secret.slice(6), "base64");
  const mac = createHmac("sha256", key)
    .update(`${m.headers.get("webhook-id")}.${m.headers.get("webhook-timestamp")}.${m.raw}`)
    .digest("base64");
  expect(m.headers.get("webhook-signature")).toBe(`v1,${mac}`);
  const after = await (await ann.request(res.headers.get("location")!)).text();
  expect(after).toContain("A test event was sent");
  expect(after).toContain("test event");
  expect(after).toContain("Delivered (204)");
});

test("a disabled endpoint says why and turns on again; remove", async () => {
  const id = Number(/data-webhook-id="(\d+)"/.exec(await page(ann))![1]);
  const orgId = (await t.services.database.client.execute("SELECT id FROM orgs WHERE slug = 'acme'")).rows[0]
    .id;
  await t.services.store.execute(async () => ({
    events: [
      {
        type: "WebhookDisabled",
        orgId: Number(orgId),
        streamType: "webhook",
        streamId: String(id),
        data: { id, disabled_at: t.clock.now.toISOString(), reason: "A message failed 8 times over a day." },
      },
    ],
    result: null,
  }));
  let html = await page(ann);
  expect(html).toContain("A message failed 8 times over a day.");
  const enable = formOf(html, `${PAGE}/webhooks/${id}/enable`);
  html = await (
    await ann.request((await ann.post(enable.action, formValues(enable))).headers.get("location")!)
  ).text();
  expect(html).toContain("is on again");
  expect(html).not.toContain("Turn on again");
  const remove = formOf(html, `${PAGE}/webhooks/${id}/remove`);
  html = await (
    await ann.request((await ann.post(remove.action, formValues(remove))).headers.get("location")!)
  ).text();
  expect(html).toContain("was removed");
  expect(html).not.toContain("https://hooks.example.com/in");
});
