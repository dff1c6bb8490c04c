// Webhooks against a real receiver on loopback (reached through RIVALS_FETCH_REWRITE): signed as Standard
// Webhooks says (the specification's test vector, and each message verified here with the secret add_webhook
// answered), the read API's objects, a cycle's signal events before its cycle.finished, retries with backoff
// and a receiver's Retry-After, order kept behind a failing message, the endpoint disabled after a day of
// failures (the admins emailed), and a message left by a stopped instance sent once by another
// (webhooks-cluster.test.ts: several instances).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { addMember } from "../../../src/domain/members.ts";
import {
  checkEventTypes,
  decideWebhookAttempted,
  retryAfterSeconds,
  WEBHOOK_BACKOFF_SECONDS,
  WEBHOOK_MAX_ATTEMPTS,
  webhookMatches,
} from "../../../src/domain/webhooks.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { webhookSignature } from "../../../src/engine/deliver/webhookSign.ts";
import { deliverWebhooks, webhookRound } from "../../../src/engine/deliver/webhooks.ts";
import { openServices } from "../../../src/services.ts";
import type { CycleWeb } from "../../support/engine-cycle-web.ts";
import {
  addResearched,
  type FixtureWorkspace,
  researchAsOperator,
  startFixtureWorkspace,
  teamPrice,
} from "../../support/fixture-workspace.ts";
import type { TestServer } from "../../support/helpers.ts";
import type { TestSmtp } from "../../support/smtp-helpers.ts";

setDefaultTimeout(60_000);

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  raw: string;
  json: { type: string; id: string; created_at: string; data: Record<string, unknown> };
}

interface Receiver {
  origin: string;
  received: Received[];
  /** Answer this status (and Retry-After) instead of 204. */
  failing?: { status: number; retryAfter?: string };
  stop(): Promise<void>;
}

function startReceiver(): Receiver {
  const r: Receiver = { origin: "", received: [], stop: async () => {} };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.method !== "POST" || new URL(req.url).pathname !== "/hooks/rivals")
        return new Response("no", { status: 404 });
      if (r.failing)
        return new Response("busy", {
          status: r.failing.status,
          headers: r.failing.retryAfter ? { "retry-after": r.failing.retryAfter } : {},
        });
      const raw = await req.text();
      r.received.push({
        id: req.headers.get("webhook-id") ?? "",
        timestamp: req.headers.get("webhook-timestamp") ?? "",
        signature: req.headers.get("webhook-signature") ?? "",
        raw,
        json: JSON.parse(raw),
      });
      return new Response(null, { status: 204 });
    },
  });
  r.origin = `http://127.0.0.1:${server.port}`;
  r.stop = () => server.stop(true);
  return r;
}

/** Verification as a receiver writes it (docs/webhooks.md), independent of the sender's code. */
function verify(secret: string, m: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${m.id}.${m.timestamp}.${m.raw}`).digest();
  return m.signature.split(" ").some((sig) => {
    const [version, value] = sig.split(",");
    const got = Buffer.from(value ?? "", "base64");
    return version === "v1" && got.length === expected.length && timingSafeEqual(got, expected);
  });
}

describe("Standard Webhooks signature", () => {
  test("the specification's test vector", () => {
    expect(
      webhookSignature(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });
});

describe("the rules", () => {
  test("an unknown event type is refused, naming the valid ones", () => {
    expect(() => checkEventTypes(["signal.opened", "signal.created"])).toThrow(
      'unknown event type "signal.created"; the event types are signal.opened, signal.updated, signal.closed, digest.generated, battlecard.updated, competitor.researched, cycle.finished',
    );
    expect(checkEventTypes(["cycle.finished", "signal.opened"])).toEqual(["signal.opened", "cycle.finished"]);
  });

  test("backoff, Retry-After and the last try", () => {
    const at = new Date("2026-11-20T12:00:00Z");
    const m = { id: 5, webhook_id: 4 };
    const [first] = decideWebhookAttempted(1, m, 1, at, { ok: false, status: 500, error: "HTTP 500" });
    expect(first.data).toMatchObject({ next_attempt_at: "2026-11-20T12:00:05.000Z" });
    const [asked] = decideWebhookAttempted(1, m, 1, at, {
      ok: false,
      status: 429,
      error: "HTTP 429",
      retryAfterSeconds: 600,
    });
    expect(asked.data).toMatchObject({ next_attempt_at: "2026-11-20T12:10:00.000Z" });
    const last = decideWebhookAttempted(1, m, WEBHOOK_MAX_ATTEMPTS, at, { ok: false, error: "timeout" });
    expect(last.map((e) => e.type)).toEqual(["WebhookAttempted", "WebhookDisabled"]);
    const total = WEBHOOK_BACKOFF_SECONDS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(86_400);
    expect(retryAfterSeconds("120", at)).toBe(120);
    expect(retryAfterSeconds("Fri, 20 Nov 2026 12:01:00 GMT", at)).toBe(60);
    expect(retryAfterSeconds("soon", at)).toBeUndefined();
  });

  test("filters", () => {
    const f = { competitor_ids: [7], min_severity: "medium" as const };
    expect(webhookMatches(f, "signal.opened", { competitor_id: 7, severity: "high" })).toBe(true);
    expect(webhookMatches(f, "signal.opened", { competitor_id: 7, severity: "low" })).toBe(false);
    expect(webhookMatches(f, "signal.opened", { competitor_id: 8, severity: "high" })).toBe(false);
    expect(webhookMatches(f, "battlecard.updated", { competitor_id: 7 })).toBe(true);
    expect(webhookMatches(f, "cycle.finished", {})).toBe(true);
  });
});

let w: FixtureWorkspace;
let web: CycleWeb;
let rx: Receiver;
let smtp: TestSmtp;
let t: TestServer;
let orgId: number;
let call: FixtureWorkspace["call"];
let globex: number;
let secret: string;
let hookId: number;
const HOOK = "https://hooks.zapier.com/hooks/rivals";

beforeAll(async () => {
  rx = startReceiver();
  w = await startFixtureWorkspace({ rewrite: `https://hooks.zapier.com=${rx.origin}`, smtp: true });
  ({ web, t, orgId, call } = w);
  smtp = w.smtp!;
  await addMember(t.services.store, { org: "acme", email: "ada@acme.test", role: "admin" });
  await call("set_delivery_channels", { email: false });
  globex = await addResearched(w, "https://globex.example");
});
afterAll(async () => {
  await w.stop();
  await rx.stop();
});

describe("webhook endpoints through the tools", () => {
  test("an unknown event type is refused with the valid ones named; an http address is refused", async () => {
    const r = await call("add_webhook", { url: HOOK, event_types: ["signal.created"] });
    expect(r.error.code).toBe("invalid_argument");
    expect(r.error.message).toContain("signal.opened, signal.updated");
    const insecure = await call("add_webhook", {
      url: "http://hooks.zapier.com/x",
      event_types: ["signal.opened"],
    });
    expect(insecure.error.message).toContain("https");
  });

  test("add_webhook answers the secret once; list_webhooks shows only a hint", async () => {
    const added = await call("add_webhook", {
      url: HOOK,
      event_types: [
        "signal.opened",
        "signal.updated",
        "signal.closed",
        "cycle.finished",
        "competitor.researched",
      ],
    });
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    secret = added.secret;
    hookId = added.id;
    const list = await call("list_webhooks");
    expect(list.webhooks).toHaveLength(1);
    expect(list.webhooks[0]).toMatchObject({ id: hookId, url: HOOK, state: "active", pending: 0 });
    expect(list.webhooks[0].secret_hint).toBe(`whsec_…${secret.slice(-4)}`);
    expect(JSON.stringify(list)).not.toContain(secret.slice(6, 20));
  });
});

describe("delivery", () => {
  test("a cycle's signal events, signed, with the read API's object, before its cycle.finished", async () => {
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", { transform: teamPrice("59", "69") });
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.signals_created).toBe(1);
    const types = rx.received.map((m) => m.json.type);
    expect(types).toEqual(["signal.opened", "cycle.finished"]);
    for (const m of rx.received) {
      expect(verify(secret, m)).toBe(true);
      expect(m.json.id).toBe(m.id);
      expect(m.timestamp).toBe(String(Math.floor(t.clock.now.getTime() / 1000)));
    }
    const opened = rx.received[0].json;
    const rest = await (
      await t.get(`/api/v1/signals/${opened.data.id}`, { "x-api-key": await t.key("acme") })
    ).json();
    expect(opened.data).toEqual(rest.data);
    expect(opened.data.url).toBe(`${t.base}/app/signals/${opened.data.id}`);
    expect(rx.received[1].json.data).toMatchObject({ id: s.cycle_id, signals_opened: [opened.data.id] });
    // Another round sends nothing again.
    expect(await webhookRound(t.services)).toBe(0);
    expect(rx.received).toHaveLength(2);
  });

  test("a research run's competitor.researched carries the competitor the read API serves", async () => {
    rx.received.length = 0;
    await researchAsOperator(t.services, orgId, globex);
    await webhookRound(t.services);
    expect(rx.received.map((m) => m.json.type)).toEqual(["competitor.researched"]);
    const rest = await (
      await t.get(`/api/v1/competitors/${globex}`, { "x-api-key": await t.key("acme") })
    ).json();
    expect(rx.received[0].json.data).toEqual(rest.data);
    expect(verify(secret, rx.received[0])).toBe(true);
  });

  test("a failing receiver: Retry-After honoured, order kept, then sent in order once it answers", async () => {
    rx.received.length = 0;
    rx.failing = { status: 503, retryAfter: "120" };
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", { transform: teamPrice("59", "79") });
    await runCycle(t.services, orgId, { trigger: "operator" });
    expect(rx.received).toHaveLength(0);
    let list = (await call("list_webhooks")).webhooks[0];
    expect(list.pending).toBeGreaterThanOrEqual(2);
    // Not due before the 120 s the receiver asked for (the backoff alone would be 5 s).
    t.clock.advance(60_000);
    rx.failing = undefined;
    expect(await webhookRound(t.services)).toBe(0);
    t.clock.advance(61_000);
    expect(await webhookRound(t.services)).toBe(list.pending);
    const types = rx.received.map((m) => m.json.type);
    expect(types.at(-1)).toBe("cycle.finished");
    expect(types.slice(0, -1).every((x) => x.startsWith("signal."))).toBe(true);
    list = (await call("list_webhooks")).webhooks[0];
    expect(list.pending).toBe(0);
  });

  test("a message left claimed by a stopped instance is sent once by another after the claim expires", async () => {
    rx.received.length = 0;
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", { transform: teamPrice("59", "89") });
    // The receiver is down while the cycle ends; an instance then takes the endpoint and stops mid-delivery.
    rx.failing = { status: 500 };
    await runCycle(t.services, orgId, { trigger: "operator" });
    rx.failing = undefined;
    await t.services.database.client.execute({
      sql: "INSERT OR REPLACE INTO delivery_claims (delivery_id, holder, expires_at) VALUES (?, 'stopped', ?)",
      args: [hookId, new Date(t.clock.now.getTime() + 120_000).toISOString()],
    });
    t.clock.advance(10_000);
    const restarted = await openServices(t.services.config, () => t.clock.now);
    try {
      expect(await deliverWebhooks(restarted)).toBe(0);
      t.clock.advance(120_000);
      const sent = await deliverWebhooks(restarted);
      expect(sent).toBeGreaterThanOrEqual(2);
      expect(await deliverWebhooks(restarted)).toBe(0);
    } finally {
      restarted.close();
    }
    const ids = rx.received.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rx.received.at(-1)?.json.type).toBe("cycle.finished");
  });

  test("a receiver that fails for a day disables its endpoint and the admins are told", async () => {
    rx.received.length = 0;
    rx.failing = { status: 500 };
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", { transform: teamPrice("59", "109") });
    await runCycle(t.services, orgId, { trigger: "operator" });
    for (const sec of WEBHOOK_BACKOFF_SECONDS) {
      t.clock.advance(sec * 1000 + 1000);
      await webhookRound(t.services);
    }
    const w = (await call("list_webhooks")).webhooks[0];
    expect(w.state).toBe("disabled");
    expect(w.disabled_reason).toContain("HTTP 500");
    expect(w.pending).toBeGreaterThanOrEqual(1);
    expect(smtp.mails.map((m) => m.to[0])).toContain("ada@acme.test");
    expect(smtp.mails.at(-1)?.decoded).toContain("webhook endpoint was disabled");
    // Disabled: nothing is tried even when the receiver is back.
    rx.failing = undefined;
    t.clock.advance(86_400_000);
    expect(await webhookRound(t.services)).toBe(0);
    expect(rx.received).toHaveLength(0);
  });

  test("remove_webhook of an unknown endpoint is not_found", async () => {
    const r = await call("remove_webhook", { webhook_id: 999_999 });
    expect(r.error.code).toBe("not_found");
  });
});
