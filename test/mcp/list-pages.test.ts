// Workspace lists in tool results are bounded too: list_competitors, list_battlecards and list_members return
// a page (limit, default 50 / 20 / 100) with the total and a cursor to the next; update_icp names at most 50
// of the competitors it re-read. Imports are not counted against a plan's slots, so these lists can be long.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { addMember } from "../../src/domain/members.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { rawPost, toolsCall } from "../support/mcp-helpers.ts";

setDefaultTimeout(60_000);

const COMPETITORS = 120;
const BATTLECARDS = 45;
const MEMBERS = 130;
let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "enterprise");
  const lines: object[] = [];
  for (let i = 0; i < COMPETITORS; i++)
    lines.push({
      kind: "competitor",
      org: "acme",
      key: `c${i}`,
      name: `Rival ${String(i).padStart(3, "0")}`,
      website_url: `https://rival-${i}.example`,
      watch: i < 40 ? "core" : "horizon",
    });
  for (let i = 0; i < BATTLECARDS; i++)
    lines.push({
      kind: "battlecard",
      org: "acme",
      key: `b${i}`,
      competitor: `c${i}`,
      sections: { overview: `Rival ${i} in one line.` },
    });
  const report = await t.load(lines);
  expect(report.errors).toEqual([]);
  for (let i = 0; i < MEMBERS; i++)
    await addMember(t.services.store, { org: "acme", email: `person${i}@acme.example`, role: "member" });
  key = await t.key("acme");
});
afterAll(() => t.close());

async function call(name: string, args: Record<string, unknown> = {}) {
  const res = await rawPost(t.base, toolsCall(name, args), { authorization: `Bearer ${key}` });
  const msg = (await res.json()) as { result: { isError?: boolean; structuredContent: any; content: any[] } };
  return msg.result.isError ? JSON.parse(msg.result.content[0].text) : msg.result.structuredContent;
}

/** Follows next_cursor from the first page to the last; returns the pages' lengths and every item's id. */
async function walk(name: string, field: string, id: string, args: Record<string, unknown> = {}) {
  const lengths: number[] = [];
  const ids: number[] = [];
  let cursor: string | undefined;
  let total: number | undefined;
  do {
    const r = await call(name, { ...args, ...(cursor ? { cursor } : {}) });
    total ??= r.total;
    expect(r.total).toBe(total!);
    lengths.push(r[field].length);
    ids.push(...r[field].map((x: Record<string, number>) => x[id]));
    cursor = r.next_cursor;
  } while (cursor);
  return { lengths, ids, total };
}

describe("bounded workspace lists", () => {
  test("list_competitors: 50 by default, every competitor once across the pages, in order", async () => {
    const w = await walk("list_competitors", "competitors", "id");
    expect(w.total).toBe(COMPETITORS);
    expect(w.lengths).toEqual([50, 50, 20]);
    expect(new Set(w.ids).size).toBe(COMPETITORS);
    const small = await walk("list_competitors", "competitors", "id", { limit: 7 });
    expect(small.ids).toEqual(w.ids);
    expect(small.lengths.length).toBe(Math.ceil(COMPETITORS / 7));
  });

  test("list_battlecards: 20 by default; list_members: 100 by default", async () => {
    const cards = await walk("list_battlecards", "battlecards", "id");
    expect(cards.total).toBe(BATTLECARDS);
    expect(cards.lengths).toEqual([20, 20, 5]);
    expect(new Set(cards.ids).size).toBe(BATTLECARDS);
    const people = await walk("list_members", "members", "user_id");
    expect(people.total).toBe(MEMBERS);
    expect(people.lengths).toEqual([100, 30]);
    expect(new Set(people.ids).size).toBe(MEMBERS);
  });

  test("a limit above 100 or a malformed cursor is refused", async () => {
    const over = await call("list_competitors", { limit: 101 });
    expect(over.error.code).toBe("invalid_argument");
    for (const bad of ["x", "0", "-1", "1.5"]) {
      const r = await call("list_battlecards", { cursor: bad });
      expect({ bad, code: r.error.code, argument: r.error.argument }).toEqual({
        bad,
        code: "invalid_argument",
        argument: "cursor",
      });
    }
    // A cursor past the end is an empty last page.
    expect(await call("list_competitors", { cursor: "500" })).toMatchObject({
      competitors: [],
      total: COMPETITORS,
    });
  });

  test("update_icp re-reads every tracked competitor and names at most 50", async () => {
    const r = await call("update_icp", { industries: ["Fintech"] });
    expect(r.competitors).toHaveLength(50);
    expect(r.competitors_total).toBe(COMPETITORS);
  });
});
