// Delivery of finished cycles against a real SMTP server (smtp-server) and a Slack-style webhook
// receiver on loopback, reached through RIVALS_FETCH_REWRITE: one email per admin and one chat message per cycle
// with findings, none for a quiet cycle, none twice (a second pass, a "restarted" process), a failing receiver
// retried with backoff and reported in get_delivery_settings.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectChat } from "../../../src/domain/chat.ts";
import { addMember } from "../../../src/domain/members.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { deliverDue } from "../../../src/engine/deliver/outbox.ts";
import { linkBase, recordServingBase } from "../../../src/engine/linkBase.ts";
import { openServices } from "../../../src/services.ts";
import type { CycleWeb } from "../../support/engine-cycle-web.ts";
import {
  addResearched,
  type FixtureWorkspace,
  type SlackHook,
  startFixtureWorkspace,
  startSlackHook,
  teamPrice,
} from "../../support/fixture-workspace.ts";
import type { TestServer } from "../../support/helpers.ts";
import type { TestSmtp } from "../../support/smtp-helpers.ts";

setDefaultTimeout(60_000);

let w: FixtureWorkspace;
let web: CycleWeb;
let hook: SlackHook;
let smtp: TestSmtp;
let t: TestServer;
let call: FixtureWorkspace["call"];

beforeAll(async () => {
  hook = startSlackHook();
  w = await startFixtureWorkspace({ rewrite: `https://hooks.slack.com=${hook.origin}`, smtp: true });
  ({ web, t, call } = w);
  smtp = w.smtp!;
  await addMember(t.services.store, { org: "acme", email: "ada@acme.test", role: "admin" });
  await addMember(t.services.store, { org: "acme", email: "bob@acme.test", role: "admin" });
  await addMember(t.services.store, { org: "acme", email: "cy@acme.test", role: "member" });
  await connectChat(t.services.store, "acme", "https://hooks.slack.com/services/T0/B0/secret");
  expect(await call("set_delivery_channels", { email: true, slack: true })).toMatchObject({
    email: true,
    slack: true,
  });
  await addResearched(w, "https://globex.example");
});
afterAll(async () => {
  await w.stop();
  await hook.stop();
});

describe("delivery of finished cycles", () => {
  test("a quiet cycle delivers nothing", async () => {
    const s = await runCycle(t.services, w.orgId, { trigger: "operator" });
    expect(s.signals_created).toBe(0);
    expect(s.deliveries).toBe(0);
    expect(smtp.mails).toHaveLength(0);
    expect(hook.received).toHaveLength(0);
  });

  test("a cycle with findings: one email per admin (text and HTML, links) and one chat message, exactly once", async () => {
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", { transform: teamPrice("59", "69") });
    const s = await runCycle(t.services, w.orgId, { trigger: "operator" });
    expect(s.signals_created).toBe(1);
    expect(s.deliveries).toBe(3);
    expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(["ada@acme.test", "bob@acme.test"]);
    const mail = smtp.mails[0].decoded;
    expect(mail).toContain("1 new signal on ACME's competitors");
    expect(mail).toContain("Subject: =?UTF-8?Q?[Rivals]_ACME:_1_new_signal");
    expect(mail).toContain("text/plain");
    expect(mail).toContain("text/html");
    expect(mail).toContain("$69");
    expect(mail).toContain(`${t.base}/app/signals/`);
    expect(mail).toContain("https://globex.example/pricing");
    expect(hook.received).toHaveLength(1);
    const msg = hook.received[0];
    expect(msg.text).toContain("1 new signal");
    expect(msg.blocks[0].type).toBe("header");
    expect(JSON.stringify(msg.blocks)).toContain(`${t.base}/app/signals/`);
    expect(JSON.stringify(msg.blocks)).toContain("*High*");
    // Another pass of the outbox sends nothing again.
    t.clock.advance(600_000);
    expect(await deliverDue(t.services)).toBe(0);
    expect(smtp.mails).toHaveLength(2);
    expect(hook.received).toHaveLength(1);
    const st = await call("get_delivery_settings");
    expect(st.delivery_status.email.last_success_at).toBe(
      new Date(t.clock.now.getTime() - 600_000).toISOString(),
    );
    expect(st.delivery_status.slack.pending).toBe(0);
    expect(st.delivery_status.slack.last_failure).toBeUndefined();
  });

  test("a failing receiver is retried with backoff and reported; a restarted process sends it once", async () => {
    hook.failing = true;
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", { transform: teamPrice("59", "79") });
    const s = await runCycle(t.services, w.orgId, { trigger: "operator" });
    expect(s.signals_created).toBe(1);
    expect(s.deliveries).toBe(2); // the two emails; the chat message failed
    expect(smtp.mails).toHaveLength(4);
    let st = await call("get_delivery_settings");
    expect(st.delivery_status.slack.pending).toBe(1);
    expect(st.delivery_status.slack.last_failure).toMatchObject({
      attempts: 1,
      gave_up: false,
      next_attempt_at: new Date(t.clock.now.getTime() + 60_000).toISOString(),
    });
    expect(st.delivery_status.slack.last_failure.error).toContain("500");
    // Not due yet: nothing is tried.
    expect(await deliverDue(t.services)).toBe(0);
    // A second try after the backoff fails again and waits longer.
    t.clock.advance(61_000);
    expect(await deliverDue(t.services)).toBe(0);
    st = await call("get_delivery_settings");
    expect(st.delivery_status.slack.last_failure.attempts).toBe(2);
    expect(st.delivery_status.slack.last_failure.next_attempt_at).toBe(
      new Date(t.clock.now.getTime() + 5 * 60_000).toISOString(),
    );
    // The receiver recovers; a restarted process (new services on the same database) sends the pending message
    // once and none of the delivered emails again.
    hook.failing = false;
    t.clock.advance(5 * 60_000 + 1_000);
    const restarted = await openServices(t.services.config, () => t.clock.now);
    try {
      expect(await deliverDue(restarted)).toBe(1);
      expect(await deliverDue(restarted)).toBe(0);
    } finally {
      restarted.close();
    }
    expect(hook.received).toHaveLength(2);
    expect(JSON.stringify(hook.received[1].blocks)).toContain("$79");
    expect(smtp.mails).toHaveLength(4);
    st = await call("get_delivery_settings");
    expect(st.delivery_status.slack.pending).toBe(0);
    expect(st.delivery_status.slack.last_success_at).toBe(t.clock.now.toISOString());
  });

  test("a receiver that keeps failing is given up after the last try, and said so", async () => {
    hook.failing = true;
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", { transform: teamPrice("59", "89") });
    await runCycle(t.services, w.orgId, { trigger: "operator" });
    for (const minutes of [1, 5, 30, 120, 360]) {
      t.clock.advance(minutes * 60_000 + 1_000);
      await deliverDue(t.services);
    }
    const st = await call("get_delivery_settings");
    expect(st.delivery_status.slack.last_failure).toMatchObject({ attempts: 6, gave_up: true });
    expect(st.delivery_status.slack.last_failure.next_attempt_at).toBeUndefined();
    expect(st.delivery_status.slack.pending).toBe(0);
    hook.failing = false;
    t.clock.advance(3_600_000);
    expect(await deliverDue(t.services)).toBe(0);
  });

  test("a cycle run from a shell without RIVALS_BASE_URL links where the serving instance answers", async () => {
    // What `rivals serve` records when it starts; a shell's configuration has only the default address.
    await recordServingBase(t.services, t.base);
    const shell = await openServices(
      { ...t.services.config, baseUrl: "http://localhost:3000", baseUrlSet: false },
      () => t.clock.now,
    );
    const mails = smtp.mails.length;
    const messages = hook.received.length;
    try {
      expect(await linkBase(shell)).toBe(t.base);
      t.clock.advance(3_600_000);
      web.set("globex.example", "/pricing", { transform: teamPrice("59", "99") });
      const s = await runCycle(shell, w.orgId, { trigger: "operator" });
      expect(s.signals_created).toBe(1);
    } finally {
      shell.close();
    }
    const sent = smtp.mails.slice(mails).map((m) => m.decoded);
    expect(sent).toHaveLength(2);
    for (const mail of sent) {
      expect(mail).toContain(`${t.base}/app/signals/`);
      expect(mail).not.toContain("localhost:3000");
    }
    const chat = JSON.stringify(hook.received.slice(messages));
    expect(chat).toContain(`${t.base}/app/signals/`);
    expect(chat).not.toContain("localhost:3000");
    // An operator's RIVALS_BASE_URL is the address links use, whatever the serving instance recorded.
    const configured = await openServices(
      { ...t.services.config, baseUrl: "https://rivals.acme.test", baseUrlSet: true },
      () => t.clock.now,
    );
    try {
      expect(await linkBase(configured)).toBe("https://rivals.acme.test");
    } finally {
      configured.close();
    }
  });
});
