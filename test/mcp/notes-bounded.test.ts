// Notes inside tool results are bounded: every engagement tool returns the newest 20 notes (newest first), the
// total and a cursor; the subject's read tool (get_evidence, get_digest, get_battlecard) pages through older
// ones with notes_cursor. The page is an index range read and the total a primary-key read, so a call's size
// and time stay flat as a subject's notes grow from 25 to thousands.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { NewEvent } from "../../events/catalog.ts";
import { handle } from "../../events/command.ts";
import { NOTES_PAGE_SQL, NOTES_TOTAL_SQL } from "../../src/db/queries/engagement.ts";
import { addBattlecardNote, addDigestNote, addSignalNote } from "../../src/domain/engagement.ts";
import type { Caller } from "../../src/domain/watchlist.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { rawPost, toolsCall } from "../support/mcp-helpers.ts";
import { idOfKey, orgId } from "../support/mcp-write-helpers.ts";

setDefaultTimeout(60_000);

let t: TestServer;
let key: string;
let caller: Caller;
const ids: Record<string, number> = {};
let noteNo = 0;

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme");
  await t.load([
    { kind: "competitor", org: "acme", key: "c1", name: "Globex", website_url: "https://globex.example" },
    {
      kind: "competitor",
      org: "acme",
      key: "c2",
      name: "Initech",
      website_url: "https://initech.example",
      category: "Product analytics",
      description: "Dashboards for finance teams.",
      reads: { positioning: "Numbers your CFO trusts." },
      freshness: { state_updated_at: "2026-11-15T06:00:00Z" },
    },
    { kind: "signal", org: "acme", key: "s1", competitor: "c1", title: "Globex raises prices" },
    { kind: "signal", org: "acme", key: "s2", competitor: "c1", title: "Globex hires a CFO" },
    { kind: "digest", org: "acme", key: "d1", slug: "week-46", type: "weekly_tldr" },
    {
      kind: "battlecard",
      org: "acme",
      key: "b1",
      competitor: "c1",
      sections: { overview: "Globex sells product analytics." },
    },
  ]);
  key = await t.key("acme");
  caller = { orgId: await orgId(t, "acme"), actor: "api_key:bulk", actorName: "Bulk writer" };
  ids.c1 = await idOfKey(t, "competitors", "c1");
  ids.c2 = await idOfKey(t, "competitors", "c2");
  for (const k of ["s1", "s2"]) ids[k] = await idOfKey(t, "signals", k);
  ids.d1 = await idOfKey(t, "digests", "d1");
});
afterAll(() => t.close());

/** Adds `n` notes in one append: the first through the decider, the rest as copies of its event with new
 * ids and bodies (the same event the tool records, without re-checking the subject thousands of times). */
async function addNotes(type: "signal" | "digest" | "battlecard", subjectId: number, n: number) {
  const body = () => `Talking point ${String(++noteNo).padStart(6, "0")}`; // every body the same length
  await t.services.store.execute(async (w) => {
    const first =
      type === "signal"
        ? await handle(addSignalNote, w, caller, { signal_id: subjectId, body: body() })
        : type === "digest"
          ? await handle(addDigestNote, w, caller, { digest: subjectId, body: body() })
          : await handle(addBattlecardNote, w, caller, { competitor_id: subjectId, body: body() });
    const events: NewEvent[] = [...first.events];
    const template = first.events[0];
    for (let i = 1; i < n; i++)
      events.push({
        ...template,
        data: { ...template.data, id: await w.nextId(), body: body() },
      } as NewEvent);
    return { events, result: null };
  });
}

/** One tools/call over HTTP: the structured result, the raw body's size and the time it took. */
async function call(name: string, args: Record<string, unknown>) {
  const started = performance.now();
  const res = await rawPost(t.base, toolsCall(name, args), { authorization: `Bearer ${key}` });
  const text = await res.text();
  const ms = performance.now() - started;
  const msg = JSON.parse(text) as {
    result: { isError?: boolean; structuredContent: any; content: { text: string }[] };
  };
  if (msg.result.isError) throw new Error(`${name}: ${msg.result.content[0].text}`);
  return { r: msg.result.structuredContent, bytes: text.length, ms };
}

/** The result's size with the numbers that grow with the log (ids, the total, the cursor) at a fixed width:
 * what is left must not change at all as notes are added. */
function shapeSize(r: unknown): number {
  return JSON.stringify(r, (k, v) =>
    k === "id" || k === "notes_total" || k === "note_id" ? 0 : k === "notes_next_cursor" ? "cursor" : v,
  ).length;
}

/** Every write tool that returns notes, with arguments that write each time (so each call does real work). */
function writers(): [string, (i: number) => Record<string, unknown>][] {
  return [
    ["pin_signal", (i) => ({ signal_id: ids.s1, pinned: i % 2 === 0 })],
    ["save_signal", (i) => ({ signal_id: ids.s1, saved: i % 2 === 0 })],
    ["rate_signal", (i) => ({ signal_id: ids.s1, useful: i % 2 === 0 })],
    ["pin_digest", (i) => ({ digest_id: ids.d1, pinned: i % 2 === 0 })],
    ["rate_digest", (i) => ({ digest_id: ids.d1, score: 1 + (i % 5) })],
  ];
}

describe("notes in tool results", () => {
  test("newest 20, newest first, with the total and a cursor that walks every older note once", async () => {
    await addNotes("signal", ids.s2, 45);
    const first = (await call("pin_signal", { signal_id: ids.s2, pinned: true })).r;
    expect(first.notes).toHaveLength(20);
    expect(first.notes_total).toBe(45);
    expect(first.notes[0].body).toBe(`Talking point ${String(noteNo).padStart(6, "0")}`);
    const seen: number[] = first.notes.map((n: { id: number }) => n.id);
    let cursor: string | undefined = first.notes_next_cursor;
    const pages = [first.notes.length];
    while (cursor) {
      const page = (await call("get_evidence", { signal_id: ids.s2, notes_cursor: cursor })).r;
      expect(page.notes_total).toBe(45);
      pages.push(page.notes.length);
      seen.push(...page.notes.map((n: { id: number }) => n.id));
      cursor = page.notes_next_cursor;
    }
    expect(pages).toEqual([20, 20, 5]);
    expect(new Set(seen).size).toBe(45);
    expect(seen).toEqual([...seen].sort((a, b) => b - a)); // strictly newest first across pages
    // The read tool without a cursor is the same first page.
    const evidence = (await call("get_evidence", { signal_id: ids.s2 })).r;
    expect(evidence.notes).toEqual(first.notes);
    expect(evidence.notes_next_cursor).toBe(first.notes_next_cursor);
  });

  test("every tool that carries notes is bounded, and the read tools page them", async () => {
    await addNotes("digest", ids.d1, 30);
    await addNotes("battlecard", ids.c1, 30);
    const note = await call("add_signal_note", { signal_id: ids.s2, body: "The newest one." });
    expect(note.r.notes).toHaveLength(20);
    expect(note.r.notes_total).toBe(46);
    expect(note.r.note.body).toBe("The newest one.");
    expect(note.r.notes[0]).toEqual(note.r.note);
    for (const [name, args] of [
      ["add_digest_note", { digest_id: ids.d1, body: "Digest point." }],
      ["add_battlecard_note", { competitor_id: ids.c1, body: "Deal feedback." }],
    ] as const) {
      const r = (await call(name, args)).r;
      expect({ name, n: r.notes.length, total: r.notes_total }).toEqual({ name, n: 20, total: 31 });
      expect(r.notes[0]).toEqual(r.note);
      expect(r.notes_next_cursor).toBeString();
    }
    const digest = (await call("get_digest", { id: "week-46" })).r;
    expect(digest.digest.id).toBe(ids.d1);
    expect(digest.notes_total).toBe(31);
    const older = (await call("get_digest", { id: "week-46", notes_cursor: digest.notes_next_cursor })).r;
    expect(older.notes).toHaveLength(11);
    expect(older.notes_next_cursor).toBeUndefined();
    const card = (await call("get_battlecard", { competitor_id: ids.c1 })).r;
    expect(card.notes_total).toBe(31);
    const cardOlder = (
      await call("get_battlecard", { competitor_id: ids.c1, notes_cursor: card.notes_next_cursor })
    ).r;
    expect(cardOlder.notes.map((n: { id: number }) => n.id)).not.toContain(card.notes[0].id);
    // No notes: an empty page, a total of 0, no cursor.
    const none = (await call("get_evidence", { signal_id: ids.s1 })).r;
    expect(none).toMatchObject({ notes: [], notes_total: 0 });
    expect(none.notes_next_cursor).toBeUndefined();
  });

  test("a share link with notes shows the newest 20 and says how many there are", async () => {
    const total = (await call("get_evidence", { signal_id: ids.s2 })).r.notes_total;
    expect(total).toBeGreaterThan(20);
    const link = (await call("create_share_link", { signal_id: ids.s2, include_notes: true })).r;
    const html = await (await fetch(link.url)).text();
    expect(html).toContain(`The newest 20 of ${total} notes.`);
    const notes = html.slice(html.indexOf("<h2>Team notes</h2>"));
    expect(notes.match(/<li>/g)).toHaveLength(20);
    expect(notes).toContain("The newest one."); // the note added last is on the page
  });

  test("a generated battlecard frames with the newest 20 notes and counts them all", async () => {
    await addNotes("battlecard", ids.c2, 30);
    const r = (await call("generate_battlecard", { competitor_id: ids.c2, idempotency_key: "bounded" })).r;
    const card = r.battlecard;
    expect(card.sections.team_framing).toHaveLength(20);
    // Oldest first among the newest 20: the 11th note written is the first shown, the 30th the last.
    const bodies = card.sections.team_framing.map((line: string) => line.slice(line.indexOf("): ") + 3));
    const n = (k: number) => `Talking point ${String(noteNo - 30 + k).padStart(6, "0")}`;
    expect(bodies[0]).toBe(n(11));
    expect(bodies[19]).toBe(n(30));
    expect(card.evidence.team_notes.note_ids).toHaveLength(20);
    expect(card.evidence.team_notes.total).toBe(30);
    // The overview states the dossier only; the notes stay framing, counted in the evidence.
    expect(card.sections.overview).not.toContain("Talking point");
  });

  test("a malformed cursor is invalid_argument naming notes_cursor", async () => {
    for (const bad of ["abc", "0", "-5", "1e3", "12345678901234567890"]) {
      const res = await rawPost(t.base, toolsCall("get_evidence", { signal_id: ids.s2, notes_cursor: bad }), {
        authorization: `Bearer ${key}`,
      });
      const msg = (await res.json()) as {
        result: { isError: boolean; structuredContent?: any; content: any[] };
      };
      expect(msg.result.isError).toBe(true);
      const err = JSON.parse(msg.result.content[0].text).error;
      expect({ bad, code: err.code, argument: err.argument }).toEqual({
        bad,
        code: "invalid_argument",
        argument: "notes_cursor",
      });
    }
  });

  test("size and time of a call stay flat as a subject's notes grow from 25 to 2,000", async () => {
    // s1 gets 25 notes, d1 25 more (56): measure, grow both to 2,000, measure again. The newest 20 are then
    // bulk notes both times, so their bodies and authors are alike.
    await addNotes("signal", ids.s1, 25);
    await addNotes("digest", ids.d1, 25);
    const measure = async () => {
      const out: Record<string, { size: number; bytes: number; ms: number }> = {};
      for (const [name, args] of writers()) {
        const runs = [];
        for (let i = 0; i < 7; i++) runs.push(await call(name, args(i)));
        const last = runs[runs.length - 1];
        expect(last.r.notes).toHaveLength(20);
        out[name] = { size: shapeSize(last.r), bytes: last.bytes, ms: Math.min(...runs.map((x) => x.ms)) };
      }
      return out;
    };
    await measure(); // once first, so both measurements see the same pins, saves and ratings
    const small = await measure();

    await addNotes("signal", ids.s1, 2000 - 25);
    await addNotes("digest", ids.d1, 2000 - 56);
    const big = await measure();
    expect((await call("pin_signal", { signal_id: ids.s1, pinned: true })).r.notes_total).toBe(2000);
    expect((await call("pin_digest", { digest_id: ids.d1, pinned: true })).r.notes_total).toBe(2000);
    for (const [name] of writers()) {
      // The same bytes but for the widths of growing numbers (ids, the total), which add a few digits.
      expect({ name, size: big[name].size }).toEqual({ name, size: small[name].size });
      expect(Math.abs(big[name].bytes - small[name].bytes)).toBeLessThan(60);
      // Time: loosely flat (the fastest of 7 calls, on a shared machine); loading every note took ~10x
      // longer at 4,000 notes before.
      const times = `${name}: ${small[name].ms.toFixed(1)} ms at 25 notes, ${big[name].ms.toFixed(1)} ms at 2,000`;
      expect(big[name].ms < small[name].ms * 4 + 10, times).toBe(true);
    }
  });

  test("the page read is an index range scan and the total a primary-key read", async () => {
    const explain = async (sql: string, args: (string | number)[]) =>
      (await t.services.database.client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args })).rows.map((r) =>
        String(r.detail),
      );
    const page = await explain(NOTES_PAGE_SQL, ["signal", ids.s1, caller.orgId, Number.MAX_SAFE_INTEGER, 21]);
    expect(page.join(" | ")).toMatch(
      /^SEARCH notes USING INDEX notes_by_subject \(subject_type=\? AND subject_id=\? AND id<\?\)$/,
    );
    const total = await explain(NOTES_TOTAL_SQL, ["signal", ids.s1, caller.orgId]);
    expect(total.join(" | ")).toMatch(
      /^SEARCH note_counts USING PRIMARY KEY \(subject_type=\? AND subject_id=\?\)$/,
    );
  });
});
