// Delivery rules: each channel gets the signals its rules let through (competitors or a list, categories, least
// severity); no rules is every signal, as before rules existed. Set with set_delivery_channels and on the
// monitoring page, shown by get_delivery_settings; tested with a cycle of the fixture web, real SMTP and a
// Slack-style receiver on loopback.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectChat } from "../../../src/domain/chat.ts";
import { decideSetDeliveryChannels } from "../../../src/domain/delivery.ts";
import { checkRules, signalMatches } from "../../../src/domain/deliveryRules.ts";
import { addMember } from "../../../src/domain/members.ts";
import { loadSettings } from "../../../src/domain/workspace.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import type { CycleWeb } from "../../support/engine-cycle-web.ts";
import {
  addResearched,
  type FixtureWorkspace,
  startFixtureWorkspace,
  teamPrice,
} from "../../support/fixture-workspace.ts";
import type { TestServer } from "../../support/helpers.ts";
import { formValues, member, parseForms, signedIn } from "../../support/oauth-helpers.ts";
import type { TestSmtp } from "../../support/smtp-helpers.ts";

setDefaultTimeout(60_000);

describe("the rule", () => {
  test("absent fields match everything; each present one narrows", () => {
    const high = { competitor_id: 1, watch: "core", category: "pricing", severity: "high" };
    expect(signalMatches(undefined, high)).toBe(true);
    expect(signalMatches({ min_severity: "medium" }, high)).toBe(true);
    expect(signalMatches({ min_severity: "medium" }, { ...high, severity: "low" })).toBe(false);
    expect(signalMatches({ watch: "horizon" }, high)).toBe(false);
    expect(signalMatches({ categories: ["product"] }, high)).toBe(false);
    expect(signalMatches({ competitor_ids: [1, 2] }, high)).toBe(true);
    expect(() => checkRules({ categories: ["prices"] })).toThrow(
      'rules.categories: unknown "prices"; the categories are pricing, product, marketing, hiring, company, legal_security',
    );
    expect(checkRules({ categories: [] })).toBeUndefined();
  });
});

const received: { text: string }[] = [];
const hook = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    received.push(await req.json());
    return new Response("ok");
  },
});

let w: FixtureWorkspace;
let web: CycleWeb;
let smtp: TestSmtp;
let t: TestServer;
let orgId: number;
let call: FixtureWorkspace["call"];

beforeAll(async () => {
  w = await startFixtureWorkspace({
    rewrite: `https://hooks.slack.com=http://127.0.0.1:${hook.port}`,
    smtp: true,
  });
  ({ web, t, orgId, call } = w);
  smtp = w.smtp!;
  await addMember(t.services.store, { org: "acme", email: "ada@acme.test", role: "admin" });
  await connectChat(t.services.store, "acme", "https://hooks.slack.com/services/T0/B0/x");
  await call("set_delivery_channels", { email: true, slack: true });
  await addResearched(w, "https://globex.example");
});
afterAll(async () => {
  await w.stop();
  hook.stop(true);
});

describe("channels with rules", () => {
  test("email only for product news: a price change goes to Slack, not by email", async () => {
    const r = await call("set_delivery_channels", { rules: { email: { categories: ["product"] } } });
    expect(r.rules).toEqual({ email: { categories: ["product"] } });
    expect(r.changed).toBe(true);
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", { transform: teamPrice("59", "69") });
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.signals_created).toBe(1);
    expect(s.deliveries).toBe(1);
    expect(received).toHaveLength(1);
    expect(smtp.mails).toHaveLength(0);
    expect((await call("get_delivery_settings")).rules).toEqual({ email: { categories: ["product"] } });
  });

  test("null clears a channel's rules: every signal again", async () => {
    await call("set_delivery_channels", { rules: { email: null } });
    expect((await loadSettings(t.services.database.client, orgId)).rules).toEqual({});
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", { transform: teamPrice("59", "79") });
    await runCycle(t.services, orgId, { trigger: "operator" });
    expect(smtp.mails.map((m) => m.to[0])).toEqual(["ada@acme.test"]);
    expect(received).toHaveLength(2);
  });

  test("an unknown category is refused naming the valid ones; the same rules again change nothing", async () => {
    const bad = await call("set_delivery_channels", { rules: { slack: { categories: ["prices"] } } });
    expect(bad.error.code).toBe("invalid_argument");
    expect(bad.error.message).toContain("the categories are pricing, product");
    const st = await loadSettings(t.services.database.client, orgId);
    expect(decideSetDeliveryChannels(st, { rules: { email: {} } })).toEqual([]);
  });

  test("the monitoring page shows and sets a channel's rules", async () => {
    const ann = await signedIn(t, await member(t, "acme", "admin"));
    const html = await (await ann.request("/app/settings/monitoring?org=acme")).text();
    expect(html).toContain("Gets every signal.");
    const form = parseForms(html).find(
      (f) => f.action === "/app/settings/monitoring/rules" && f.inputs.some((i) => i.value === "slack"),
    )!;
    const values = formValues(form);
    values.set("min_severity", "high");
    values.append("categories", "pricing");
    const res = await ann.post(form.action, values);
    expect(res.status).toBe(303);
    const after = await (await ann.request(res.headers.get("location")!)).text();
    expect(after).toContain("The delivery rules were saved.");
    expect(after).toContain("Gets only categories Pricing; severity high or higher.");
    expect((await call("get_delivery_settings")).rules).toEqual({
      slack: { categories: ["pricing"], min_severity: "high" },
    });
  });

  test("a webhook endpoint's rules: set with set_delivery_channels and on the page, shown by get_delivery_settings", async () => {
    const hook = await call("add_webhook", {
      url: "https://hooks.slack.com/in",
      event_types: ["signal.opened"],
    });
    const r = await call("set_delivery_channels", {
      webhook_rules: [{ webhook_id: hook.id, rules: { min_severity: "medium" } }],
    });
    expect(r.changed).toBe(true);
    let st = await call("get_delivery_settings");
    expect(st.webhook_rules).toEqual([
      { webhook_id: hook.id, url: "https://hooks.slack.com/in", rules: { min_severity: "medium" } },
    ]);
    expect((await call("list_webhooks")).webhooks[0].filter).toEqual({ min_severity: "medium" });
    const missing = await call("set_delivery_channels", {
      email: false,
      webhook_rules: [{ webhook_id: 999_999, rules: null }],
    });
    expect(missing.error.code).toBe("not_found");
    // Nothing of the refused call was recorded: email stays on.
    expect((await call("get_delivery_settings")).email).toBe(true);
    const ann = await signedIn(t, await member(t, "acme", "admin"));
    const html = await (await ann.request("/app/settings/monitoring?org=acme")).text();
    const form = parseForms(html).find((f) => f.inputs.some((i) => i.value === `webhook:${hook.id}`))!;
    const values = formValues(form);
    values.set("watch", "core");
    const res = await ann.post(form.action, values);
    expect(res.status).toBe(303);
    st = await call("get_delivery_settings");
    expect(st.webhook_rules[0].rules).toEqual({ watch: "core" });
  });
});
