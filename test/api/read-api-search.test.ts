// `q` beyond ASCII: the trigram index (3+ characters) and the short-term fallback must agree on what
// "case-insensitive" means, for any script.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let key: string;
const TITLES = [
  "Élan Über straße",
  "ИИ-ассистент запущен",
  "Σίγμα launches 🚀 rockets",
  "Plain ascii title",
  "Brackets [x] and stars * and ? marks",
];
beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme");
  key = await t.key("acme");
  const r = await t.load([
    { kind: "competitor", org: "acme", key: "c", name: "C" },
    ...TITLES.map((title, i) => ({
      kind: "signal",
      org: "acme",
      key: `s${i}`,
      competitor: "c",
      title,
      summary: i === 3 ? "Summary with Ümlaut" : undefined,
      first_seen_at: `2026-11-0${i + 1}T00:00:00Z`,
    })),
  ]);
  expect(r.errors).toEqual([]);
});
afterAll(() => t.close());

/** Newest first; a case-insensitive substring match on title or summary. */
function oracle(q: string): string[] {
  const low = q.toLowerCase();
  return TITLES.map((title, i) => ({ title, hay: [title, i === 3 ? "Summary with Ümlaut" : ""] }))
    .filter((x) => x.hay.some((h) => h.toLowerCase().includes(low)))
    .map((x) => x.title)
    .reverse();
}

test.each([
  "é",
  "É",
  "üb",
  "ÜB",
  "élan",
  "ÉLAN",
  "über",
  "ии",
  "ИИ",
  "ии-",
  "АССИСТЕНТ",
  "σ",
  "ΣΊΓ",
  "🚀",
  "🚀 r",
  "ü",
  "Ü",
  "[x]",
  "[",
  "]",
  "*",
  "?",
  "* a",
  "[x",
  "x]",
  "^",
  "-",
])("q=%p is a case-insensitive substring match", async (q) => {
  const r = await t.get(`/api/v1/signals?q=${encodeURIComponent(q)}`, { "x-api-key": key });
  expect(r.status).toBe(200);
  const body = (await r.json()) as { data: { title: string }[] };
  expect(body.data.map((s) => s.title)).toEqual(oracle(q));
});

test("the oracle is not trivially empty", () => {
  expect(oracle("ü")).toHaveLength(2);
  expect(oracle("ии")).toHaveLength(1);
  expect(oracle("*")).toHaveLength(1);
});
