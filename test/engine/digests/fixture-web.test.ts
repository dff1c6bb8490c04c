// A digest after the fixture web's cycles, read the way a person reads it: six competitors researched on v1, a
// cycle on v2 (the planted changes) with email (a real SMTP server) and team chat (a webhook receiver on
// loopback) on. The digest is there when the cycle ends, not at the next slot; its headline follows the rule;
// its TL;DR is prose by competitor, no sentence twice; what to watch says something different for each item;
// the digest page prints nothing twice; the digest's Markdown, the email and the chat message read clean.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { handle } from "../../../events/command.ts";
import { startFixtureWeb } from "../../../fixtures/web/server.ts";
import { createSession } from "../../../src/auth/session.ts";
import { connectChat } from "../../../src/domain/chat.ts";
import { addMember } from "../../../src/domain/members.ts";
import { sentences } from "../../../src/domain/prose.ts";
import { addCompetitor } from "../../../src/domain/watchlist.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import type { CycleSummary } from "../../../src/engine/cycle/types.ts";
import { digestSignalsOf } from "../../../src/engine/digests/signals.ts";
import { watchRuleOf, whatToWatch } from "../../../src/engine/digests/watch.ts";
import { researchIdle, startResearch } from "../../../src/engine/research/runner.ts";
import { renderMarkdown } from "../../../src/web/markdown.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { rest } from "../../support/mcp-write-helpers.ts";
import { expectProse, visibleText } from "../../support/prose-check.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp-helpers.ts";

setDefaultTimeout(120_000);

const SITES = [
  "globex.example",
  "brightloop.example",
  "quantive.example",
  "northwind.example",
  "halcyon.example",
  "parcelhub.example",
];

interface Chat {
  text: string;
  blocks: { type: string; text?: { text: string }; elements?: { text: string }[] }[];
}

let web: ReturnType<typeof startFixtureWeb>;
let smtp: TestSmtp;
let hook: { origin: string; received: Chat[]; stop(): Promise<void> };
let t: TestServer;
let key: string;
let cookie: string;
let orgId: number;
let cycle: CycleSummary;
type Digest = Record<string, unknown> & {
  slug: string;
  headline: string;
  tldr: string;
  what_to_watch: string;
  markdown: string;
  items: { competitor: string; signals: { id: number; type?: string; line: string }[] }[];
};
let digest: Digest;

function startHook() {
  const received: Chat[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      received.push((await req.json()) as Chat);
      return new Response("ok");
    },
  });
  return { origin: `http://127.0.0.1:${server.port}`, received, stop: () => server.stop(true) };
}

/** Slack mrkdwn as the words a person reads: `<url|text>` is its text, entities decoded. */
const slackWords = (s: string) =>
  s
    .replace(/<([^|>]+)\|([^>]+)>/g, "$2")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The subject, text and HTML of a received mail (the subject's RFC 2047 words decoded). */
function mailParts(mail: { raw: string; decoded: string }): { subject: string; text: string; html: string } {
  const decoded = mail.decoded;
  const raw = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(mail.raw)?.[1] ?? "";
  const bytes = raw
    .replace(/\r?\n[ \t]/g, " ")
    .replace(/\?=\s*=\?UTF-8\?Q\?/gi, "")
    .replace(/^=\?UTF-8\?Q\?|\?=$/gi, "")
    .replace(/_/g, " ");
  const subject = decodeURIComponent(bytes.replace(/%/g, "%25").replace(/=([0-9A-F]{2})/gi, "%$1"));
  const body = decoded.replace(/\r\n/g, "\n");
  const part = (type: string) => {
    const at = body.indexOf(`Content-Type: ${type}`);
    if (at < 0) return "";
    const start = body.indexOf("\n\n", at) + 2;
    return body.slice(start, body.indexOf("\n----", start));
  };
  return { subject, text: part("text/plain"), html: part("text/html") };
}

/** A text without its competitors' names and numbers: what two items of a list must not share. */
const shape = (s: string, names: string[]) =>
  names.reduce((x, n) => x.replaceAll(n, "X"), s).replace(/[$£€]?\d[\d,.]*/g, "#");

beforeAll(async () => {
  web = startFixtureWeb({ version: 1 });
  hook = startHook();
  smtp = await startSmtp();
  t = await startTestServer({
    RIVALS_FETCH_REWRITE: `https://hooks.slack.com=${hook.origin},${web.rewrite}`,
    RIVALS_FETCH_DELAY_MS: "0",
    RIVALS_SMTP_URL: smtp.url,
  });
  orgId = (await t.org("acme")).id;
  key = await t.key("acme");
  const ada = await addMember(t.services.store, { org: "acme", email: "ada@acme.test", role: "admin" });
  cookie = (await createSession(t.services, ada.user_id)).cookie.split(";")[0];
  await connectChat(t.services.store, "acme", "https://hooks.slack.com/services/T0/B0/secret");
  const acme = await mcpClient(t.base, key);
  expect(
    body(await acme.callTool({ name: "set_delivery_channels", arguments: { email: true, slack: true } })),
  ).toMatchObject({ email: true, slack: true });
  for (const site of SITES)
    await t.services.store.execute(
      (w) => handle(addCompetitor, w, { orgId, actor: "operator" }, { website_url: `https://${site}` }),
      { actor: "operator" },
    );
  const started = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "watchlist" },
    "operator",
    { usesAllowance: false },
  );
  expect((await started.done).map((r) => r.status)).toEqual(SITES.map(() => "finished"));
  expect((await runCycle(t.services, orgId, { trigger: "operator" })).signals_created).toBe(0);
  web.setVersion(2);
  t.clock.advance(3_600_000);
  cycle = await runCycle(t.services, orgId, { trigger: "operator" });
  const list = (await rest(t, key, "/api/v1/digests")).json.data as { slug: string }[];
  expect(list.length).toBeGreaterThan(0);
  digest = (await rest(t, key, `/api/v1/digests/${list[0].slug}`)).json.data as Digest;
});

afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
  await hook.stop();
  await smtp.close();
});

describe("the digest after the fixture web's cycles", () => {
  test("is written by the cycle that found the changes, without waiting for the next slot", () => {
    expect(cycle.signals_created).toBeGreaterThan(10);
    expect(cycle.digests_written).toBe(1);
    // The workspace's cadence is weekly: this week's TL;DR, written at the cycle's end.
    expect(digest.slug).toBe("weekly-2026-w47");
    expect(digest.generated_at).toBe(t.clock.now.toISOString());
    expect((digest.signal_ids as number[]).length).toBe(cycle.signals_created);
  });

  test("its headline is the most material move by the rule: the free tier ending, not an annual plan", () => {
    const top = digest.items[0].signals[0];
    expect(top.type).toBe("free_tier_change");
    expect(digest.headline.startsWith("Brightloop")).toBe(true);
    expect(`High: ${digest.headline}.`).toBe(top.line);
    const planAdded = digest.items.flatMap((i) => i.signals).find((s) => s.type === "plan_added");
    expect(planAdded).toBeDefined();
    expect(digest.headline).not.toBe(planAdded!.line.replace(/^\w+: /, "").replace(/\.$/, ""));
  });

  test("its TL;DR is prose by competitor: no ids, no log lines, no sentence twice", () => {
    const told = sentences(digest.tldr);
    expect(told.length).toBeGreaterThanOrEqual(2);
    expect(told.length).toBeLessThanOrEqual(4);
    expect(told[0].startsWith("Brightloop ")).toBe(true);
    expect(digest.tldr).not.toMatch(/\bsignals? #?\d|Rivals recorded|\bAlso: /);
    // A competitor told in a sentence of its own is not told again in another one.
    for (const s of told.slice(0, 2)) {
      const name = digest.items.find((i) => s.startsWith(`${i.competitor} `))?.competitor;
      expect(name).toBeDefined();
      expect(told.filter((x) => x.includes(`${name} `))).toHaveLength(1);
    }
    const watch = sentences(digest.what_to_watch);
    const all = [...told, ...watch];
    expect(new Set(all).size).toBe(all.length);
  });

  test("what to watch says something different for each item", () => {
    const names = digest.items.map((i) => i.competitor);
    const watch = sentences(digest.what_to_watch);
    expect(watch.length).toBeGreaterThanOrEqual(3);
    const shapes = watch.map((w) => shape(w, names));
    expect(new Set(shapes).size).toBe(watch.length);
  });

  test("the open sources' signals each feed their own what-to-watch line, as the cycle wrote them", async () => {
    const signals = await digestSignalsOf(t.services.database, orgId, digest.signal_ids as number[]);
    const fed = (want: (s: (typeof signals)[number]) => boolean) =>
      signals.filter(want).map((s) => ({ title: s.title, rule: watchRuleOf(s)?.id }));
    // v2 plants: Northwind's app falls from 4.6 to 4.1 and ships 3.5.0 with notes, Globex deprecates globex-legacy,
    // Quantive's Wikidata item names a new chief executive and Quantive files an 8-K with item 5.02, a story
    // linking Brightloop passes the points threshold.
    const expected: [string, string][] = [
      ["rating_drop", "app_rating_drop"],
      ["mention", "hacker_news"],
    ];
    for (const [type, rule] of expected) {
      const got = fed((s) => s.type === type);
      expect(got.length).toBeGreaterThan(0);
      for (const g of got) expect(g).toEqual({ title: g.title, rule });
    }
    const expectOne = (want: (s: (typeof signals)[number]) => boolean, rule: string) => {
      const got = fed(want);
      expect(got).toHaveLength(1);
      expect(got[0]).toEqual({ title: got[0].title, rule });
    };
    expectOne((s) => s.type === "feature_removed" && /globex-legacy/.test(s.title), "package_deprecated");
    expectOne((s) => s.type === "leadership_change" && /chief executive/.test(s.title), "chief_executive");
    expectOne((s) => s.type === "leadership_change" && /8-K/.test(s.title), "sec_officers");
    expectOne((s) => s.type === "release" && /App Store/.test(s.title), "app_release");
    // Each says its fact in a sentence of its own, none twice.
    const lines = whatToWatch(
      signals.filter((s) => /^(app_|hacker_news|package_|chief_|sec_)/.test(watchRuleOf(s)?.id ?? "")),
      20,
    ).map((w) => w.text);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    expect(new Set(lines).size).toBe(lines.length);
    expectProse(lines.map((text) => ({ where: "what to watch", text })));
  });

  test("the page prints each part once; Markdown, email and chat read clean", async () => {
    const res = await fetch(`${t.base}/app/digests/${digest.slug}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    // Tags read as spaces: put punctuation back against its word.
    const page = visibleText(await res.text())
      .replace(/\s+([,.;:)])/g, "$1")
      .replace(/\(\s+/g, "(");
    const once = (s: string) => page.split(s.replace(/\.$/, "")).length - 1;
    expect(once(sentences(digest.tldr)[0])).toBe(1);
    expect(once(sentences(digest.what_to_watch)[0])).toBe(1);
    expect(page).not.toContain("weekly_tldr");
    // The period as its days: Monday to Sunday, not to the next Monday.
    expect(page).toMatch(/Period\s+16 Nov 2026 – 22 Nov 2026\s+Generated/);
    const md = visibleText(renderMarkdown(digest.markdown));
    expect(md).not.toMatch(/\bsignals? #?\d|Signals: \d/);
    // The email and the chat message of the same cycle.
    expect(smtp.mails).toHaveLength(1);
    const mail = mailParts(smtp.mails[0]);
    expect(mail.subject).toStartWith("[Rivals] ACME: ");
    // The email and the chat message lead with the digest's headline: one order of materiality everywhere.
    expect(mail.subject).toEndWith(` — ${digest.headline}`);
    expect(mail.text.indexOf(digest.headline)).toBe(mail.text.indexOf("- ") + 2);
    expect(mail.text).toContain("new signals on ACME's competitors");
    expect(mail.html).toContain("<a href=");
    expect(hook.received).toHaveLength(1);
    const chat = hook.received[0];
    expect(chat.text).toEndWith(` — ${digest.headline}`);
    const chatTexts = [
      chat.text,
      ...chat.blocks.flatMap((b) => [b.text?.text ?? "", ...(b.elements ?? []).map((e) => e.text)]),
    ].map(slackWords);
    expectProse([
      { where: "digest headline", text: digest.headline },
      { where: "digest tldr", text: digest.tldr },
      { where: "digest what to watch", text: digest.what_to_watch },
      { where: "digest Markdown", text: md },
      { where: "digest page", text: page },
      { where: "email subject", text: mail.subject },
      { where: "email text", text: mail.text },
      { where: "email HTML", text: visibleText(mail.html) },
      ...chatTexts.map((text, i) => ({ where: `chat ${i}`, text })),
    ]);
  });
});
