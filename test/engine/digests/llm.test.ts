// The optional language-model writer: an OpenAI-compatible server on loopback that the test starts
// (Bun.serve answering POST /v1/chat/completions) rephrases a digest's TL;DR through the one fetcher. A good
// answer is used and recorded (`writer: "llm:<model>"`); a sentence citing an unknown signal, a number the
// evidence does not state, an HTTP 500, a bad JSON answer or a slow answer keeps the deterministic text.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadConfig } from "../../../src/config.ts";
import { generateDigest } from "../../../src/engine/digests/generate.ts";
import { createFetcher, fetcherOptions } from "../../../src/engine/fetch/index.ts";
import { type CitedSentence, checkSentences, rephraseSentences } from "../../../src/engine/llm/rephrase.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

setDefaultTimeout(30_000);

const ORG = "acme";
const KEY = "sk-test-secret-key";
const PRICE = "Globex raises Team plan price from $49 to $59 per seat/month (+20%)";
const SSO = "Initech launches SSO on all plans";

type Mode = "good" | "unknown_id" | "new_number" | "500" | "not_json" | "slow" | "one_sentence" | "names_id";
let mode: Mode = "good";
const seen: { auth: string | null; body: Record<string, unknown> }[] = [];
let ids = { price: 0, sso: 0 };

function answer(sentences: unknown): Response {
  return Response.json({
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify({ sentences }) } }],
  });
}

const llm = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions")
      return new Response("not found", { status: 404 });
    seen.push({
      auth: req.headers.get("authorization"),
      body: (await req.json()) as Record<string, unknown>,
    });
    const both = [ids.price, ids.sso];
    const good = [
      { text: "Two competitors moved, one of them in a big way.", signal_ids: both },
      {
        text: "Globex lifted its Team plan from $49 to $59 per seat a month, up 20%.",
        signal_ids: [ids.price],
      },
      { text: "Initech now ships SSO on every plan.", signal_ids: [ids.sso] },
    ];
    switch (mode) {
      case "good":
        return answer(good);
      case "unknown_id":
        return answer([good[0], { ...good[1], signal_ids: [ids.price, 999_999] }]);
      case "new_number":
        return answer([good[0], { ...good[1], text: "Globex lifted its Team plan to $69 per seat." }]);
      case "one_sentence":
        return answer([good[1]]);
      case "names_id":
        return answer([good[0], { ...good[1], text: `${good[1].text} (signal ${ids.price})` }]);
      case "500":
        return new Response("overloaded", { status: 500 });
      case "not_json":
        return Response.json({ choices: [{ message: { role: "assistant", content: "Sure! Here it is." } }] });
      case "slow":
        await Bun.sleep(1500);
        return answer(good);
    }
  },
});

let t: TestServer;
let orgId = 0;
const END = new Date("2026-11-20T00:00:00Z");

beforeAll(async () => {
  t = await startTestServer({
    RIVALS_LLM_BASE_URL: `http://127.0.0.1:${llm.port}/v1/`,
    RIVALS_LLM_MODEL: "test-model",
    RIVALS_LLM_API_KEY: KEY,
    RIVALS_FETCH_DELAY_MS: "0",
  });
  orgId = (await t.org(ORG)).id;
  const at = "2026-11-19T09:00:00.000Z";
  const r = await t.load([
    { kind: "competitor", org: ORG, key: "globex", name: "Globex", website_url: "https://globex.example" },
    { kind: "competitor", org: ORG, key: "initech", name: "Initech", website_url: "https://initech.example" },
    {
      kind: "signal",
      org: ORG,
      key: "s-price",
      competitor: "globex",
      title: PRICE,
      severity: "high",
      status: "open",
      first_seen_at: at,
    },
    {
      kind: "signal",
      org: ORG,
      key: "s-sso",
      competitor: "initech",
      title: SSO,
      severity: "medium",
      status: "open",
      first_seen_at: at,
    },
  ]);
  expect(r.errors).toEqual([]);
  const rows = (await t.services.database.client.execute("SELECT id, title FROM signals ORDER BY id")).rows;
  ids = {
    price: Number(rows.find((x) => x.title === PRICE)?.id),
    sso: Number(rows.find((x) => x.title === SSO)?.id),
  };
});

afterAll(async () => {
  await t.close();
  llm.stop(true);
});

async function digestTldr(id: number): Promise<string> {
  const r = await t.services.database.client.execute({
    sql: "SELECT state FROM digests WHERE id = ?",
    args: [id],
  });
  return (JSON.parse(String(r.rows[0].state)) as { tldr: string }).tldr;
}

async function lastWriter(id: number): Promise<unknown> {
  const r = await t.services.database.client.execute({
    sql: "SELECT data FROM events WHERE type = 'DigestRecorded' AND stream_id = ? ORDER BY position DESC LIMIT 1",
    args: [String(id)],
  });
  return (JSON.parse(String(r.rows[0].data)) as { writer?: string }).writer;
}

describe("the language-model writer of a digest's TL;DR", () => {
  test("off without all three variables", () => {
    expect(
      loadConfig({ RIVALS_LLM_BASE_URL: "http://127.0.0.1:1/v1", RIVALS_LLM_MODEL: "m" }).llm,
    ).toBeUndefined();
    expect(() =>
      loadConfig({ RIVALS_LLM_BASE_URL: "ftp://x", RIVALS_LLM_MODEL: "m", RIVALS_LLM_API_KEY: "k" }),
    ).toThrow(/RIVALS_LLM_BASE_URL/);
  });

  test("a good answer is used, cited and recorded as llm:<model>; the key goes only in the header", async () => {
    mode = "good";
    seen.length = 0;
    const out = await generateDigest(t.services, orgId, "daily_digest", { end: END });
    expect(out.written).toBe(true);
    expect(out.writer).toBe("llm:test-model");
    expect(out.llm_fallback).toBeUndefined();
    const tldr = await digestTldr(out.id!);
    expect(tldr).toBe(
      "Two competitors moved, one of them in a big way. Globex lifted its Team plan from $49 to $59 per seat a month, up 20%. Initech now ships SSO on every plan.",
    );
    // The Markdown says the TL;DR the record holds, once.
    const md = String(
      (
        await t.services.database.client.execute({
          sql: "SELECT doc FROM digests WHERE id = ?",
          args: [out.id!],
        })
      ).rows[0].doc,
    );
    expect(JSON.parse(md).markdown.split("Two competitors moved, one of them in a big way.")).toHaveLength(2);
    expect(await lastWriter(out.id!)).toBe("llm:test-model");
    expect(seen).toHaveLength(1);
    expect(seen[0].auth).toBe(`Bearer ${KEY}`);
    expect(seen[0].body.model).toBe("test-model");
    const sent = JSON.stringify(seen[0].body.messages);
    expect(sent).toContain(PRICE.replace(/"/g, '\\"'));
    expect(sent).not.toContain(KEY);
    // The API's digest carries the rephrased TL;DR and no extra field.
    const api = await t.key(ORG);
    const res = await t.get(`/api/v1/digests/${out.id}`, { authorization: `Bearer ${api}` });
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(body.data.tldr).toBe(tldr);
    expect(body.data.writer).toBeUndefined();
  });

  for (const [m, why] of [
    ["unknown_id", /cites signal 999999/],
    ["new_number", /states 69/],
    ["one_sentence", /1 sentences/],
    ["names_id", /names a signal by its id/],
    ["500", /HTTP 500/],
    ["not_json", /not the JSON/],
  ] as const) {
    test(`${m} → the deterministic TL;DR`, async () => {
      mode = m;
      const out = await generateDigest(t.services, orgId, "daily_digest", { end: END });
      expect(out.written).toBe(true);
      expect(out.replaced).toBe(true);
      expect(out.writer).toBe("deterministic");
      expect(out.llm_fallback).toMatch(why);
      const tldr = await digestTldr(out.id!);
      expect(tldr).toBe(`${PRICE}. ${SSO}.`);
      expect(await lastWriter(out.id!)).toBe("deterministic");
    });
  }

  test("a slow answer → the deterministic sentences (the call gives up at its timeout)", async () => {
    mode = "slow";
    const config = loadConfig({
      RIVALS_LLM_BASE_URL: `http://127.0.0.1:${llm.port}/v1`,
      RIVALS_LLM_MODEL: "test-model",
      RIVALS_LLM_API_KEY: KEY,
      RIVALS_FETCH_DELAY_MS: "0",
    });
    const sentences: CitedSentence[] = [
      { text: "Rivals recorded 2 signals.", signal_ids: [ids.price, ids.sso] },
      { text: `The most material: ${PRICE} (signal ${ids.price}).`, signal_ids: [ids.price] },
    ];
    const started = Date.now();
    const out = await rephraseSentences(
      createFetcher(fetcherOptions(config, "llm")),
      config.llm!,
      sentences,
      [
        { id: ids.price, title: PRICE },
        { id: ids.sso, title: SSO },
      ],
      { timeoutMs: 300 },
    );
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.reason).toMatch(/timeout|seconds/);
    expect(Date.now() - started).toBeLessThan(1400);
  });

  test("the endpoint's private address is exempt from the guard only for its own origin, and only for the writer", async () => {
    const config = loadConfig({
      RIVALS_LLM_BASE_URL: `http://127.0.0.1:${llm.port}/v1`,
      RIVALS_LLM_MODEL: "m",
      RIVALS_LLM_API_KEY: "k",
      RIVALS_FETCH_DELAY_MS: "0",
    });
    const f = createFetcher(fetcherOptions(config, "llm"));
    const other = await f.fetch({ url: `http://127.0.0.1:${t.base.split(":").pop()}/`, robots: false });
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.error).toBe("blocked_address");
    // What a workspace makes the server fetch (pages, webhooks) never reaches the model server.
    for (const caller of ["tenant", "webhook"] as const) {
      const tenant = await createFetcher(fetcherOptions(config, caller)).fetch({
        url: `http://127.0.0.1:${llm.port}/v1/chat/completions`,
        method: "POST",
        body: "{}",
      });
      expect(tenant.ok).toBe(false);
      if (!tenant.ok) expect(tenant.error).toBe("blocked_address");
    }
    const off = createFetcher(fetcherOptions(loadConfig({ RIVALS_FETCH_DELAY_MS: "0" })));
    const r = await off.fetch({
      url: `http://127.0.0.1:${llm.port}/v1/chat/completions`,
      method: "POST",
      body: "{}",
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBe("blocked_address");
  });

  test("the checks: citations only among the sentences' own, numbers only from the evidence, 2–4 sentences", () => {
    const orig: CitedSentence[] = [
      { text: "Rivals recorded 2 signals on 2026-11-19.", signal_ids: [1, 2] },
      { text: "The most material: Globex raises its price (signal 1).", signal_ids: [1] },
    ];
    const ev = [
      { id: 1, title: "Globex raises Team plan price from $49 to $59 (+20%)" },
      { id: 2, title: "Initech launches SSO" },
    ];
    const ok = (s: { text: string; signal_ids: number[] }[]) => checkSentences({ sentences: s }, orig, ev).ok;
    expect(
      ok([
        { text: "Two moves on 2026-11-19.", signal_ids: [1, 2] },
        { text: "Globex: $59, +20%.", signal_ids: [1] },
      ]),
    ).toBe(true);
    expect(
      ok([
        { text: "Two moves.", signal_ids: [1, 2] },
        { text: "Initech: $59.", signal_ids: [2] },
      ]),
    ).toBe(false);
    expect(
      ok([
        { text: "Two moves.", signal_ids: [] },
        { text: "Globex: $59.", signal_ids: [1] },
      ]),
    ).toBe(false);
    expect(
      ok([
        { text: "Two moves.", signal_ids: [3] },
        { text: "Globex: $59.", signal_ids: [1] },
      ]),
    ).toBe(false);
    // One sentence only where the deterministic TL;DR is one sentence.
    const one = [{ text: "Globex raises its price to $59.", signal_ids: [1] }];
    expect(checkSentences({ sentences: one }, orig, ev).ok).toBe(false);
    expect(checkSentences({ sentences: one }, [orig[1]], ev).ok).toBe(true);
    const five = Array.from({ length: 5 }, () => ({ text: "Globex moved.", signal_ids: [1] }));
    expect(ok(five)).toBe(false);
    expect(checkSentences({ nope: 1 }, orig, ev).ok).toBe(false);
  });
});
