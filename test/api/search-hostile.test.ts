// Search treats any text as text: NUL and other control characters, lone surrogates, FTS5
// syntax and very long terms at every search entry point — the read API's `q`, the search_signals tool,
// the app's search box, the public tools and the public library's search pages. Each answers 200 (maybe
// empty) or refuses with a 400 / invalid_argument naming the parameter; never a 5xx or internal_error.
// The rule (src/domain/searchText.ts): control characters are refused; lone surrogates read as U+FFFD.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { rawPost, toolsCall } from "../support/mcp-helpers.ts";
import { browse, loadWebFixture, type WebFixture } from "../support/web-fixture.ts";

const RUNS = 120;
const SEED = 20261122;
const params = { numRuns: RUNS, seed: SEED, endOnFailure: true };

let t: TestServer;
let key: string;
let fx: WebFixture;
beforeAll(async () => {
  t = await startTestServer({ RIVALS_RATE_LIMIT: "1000000", RIVALS_MCP_RATE_LIMIT: "1000000" });
  fx = await loadWebFixture(t);
  key = await t.key("acme");
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Text a hostile client would send: control characters, lone surrogates, FTS5 syntax, long terms. */
const hostile = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(
      "\u0000",
      "\u0001",
      "\t",
      "\n",
      "\r",
      "\u001f",
      "\u007f",
      "\u0085",
      "\u009f",
      "\uD800",
      "\uDFFF",
      "😀",
      "a",
      "B",
      "é",
      "Ü",
      '"',
      "'",
      "*",
      "(",
      ")",
      ":",
      "^",
      "-",
      "+",
      "[",
      "]",
      " ",
      "NEAR",
      "AND",
      "OR",
      "NOT",
      "Price",
    ),
    maxLength: 12,
  }),
  fc.string({ unit: "grapheme-ascii", minLength: 300, maxLength: 700 }),
  fc.constantFrom(
    "\u0000",
    "x\u0000",
    "a\u0000b",
    "\u0000Price",
    "Price\u0000",
    '"',
    '""',
    "NEAR(a b)",
    "a OR b",
    "title:price",
    "price*",
    "^price",
    "\uD800",
    "ab\uDC00",
    "\uFFFD",
    "x".repeat(500),
    "x".repeat(501),
  ),
);

/** Percent-encodes any JS string; lone surrogates go as the invalid UTF-8 a client could send. */
function encodeAny(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...s]
      .map((ch) => {
        const c = ch.codePointAt(0)!;
        if (c >= 0xd800 && c <= 0xdfff)
          return `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`;
        return encodeURIComponent(ch);
      })
      .join("");
  }
}

async function restSearch(q: string): Promise<{ status: number; body: any }> {
  const r = await t.get(`/api/v1/signals?per_page=50&q=${encodeAny(q)}`, { "x-api-key": key });
  return { status: r.status, body: await r.json() };
}

async function tool(name: string, args: object, token?: string): Promise<any> {
  const r = await rawPost(t.base, toolsCall(name, args), token ? { authorization: `Bearer ${token}` } : {});
  expect(r.status).toBe(200);
  const msg = (await r.json()) as any;
  expect(msg.error).toBeUndefined();
  const res = msg.result;
  return res.isError ? JSON.parse(res.content[0].text) : res.structuredContent;
}

const ids = (data: { id: number }[]) => data.map((s) => s.id);

describe("the search rule", () => {
  test.each(["%00", "x%00", "a%00b", "%00Price", "%01", "a%09b", "%0A", "%7F", "%C2%85"])(
    "q=%s is refused with 400 naming q, on the read API",
    async (raw) => {
      const r = await t.get(`/api/v1/signals?q=${raw}`, { "x-api-key": key });
      expect(r.status).toBe(400);
      const body = (await r.json()) as any;
      expect(body.code).toBe("invalid_request");
      expect(body.detail).toContain("Query parameter q must not contain control characters");
    },
  );

  test("the tool refuses the same text, naming query", async () => {
    for (const q of ["\u0000", "x\u0000", "a\u0000b", "a\tb", "\u0085"]) {
      const e = await tool("search_signals", { query: q }, key);
      expect(e.error.code).toBe("invalid_argument");
      expect(e.error.argument).toBe("query");
      expect(e.error.message).toContain("query must not contain control characters");
    }
  });

  test("the app's search box says so, with a 400 page and no signals", async () => {
    const r = await browse(t, "/app?q=a%00b", fx.ann.cookie);
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain("The search words must not contain control characters");
    expect(html).not.toContain("\u0000");
    expect(html).toContain('value="a\uFFFDb"');
    const ok = await browse(t, "/app?q=Price", fx.ann.cookie);
    expect(ok.status).toBe(200);
  });

  test("FTS5 syntax is matched as the characters it is", async () => {
    for (const q of ['"', "NEAR(a b)", "price*", "a OR b", "title:price", "^price", "*", "(", "-"]) {
      const r = await restSearch(q);
      expect(r.status).toBe(200);
      for (const s of r.body.data)
        expect(`${s.title}\n${s.summary ?? ""}`.toLowerCase()).toContain(q.toLowerCase());
    }
  });

  test("a lone surrogate in the tool reads as U+FFFD, as invalid UTF-8 does in a URL", async () => {
    const viaTool = await tool("search_signals", { query: "ab\uDC00", limit: 50 }, key);
    const viaRest = await restSearch("ab\uFFFD");
    const viaRestBytes = await t.get("/api/v1/signals?per_page=50&q=ab%ED%B0%80", { "x-api-key": key });
    expect(viaRest.status).toBe(200);
    expect(viaRestBytes.status).toBe(200);
    expect(ids(viaTool.signals)).toEqual(ids(viaRest.body.data));
    expect(ids(((await viaRestBytes.json()) as any).data)).toEqual(ids(viaRest.body.data));
  });

  test("terms longer than 500 characters are refused, 500 are searched", async () => {
    expect((await restSearch("x".repeat(500))).status).toBe(200);
    const long = await restSearch("x".repeat(501));
    expect(long.status).toBe(400);
    expect(long.body.detail).toContain("q");
    expect((await tool("search_signals", { query: "x".repeat(501) }, key)).error.code).toBe(
      "invalid_argument",
    );
  });
});

describe("property: any text at every search entry point", () => {
  test("read API q: 200, or 400 naming q exactly when the text breaks the rule", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (q) => {
        const r = await restSearch(q);
        expect(r.status).toBeLessThan(500);
        const refused = CONTROL.test(q) || [...q.replace(/[\uD800-\uDFFF]/g, "\uFFFD")].length > 500;
        if (refused) {
          expect(r.status).toBe(400);
          expect(r.body.code).toBe("invalid_request");
          expect(r.body.detail).toContain("q ");
        } else expect(r.status).toBe(200);
      }),
      params,
    );
  });

  test("search_signals agrees with the read API on every text", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (q) => {
        const viaTool = await tool("search_signals", { query: q, limit: 50 }, key);
        if (viaTool.error) {
          expect(viaTool.error.code).toBe("invalid_argument");
          return;
        }
        expect(q.length).toBeGreaterThan(0);
        const viaRest = await restSearch(q);
        expect(viaRest.status).toBe(200);
        expect(ids(viaTool.signals)).toEqual(ids(viaRest.body.data));
      }),
      params,
    );
  });

  test("the app's search page: 200 or 400, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (q) => {
        const r = await browse(t, `/app?q=${encodeAny(q)}`, fx.ann.cookie);
        const html = await r.text();
        expect([200, 400]).toContain(r.status);
        expect(html).not.toContain("\u0000");
      }),
      params,
    );
  });

  test("public tools and the public library pages: never a 5xx or internal_error", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom("query", "company"), async (q, arg) => {
        for (const name of ["search_public_briefs", "search_guides"]) {
          if (name === "search_guides" && arg === "company") continue;
          const res = await tool(name, { [arg]: q });
          if (res.error) expect(res.error.code).toBe("invalid_argument");
        }
        for (const page of ["/briefs", "/guides"]) {
          const r = await browse(t, `${page}?q=${encodeAny(q)}`);
          expect(r.status).toBe(200);
          await r.arrayBuffer();
        }
      }),
      params,
    );
  });
});
