// Engagement tools over the official SDK client: pin/save/note/rate signals, pin/note/rate digests and
// battlecard notes — success, every failure class, who sees what, and a rebuild.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient, rawPost, toolsCall } from "../support/mcp-helpers.ts";
import {
  callAs,
  countEvents,
  dumpReadTables,
  idOfKey,
  principalFor,
  rest,
} from "../support/mcp-write-helpers.ts";

let t: TestServer;
let alice: Client; // acme admin key
let bob: Client; // another acme key: another actor in the same workspace
let other: Client; // umbrella
let key: string;
const ids: Record<string, number> = {};

const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  body(await c.callTool({ name, arguments: args }));

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme");
  await t.org("umbrella");
  await t.load([
    { kind: "competitor", org: "acme", key: "c1", name: "Globex", website_url: "https://globex.example" },
    { kind: "competitor", org: "acme", key: "c2", name: "Paused Co", tracking: "paused" },
    {
      kind: "signal",
      org: "acme",
      key: "s1",
      competitor: "c1",
      title: "Globex raises prices",
      first_seen_at: "2026-11-18T00:00:00Z",
    },
    {
      kind: "signal",
      org: "acme",
      key: "s2",
      competitor: "c1",
      title: "Globex hires CFO",
      first_seen_at: "2026-11-17T00:00:00Z",
    },
    { kind: "signal", org: "acme", key: "s3", competitor: "c1", title: "Old news", status: "closed" },
    { kind: "signal", org: "acme", key: "s4", competitor: "c2", title: "Paused signal" },
    {
      kind: "digest",
      org: "acme",
      key: "d1",
      slug: "week-46",
      type: "weekly_tldr",
      generated_at: "2026-11-16T00:00:00Z",
    },
    { kind: "digest", org: "acme", key: "d2", type: "daily_digest", status: "draft" },
    { kind: "competitor", org: "umbrella", key: "u1", name: "Hidden" },
    { kind: "signal", org: "umbrella", key: "us1", competitor: "u1", title: "Hidden signal" },
    { kind: "digest", org: "umbrella", key: "ud1", slug: "hidden", type: "weekly_tldr" },
  ]);
  key = await t.key("acme");
  alice = await mcpClient(t.base, key);
  bob = await mcpClient(t.base, await t.key("acme"));
  other = await mcpClient(t.base, await t.key("umbrella"));
  for (const k of ["c1", "c2", "u1"]) ids[k] = await idOfKey(t, "competitors", k);
  for (const k of ["s1", "s2", "s3", "s4", "us1"]) ids[k] = await idOfKey(t, "signals", k);
  for (const k of ["d1", "d2", "ud1"]) ids[k] = await idOfKey(t, "digests", k);
});
afterAll(() => t.close());

describe("pin_signal", () => {
  test("pins for the whole team; pinning again adds nothing; unpins", async () => {
    const r = await call(alice, "pin_signal", { signal_id: ids.s1, pinned: true });
    expect(r).toMatchObject({ signal_id: ids.s1, pinned: true, saved: false, notes: [] });
    expect(r.pinned_at).toBe(t.clock.now.toISOString());
    const n = await countEvents(t, "SignalPinSet");
    expect((await call(alice, "pin_signal", { signal_id: ids.s1, pinned: true })).pinned).toBe(true);
    expect(await countEvents(t, "SignalPinSet")).toBe(n);
    // Team-visible: another caller sees the pin.
    expect((await call(bob, "save_signal", { signal_id: ids.s1, saved: false })).pinned).toBe(true);
    // A member may pin (not admin-only).
    const member = await principalFor(t, "acme", "member");
    expect((await callAs(t, member, "pin_signal", { signal_id: ids.s2, pinned: true })).pinned).toBe(true);
    expect((await call(alice, "pin_signal", { signal_id: ids.s1, pinned: false })).pinned).toBe(false);
  });

  test("a closed signal can be pinned; unknown, other org's and not-visible signals are not_found", async () => {
    expect((await call(alice, "pin_signal", { signal_id: ids.s3, pinned: true })).pinned).toBe(true);
    for (const signal_id of [999999, ids.us1, ids.s4])
      expect((await call(alice, "pin_signal", { signal_id, pinned: true })).error.code).toBe("not_found");
    expect((await call(other, "pin_signal", { signal_id: ids.s1, pinned: true })).error.code).toBe(
      "not_found",
    );
  });

  test("bad arguments", async () => {
    expect((await call(alice, "pin_signal", { signal_id: ids.s1 })).error.code).toBe("invalid_argument");
    expect((await call(alice, "pin_signal", { signal_id: "x", pinned: true })).error.code).toBe(
      "invalid_argument",
    );
  });
});

describe("save_signal", () => {
  test("only the caller sees their saved list (search_signals saved=true)", async () => {
    const r = await call(alice, "save_signal", { signal_id: ids.s2, saved: true });
    expect(r.saved).toBe(true);
    const mine = await call(alice, "search_signals", { saved: true });
    expect(mine.signals.map((s: { id: number }) => s.id)).toEqual([ids.s2]);
    const bobs = await call(bob, "search_signals", { saved: true });
    expect(bobs.signals).toEqual([]);
    expect((await call(bob, "pin_signal", { signal_id: ids.s2, pinned: true })).saved).toBe(false);
    // Filters combine with saved.
    expect((await call(alice, "search_signals", { saved: true, query: "prices" })).signals).toEqual([]);
    // The unfiltered search is unchanged.
    expect((await call(bob, "search_signals", {})).signals).toHaveLength(2);
    const member = await principalFor(t, "acme", "member", "member:77");
    expect((await callAs(t, member, "save_signal", { signal_id: ids.s1, saved: true })).saved).toBe(true);
    expect(
      (await callAs(t, member, "search_signals", { saved: true })).signals.map((s: { id: number }) => s.id),
    ).toEqual([ids.s1]);
    const off = await call(alice, "save_signal", { signal_id: ids.s2, saved: false });
    expect(off.saved).toBe(false);
    expect((await call(alice, "search_signals", { saved: true })).signals).toEqual([]);
  });

  test("other org's signal is not_found", async () => {
    expect((await call(other, "save_signal", { signal_id: ids.s1, saved: true })).error.code).toBe(
      "not_found",
    );
  });
});

describe("add_signal_note", () => {
  test("adds a team-visible note; others see it", async () => {
    const r = await call(alice, "add_signal_note", {
      signal_id: ids.s1,
      body: "  Use this in the Q4 pricing call.  ",
    });
    expect(r.note.body).toBe("Use this in the Q4 pricing call.");
    expect(r.note.created_at).toBe(t.clock.now.toISOString());
    expect(r.notes).toHaveLength(1);
    const seen = await call(bob, "pin_signal", { signal_id: ids.s1, pinned: false });
    expect(seen.notes.map((n: { body: string }) => n.body)).toEqual(["Use this in the Q4 pricing call."]);
  });

  test("body limits, unknown, other org", async () => {
    expect((await call(alice, "add_signal_note", { signal_id: ids.s1, body: "" })).error.code).toBe(
      "invalid_argument",
    );
    expect((await call(alice, "add_signal_note", { signal_id: ids.s1, body: "   " })).error.code).toBe(
      "invalid_argument",
    );
    expect(
      (await call(alice, "add_signal_note", { signal_id: ids.s1, body: "x".repeat(2001) })).error.code,
    ).toBe("invalid_argument");
    expect(
      (await call(alice, "add_signal_note", { signal_id: ids.s1, body: "x".repeat(2000) })).note.body,
    ).toHaveLength(2000);
    expect((await call(alice, "add_signal_note", { signal_id: ids.us1, body: "x" })).error.code).toBe(
      "not_found",
    );
    expect((await call(alice, "add_signal_note", { signal_id: 5, body: "x" })).error.code).toBe("not_found");
  });
});

describe("rate_signal", () => {
  test("not useful with reasons and comment; a new rating replaces the old one", async () => {
    const r = await call(alice, "rate_signal", {
      signal_id: ids.s2,
      useful: false,
      reasons: ["not_relevant", "too_late"],
      comment: "We knew.",
    });
    expect(r.your_rating).toMatchObject({
      useful: false,
      reasons: ["not_relevant", "too_late"],
      comment: "We knew.",
    });
    const again = await call(alice, "rate_signal", { signal_id: ids.s2, useful: true });
    expect(again.your_rating).toEqual({ useful: true, rated_at: t.clock.now.toISOString() });
    // Each caller has their own rating.
    expect((await call(bob, "pin_signal", { signal_id: ids.s2, pinned: true })).your_rating).toBeUndefined();
    const rows = await t.services.database.client.execute({
      sql: "SELECT count(*) AS n FROM ratings WHERE subject_type = 'signal' AND subject_id = ?",
      args: [ids.s2],
    });
    expect(Number(rows.rows[0].n)).toBe(1);
  });

  test("reasons and comment are refused with useful=true; unknown reasons; unknown and other org's ids", async () => {
    const a = await call(alice, "rate_signal", { signal_id: ids.s1, useful: true, reasons: ["other"] });
    expect(a.error.code).toBe("invalid_argument");
    const b = await call(alice, "rate_signal", { signal_id: ids.s1, useful: true, comment: "great" });
    expect(b.error.code).toBe("invalid_argument");
    const c = await call(alice, "rate_signal", { signal_id: ids.s1, useful: false, reasons: ["boring"] });
    expect(c.error.code).toBe("invalid_argument");
    expect((await call(alice, "rate_signal", { signal_id: ids.us1, useful: true })).error.code).toBe(
      "not_found",
    );
    expect((await call(other, "rate_signal", { signal_id: ids.s1, useful: true })).error.code).toBe(
      "not_found",
    );
  });
});

describe("digests", () => {
  test("pin_digest by id or slug; drafts and other org's digests are not_found", async () => {
    const r = await call(alice, "pin_digest", { digest_id: ids.d1, pinned: true });
    expect(r).toMatchObject({ digest_id: ids.d1, pinned: true, notes: [], ratings: { count: 0 } });
    expect((await call(bob, "pin_digest", { digest_id: "week-46", pinned: true })).pinned).toBe(true);
    expect((await call(bob, "pin_digest", { digest_id: String(ids.d1), pinned: false })).pinned).toBe(false);
    for (const digest_id of [ids.d2, ids.ud1, "hidden", 31337, "no-such-digest"])
      expect((await call(alice, "pin_digest", { digest_id, pinned: true })).error.code).toBe("not_found");
  });

  test("add_digest_note", async () => {
    const r = await call(alice, "add_digest_note", {
      digest_id: "week-46",
      body: "Read the pricing part first.",
    });
    expect(r.note.body).toBe("Read the pricing part first.");
    expect(r.digest_id).toBe(ids.d1);
    expect((await call(bob, "pin_digest", { digest_id: ids.d1, pinned: false })).notes).toHaveLength(1);
    expect((await call(alice, "add_digest_note", { digest_id: ids.d1, body: "" })).error.code).toBe(
      "invalid_argument",
    );
    expect((await call(other, "add_digest_note", { digest_id: ids.d1, body: "x" })).error.code).toBe(
      "not_found",
    );
  });

  test("rate_digest: score and/or missing, at least one; a new rating replaces the old one", async () => {
    const a = await call(alice, "rate_digest", { digest_id: ids.d1, score: 4, missing: "Hiring moves" });
    expect(a.your_rating).toMatchObject({ score: 4, missing: "Hiring moves" });
    expect(a.ratings).toEqual({ count: 1, average_score: 4 });
    const b = await call(alice, "rate_digest", { digest_id: ids.d1, score: 2 });
    expect(b.your_rating).toEqual({ score: 2, rated_at: t.clock.now.toISOString() });
    const c = await call(bob, "rate_digest", { digest_id: ids.d1, missing: "Funding" });
    expect(c.your_rating).toMatchObject({ missing: "Funding" });
    expect(c.ratings).toEqual({ count: 2, average_score: 2 });
    for (const args of [{}, { score: 0 }, { score: 6 }, { score: 3.5 }, { missing: "" }])
      expect((await call(alice, "rate_digest", { digest_id: ids.d1, ...args })).error.code).toBe(
        "invalid_argument",
      );
    expect((await call(other, "rate_digest", { digest_id: ids.d1, score: 5 })).error.code).toBe("not_found");
  });
});

describe("add_battlecard_note", () => {
  test("adds team knowledge for the next rewrite", async () => {
    const r = await call(alice, "add_battlecard_note", {
      competitor_id: ids.c1,
      body: "Deals say their SSO is flaky.",
    });
    expect(r.competitor_id).toBe(ids.c1);
    expect(r.note.body).toBe("Deals say their SSO is flaky.");
    expect(r.notes).toHaveLength(1);
    const member = await principalFor(t, "acme", "member");
    const m = await callAs(t, member, "add_battlecard_note", { competitor_id: ids.c1, body: "Second note" });
    expect(m.notes).toHaveLength(2);
    expect(m.note.author_name).toBe("Test member");
    // Notes are internal: the REST dossier never shows them.
    expect(JSON.stringify((await rest(t, key, `/api/v1/competitors/${ids.c1}`)).json)).not.toContain("flaky");
  });

  test("unknown, paused and other org's competitors are not_found; empty body is invalid", async () => {
    for (const competitor_id of [ids.c2, ids.u1, 123])
      expect((await call(alice, "add_battlecard_note", { competitor_id, body: "x" })).error.code).toBe(
        "not_found",
      );
    expect((await call(alice, "add_battlecard_note", { competitor_id: ids.c1, body: " " })).error.code).toBe(
      "invalid_argument",
    );
  });
});

test("missing write scope is HTTP 403 for every engagement tool", async () => {
  const readOnly = await t.key("acme", "read");
  for (const name of [
    "pin_signal",
    "save_signal",
    "add_signal_note",
    "rate_signal",
    "pin_digest",
    "add_digest_note",
    "rate_digest",
    "add_battlecard_note",
    "create_share_link",
  ]) {
    const r = await rawPost(t.base, toolsCall(name), { authorization: `Bearer ${readOnly}` });
    expect(r.status).toBe(403);
    expect(r.headers.get("www-authenticate")).toContain('scope="write"');
  }
});

test("tools/list: annotations tell the truth", async () => {
  const { tools } = await alice.listTools();
  const byName = new Map(tools.map((x) => [x.name, x]));
  expect(byName.get("add_signal_note")!.annotations).toMatchObject({
    readOnlyHint: false,
    idempotentHint: false,
  });
  expect(byName.get("pin_signal")!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
  expect(byName.get("rate_signal")!.inputSchema.properties).toHaveProperty("reasons");
  expect(byName.get("search_signals")!.inputSchema.properties).toHaveProperty("saved");
});

test("projections rebuild reproduces pins, saves, notes and ratings", async () => {
  const before = await dumpReadTables(t);
  expect(before.notes.length).toBeGreaterThan(0);
  await rebuildProjections(t.services.store);
  expect(await dumpReadTables(t)).toEqual(before);
});
