// Every argument error says what to send instead and which tool lists valid values: a wrong type, an
// argument a tool does not take, and an id (of a competitor, signal, digest, battlecard, page or webhook) that
// names nothing in the caller's workspace — whether the tool or the command behind it refuses it. Each names
// the argument to blame.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";

let t: TestServer;
let acme: Client;
let globex: number;
/** Another workspace's records: as unknown to acme as ids that were never made. */
let other: { competitor: number; signal: number };
const MISSING = 987654;

const refusal = async (name: string, args: Record<string, unknown>) => {
  const r = await acme.callTool({ name, arguments: args });
  expect({ name, isError: r.isError }).toEqual({ name, isError: true });
  return body(r).error as { code: string; message: string; argument?: string };
};

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  await t.org("umbrella", "growth");
  const r = await t.load([
    { kind: "competitor", org: "acme", key: "g", name: "Globex", website_url: "https://globex.example" },
    { kind: "competitor", org: "umbrella", key: "h", name: "Hooli", website_url: "https://hooli.example" },
    {
      kind: "signal",
      org: "umbrella",
      key: "s",
      competitor: "h",
      title: "Hooli cuts prices",
      first_seen_at: "2026-11-18T00:00:00Z",
      evidence: [{ text: "Now $5", source_url: "https://hooli.example/pricing" }],
    },
  ]);
  expect(r.errors).toEqual([]);
  acme = await mcpClient(t.base, await t.key("acme", "read,write,spend"));
  const umbrella = await mcpClient(t.base, await t.key("umbrella", "read"));
  const u = body(await umbrella.callTool({ name: "search_signals", arguments: {} }));
  other = { competitor: u.signals[0].competitor_id, signal: u.signals[0].id };
  await umbrella.close();
  globex = body(await acme.callTool({ name: "list_competitors", arguments: {} })).competitors[0].id;
});
afterAll(async () => {
  await acme.close();
  await t.close();
});

describe("an id that names nothing here says where valid ones come from", () => {
  const cases: [string, () => Record<string, unknown>, string, RegExp][] = [
    ["get_competitor", () => ({ competitor_id: MISSING }), "competitor_id", /list_competitors/],
    ["get_competitor", () => ({ competitor_id: other.competitor }), "competitor_id", /list_competitors/],
    ["rename_competitor", () => ({ competitor_id: MISSING, name: "X" }), "competitor_id", /list_competitors/],
    ["remove_competitor", () => ({ competitor_id: MISSING }), "competitor_id", /list_competitors/],
    [
      "add_monitored_page",
      () => ({ competitor_id: MISSING, url: "https://x.example/p" }),
      "competitor_id",
      /list_competitors/,
    ],
    ["research_competitor", () => ({ competitor_id: MISSING }), "competitor_id", /list_competitors/],
    ["generate_battlecard", () => ({ competitor_id: MISSING }), "competitor_id", /list_competitors/],
    [
      "add_battlecard_note",
      () => ({ competitor_id: MISSING, body: "x" }),
      "competitor_id",
      /list_competitors/,
    ],
    ["create_feed", () => ({ competitor_id: MISSING }), "competitor_id", /list_competitors/],
    ["search_signals", () => ({ competitor: "Nobody Inc" }), "competitor", /list_competitors/],
    ["get_signal", () => ({ signal_id: other.signal }), "signal_id", /what_changed or search_signals/],
    ["get_evidence", () => ({ signal_id: MISSING }), "signal_id", /what_changed or search_signals/],
    [
      "pin_signal",
      () => ({ signal_id: MISSING, pinned: true }),
      "signal_id",
      /what_changed or search_signals/,
    ],
    [
      "save_signal",
      () => ({ signal_id: MISSING, saved: true }),
      "signal_id",
      /what_changed or search_signals/,
    ],
    [
      "add_signal_note",
      () => ({ signal_id: MISSING, body: "x" }),
      "signal_id",
      /what_changed or search_signals/,
    ],
    [
      "rate_signal",
      () => ({ signal_id: MISSING, useful: true }),
      "signal_id",
      /what_changed or search_signals/,
    ],
    ["create_share_link", () => ({ signal_id: other.signal }), "signal_id", /what_changed or search_signals/],
    ["get_digest", () => ({ id: "no-such-digest" }), "id", /list_digests/],
    ["get_digest", () => ({ type: "monthly_report" }), "type", /list_digests/],
    ["pin_digest", () => ({ digest_id: MISSING, pinned: true }), "digest_id", /list_digests/],
    ["add_digest_note", () => ({ digest_id: "no-such-digest", body: "x" }), "digest_id", /list_digests/],
    ["rate_digest", () => ({ digest_id: MISSING, score: 3 }), "digest_id", /list_digests/],
    ["get_battlecard", () => ({ battlecard_id: MISSING }), "battlecard_id", /list_battlecards/],
    ["get_battlecard", () => ({ competitor_id: globex }), "competitor_id", /list_battlecards/],
    [
      "review_battlecard",
      () => ({ competitor_id: globex, decision: "accept" }),
      "competitor_id",
      /list_battlecards/,
    ],
    [
      "remove_monitored_page",
      () => ({ competitor_id: globex, page_id: MISSING }),
      "page_id",
      /add_monitored_page or get_competitor/,
    ],
    ["remove_webhook", () => ({ webhook_id: MISSING }), "webhook_id", /list_webhooks/],
  ];
  for (const [name, args, argument, lists] of cases)
    test(`${name} ${argument}`, async () => {
      const a = args();
      const e = await refusal(name, a);
      expect({ name, a, code: e.code, argument: e.argument }).toEqual({
        name,
        a,
        code: "not_found",
        argument,
      });
      expect(e.message).toMatch(lists);
    });
});

describe("a wrong argument says what to send instead", () => {
  test("a word where an id is asked names the tool that lists ids", async () => {
    const e = await refusal("get_signal", { signal_id: "the pricing one" });
    expect(e).toMatchObject({ code: "invalid_argument", argument: "signal_id" });
    expect(e.message).toContain("signal_id: ");
    expect(e.message).toContain("send a signal's numeric id from what_changed or search_signals");
    const d = await refusal("pin_digest", { digest_id: true, pinned: true });
    expect(d).toMatchObject({ code: "invalid_argument", argument: "digest_id" });
    expect(d.message).toContain("list_digests");
    const w = await refusal("remove_webhook", { webhook_id: "first" });
    expect(w.message).toContain("list_webhooks");
  });

  test("an argument the tool does not take names the ones it does", async () => {
    const e = await refusal("get_signal", { signal_id: 1, id: 3 });
    expect(e).toMatchObject({ code: "invalid_argument", argument: "id" });
    expect(e.message).toBe("id: not an argument of get_signal; it takes signal_id");
  });

  test("a value outside a closed set names the valid ones or the tool that lists them", async () => {
    const c = await refusal("set_monitoring_cadence", { cadence: "monthly" });
    expect(c).toMatchObject({ code: "invalid_argument", argument: "cadence" });
    expect(c.message).toContain("get_delivery_settings");
    const s = await refusal("search_signals", { severity: "urgent" });
    expect(s).toMatchObject({ code: "invalid_argument", argument: "severity" });
    expect(s.message).toContain('"high"');
  });

  test("a malformed cursor or time says what to send", async () => {
    const c = await refusal("list_competitors", { cursor: "page-2" });
    expect(c).toMatchObject({ code: "invalid_argument", argument: "cursor" });
    expect(c.message).toContain("next_cursor");
    const s = await refusal("what_changed", { since: "last week" });
    expect(s).toMatchObject({ code: "invalid_argument", argument: "since" });
    expect(s.message).toContain("2026-11-01T00:00:00Z");
  });

  test("get_battlecard without a card to name says how to name one", async () => {
    const e = await refusal("get_battlecard", {});
    expect(e).toMatchObject({ code: "invalid_argument", argument: "battlecard_id" });
    expect(e.message).toContain("list_battlecards");
  });

  test("both competitor_id and competitor, or neither where one is needed", async () => {
    const both = await refusal("get_competitor", { competitor_id: globex, competitor: "Globex" });
    expect(both).toMatchObject({ code: "invalid_argument", argument: "competitor" });
    const none = await refusal("get_competitor", {});
    expect(none).toMatchObject({ code: "invalid_argument", argument: "competitor_id" });
    expect(none.message).toContain("list_competitors");
  });
});
