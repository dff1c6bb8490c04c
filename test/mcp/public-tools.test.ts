// The four public tools over HTTP with the official SDK client and no credential: search_public_briefs,
// get_public_brief, search_guides, get_free_brief_link; and the public_brief / guide import kinds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient, rawPost, toolsCall } from "../support/mcp-helpers.ts";

let t: TestServer;
let anon: Client;

const call = async (name: string, args: Record<string, unknown> = {}, c: Client = anon) =>
  c.callTool({ name, arguments: args });
const ok = async (name: string, args: Record<string, unknown> = {}, c: Client = anon) => {
  const r = await call(name, args, c);
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(body(r))}`);
  return body(r);
};
const err = async (name: string, args: Record<string, unknown> = {}) => {
  const r = await call(name, args);
  expect(r.isError).toBe(true);
  return body(r).error as { code: string; message: string };
};

async function eventCount(): Promise<number> {
  const r = await t.services.database.client.execute("SELECT count(*) AS n FROM events");
  return Number(r.rows[0].n);
}

const brief = (over: Record<string, unknown>) => ({
  kind: "public_brief",
  company_slug: "acme",
  company_name: "Acme Rockets",
  domain: "https://www.acme.example/",
  slug: "launch",
  title: "Acme launches",
  summary: "Acme launched a rocket.",
  findings: [{ text: "A rocket launched.", category: "product", date: "2026-10-01" }],
  sources: [{ title: "Acme blog", url: "https://acme.example/blog" }, { url: "https://acme.example/press" }],
  published_at: "2026-10-02T00:00:00Z",
  ...over,
});

const LINES = [
  brief({}),
  brief({
    slug: "pricing-2026",
    title: "Acme raises seat prices",
    summary: "Seat prices went up by a fifth; the free tier shrank.",
    findings: [
      { text: "Per-seat price up 20%.", category: "pricing", date: "2026-11-01" },
      { text: "Free tier now capped at 3 users.", category: "pricing", date: "2026-11-02T08:30:00+02:00" },
      { text: "Hiring a VP of Sales." },
    ],
    published_at: "2026-11-05T00:00:00Z",
  }),
  brief({
    company_slug: "globex",
    company_name: "Globex Corporation",
    domain: "globex.example",
    slug: "ai-bet",
    title: "Globex bets on AI pricing",
    summary: "Globex bundles an AI assistant into paid plans.",
    findings: [{ text: "AI assistant included in Team plans.", category: "product" }],
    sources: [],
    published_at: "2026-10-20T00:00:00Z",
  }),
  {
    kind: "guide",
    slug: "battlecards",
    title: "Building battlecards",
    excerpt: "Cards sellers open during calls.",
    body_markdown: "# Battlecards\n\nObjections, landmines and talk tracks. Mention pricing once.",
    published_at: "2026-09-01T00:00:00Z",
  },
  {
    kind: "guide",
    slug: "pricing-tracking",
    title: "Tracking competitor pricing",
    excerpt: "Snapshots of pricing pages, graded by severity.",
    body_markdown: "# Pricing\n\nWatch the prices on the pricing page and the plan table.",
    published_at: "2026-10-01T00:00:00Z",
  },
  {
    kind: "guide",
    slug: "win-loss",
    title: "Running a win/loss review",
    excerpt: "Interview buyers within 30 days.",
    body_markdown: "# Win/loss\n\nAsk buyers, code interviews, close the loop.",
    published_at: "2026-11-01T00:00:00Z",
  },
];

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme-workspace");
  const r = await t.load(LINES);
  expect(r.errors).toEqual([]);
  expect(r.applied).toBe(LINES.length);
  anon = await mcpClient(t.base);
});
afterAll(() => t.close());

describe("without a credential", () => {
  test("tools/list works and marks the four public tools", async () => {
    const { tools } = await anon.listTools();
    for (const name of ["search_public_briefs", "get_public_brief", "search_guides", "get_free_brief_link"]) {
      const tool = tools.find((x) => x.name === name)!;
      expect(tool.description).toContain("Public: no credential needed.");
      // The briefs quote companies' websites: open world, and their descriptions say the text is untrusted.
      const quotes = name.endsWith("_public_briefs") || name === "get_public_brief";
      // Read-only: the destructive and idempotent hints have no meaning, so the list leaves them out.
      expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: quotes });
      expect(tool.description!.includes("Untrusted third-party text")).toBe(quotes);
      expect(tool.outputSchema?.type).toBe("object");
    }
  });

  test("a raw tools/call of a public tool answers 200; a workspace tool answers 401", async () => {
    const pub = await rawPost(t.base, toolsCall("get_free_brief_link"));
    expect(pub.status).toBe(200);
    const priv = await rawPost(t.base, toolsCall("get_workspace", {}, 2));
    expect(priv.status).toBe(401);
  });
});

describe("search_public_briefs", () => {
  test("no arguments lists the newest first, with page URLs", async () => {
    const r = await ok("search_public_briefs");
    expect(r.briefs.map((b: { slug: string }) => b.slug)).toEqual(["pricing-2026", "ai-bet", "launch"]);
    expect(r.briefs[0]).toEqual({
      company: { slug: "acme", name: "Acme Rockets", domain: "acme.example" },
      slug: "pricing-2026",
      title: "Acme raises seat prices",
      summary: "Seat prices went up by a fifth; the free tier shrank.",
      published_at: "2026-11-05T00:00:00.000Z",
      finding_count: 3,
      url: `${t.base}/briefs/acme/pricing-2026`,
    });
  });

  test("words filter (all must start a word, case-insensitive, in company, title, summary or findings)", async () => {
    const slugs = async (args: Record<string, unknown>) =>
      (await ok("search_public_briefs", args)).briefs.map((b: { slug: string }) => b.slug);
    expect(await slugs({ query: "PRICING" })).toEqual(["pricing-2026", "ai-bet"]);
    expect(await slugs({ query: "pricing free tier" })).toEqual(["pricing-2026"]);
    expect(await slugs({ query: "rocket" })).toEqual(["pricing-2026", "launch"]); // company "Acme Rockets"
    expect(await slugs({ query: "launched" })).toEqual(["launch"]);
    expect(await slugs({ query: "price" })).toEqual(["pricing-2026"]); // "prices", "price"
    expect(await slugs({ query: "ai" })).toEqual(["ai-bet"]); // a word start: not "raises"
    expect(await slugs({ query: "submarine" })).toEqual([]);
  });

  test("company filter by name, slug or domain; limit", async () => {
    const slugs = async (args: Record<string, unknown>) =>
      (await ok("search_public_briefs", args)).briefs.map((b: { slug: string }) => b.slug);
    expect(await slugs({ company: "globex" })).toEqual(["ai-bet"]);
    expect(await slugs({ company: "Acme Rockets" })).toEqual(["pricing-2026", "launch"]);
    expect(await slugs({ company: "rockets" })).toEqual(["pricing-2026", "launch"]);
    expect(await slugs({ company: "https://www.globex.example/about" })).toEqual(["ai-bet"]);
    expect(await slugs({ company: "acme.example" })).toEqual(["pricing-2026", "launch"]);
    expect(await slugs({ company: "acme", query: "launched" })).toEqual(["launch"]);
    expect(await slugs({ limit: 1 })).toEqual(["pricing-2026"]);
  });

  test("bad arguments", async () => {
    expect((await err("search_public_briefs", { limit: 0 })).code).toBe("invalid_argument");
    expect((await err("search_public_briefs", { limit: 51 })).code).toBe("invalid_argument");
    expect((await err("search_public_briefs", { query: "" })).code).toBe("invalid_argument");
    expect((await err("search_public_briefs", { company: 7 })).code).toBe("invalid_argument");
  });
});

describe("get_public_brief", () => {
  const full = () => ({
    company: { slug: "acme", name: "Acme Rockets", domain: "acme.example" },
    slug: "pricing-2026",
    title: "Acme raises seat prices",
    summary: "Seat prices went up by a fifth; the free tier shrank.",
    published_at: "2026-11-05T00:00:00.000Z",
    url: `${t.base}/briefs/acme/pricing-2026`,
    findings: [
      { text: "Per-seat price up 20%.", category: "pricing", date: "2026-11-01" },
      { text: "Free tier now capped at 3 users.", category: "pricing", date: "2026-11-02T06:30:00.000Z" },
      { text: "Hiring a VP of Sales." },
    ],
    sources: [
      { number: 1, title: "Acme blog", url: "https://acme.example/blog" },
      { number: 2, url: "https://acme.example/press" },
    ],
  });

  test("by company slug and brief slug, by URL, and the newest with the company slug alone", async () => {
    expect((await ok("get_public_brief", { company_slug: "acme", slug: "pricing-2026" })).brief).toEqual(
      full(),
    );
    expect((await ok("get_public_brief", { url: `${t.base}/briefs/acme/pricing-2026` })).brief).toEqual(
      full(),
    );
    expect((await ok("get_public_brief", { company_slug: "acme" })).brief).toEqual(full());
    expect((await ok("get_public_brief", { url: `${t.base}/briefs/acme/launch/` })).brief.slug).toBe(
      "launch",
    );
    expect((await ok("get_public_brief", { url: `${t.base}/briefs/globex` })).brief.slug).toBe("ai-bet");
    expect((await ok("get_public_brief", { url: "/briefs/acme/launch" })).brief.title).toBe("Acme launches");
  });

  test("unknown briefs are not_found; malformed names are invalid_argument", async () => {
    expect((await err("get_public_brief", { company_slug: "acme", slug: "nope" })).code).toBe("not_found");
    expect((await err("get_public_brief", { company_slug: "initech" })).code).toBe("not_found");
    expect((await err("get_public_brief", { url: `${t.base}/briefs/acme/nope` })).code).toBe("not_found");
    expect((await err("get_public_brief", {})).code).toBe("invalid_argument");
    expect((await err("get_public_brief", { slug: "launch" })).code).toBe("invalid_argument");
    expect((await err("get_public_brief", { company_slug: "Acme Rockets" })).code).toBe("invalid_argument");
    expect((await err("get_public_brief", { url: `${t.base}/guides/battlecards` })).code).toBe(
      "invalid_argument",
    );
    expect(
      (await err("get_public_brief", { url: `${t.base}/briefs/acme/launch`, company_slug: "acme" })).code,
    ).toBe("invalid_argument");
  });
});

describe("search_guides", () => {
  test("best match first (bm25, title weighted), with excerpt and page URL", async () => {
    const r = await ok("search_guides", { query: "pricing" });
    expect(r.guides[0]).toEqual({
      slug: "pricing-tracking",
      title: "Tracking competitor pricing",
      excerpt: "Snapshots of pricing pages, graded by severity.",
      published_at: "2026-10-01T00:00:00.000Z",
      url: `${t.base}/guides/pricing-tracking`,
    });
    // The battlecard guide mentions pricing once in its body: a weaker match, ranked after.
    expect(r.guides.map((g: { slug: string }) => g.slug)).toEqual(["pricing-tracking", "battlecards"]);
    const stems = await ok("search_guides", { query: "interviewing buyer" });
    expect(stems.guides[0].slug).toBe("win-loss");
    expect((await ok("search_guides", { query: "objections talk tracks" })).guides[0].slug).toBe(
      "battlecards",
    );
    expect((await ok("search_guides", { query: "quantum" })).guides).toEqual([]);
  });

  test("no query lists the newest; limit", async () => {
    const r = await ok("search_guides");
    expect(r.guides.map((g: { slug: string }) => g.slug)).toEqual([
      "win-loss",
      "pricing-tracking",
      "battlecards",
    ]);
    expect((await ok("search_guides", { query: "pricing", limit: 1 })).guides).toHaveLength(1);
    expect((await err("search_guides", { limit: 21 })).code).toBe("invalid_argument");
  });

  test("query syntax is never interpreted as FTS5 operators", async () => {
    for (const q of ['"', "NEAR(", "pricing OR", "*", "title:pricing", "-win AND"])
      expect(Array.isArray((await ok("search_guides", { query: q })).guides)).toBe(true);
  });
});

describe("get_free_brief_link", () => {
  test("returns the three links and creates nothing", async () => {
    const before = await eventCount();
    expect(await ok("get_free_brief_link")).toEqual({
      free_brief_url: `${t.base}/free-brief`,
      signup_url: `${t.base}/signup`,
      pricing_url: `${t.base}/pricing`,
    });
    expect(await eventCount()).toBe(before);
  });

  test("also works for a caller with a credential, the same for everyone", async () => {
    const authed = await mcpClient(t.base, await t.key("acme-workspace"));
    expect(await ok("get_free_brief_link", {}, authed)).toEqual(await ok("get_free_brief_link"));
    expect(await ok("search_public_briefs", {}, authed)).toEqual(await ok("search_public_briefs"));
  });
});

describe("import kinds public_brief and guide", () => {
  test("the same lines again record nothing; a changed line updates in place", async () => {
    const before = await eventCount();
    const again = await t.load(LINES);
    expect(again).toMatchObject({ applied: 0, unchanged: LINES.length, errors: [] });
    expect(await eventCount()).toBe(before);
    const id = async () =>
      Number(
        (await t.services.database.client.execute("SELECT id FROM guides WHERE slug = 'win-loss'")).rows[0]
          .id,
      );
    const oldId = await id();
    const changed = await t.load([{ ...LINES[5], title: "Running a win/loss programme" }]);
    expect(changed.applied).toBe(1);
    expect(await id()).toBe(oldId);
    expect((await ok("search_guides", { query: "programme" })).guides[0].title).toBe(
      "Running a win/loss programme",
    );
    const b = await t.load([brief({ title: "Acme launches again" })]);
    expect(b.applied).toBe(1);
    expect((await ok("get_public_brief", { company_slug: "acme", slug: "launch" })).brief.title).toBe(
      "Acme launches again",
    );
  });

  test("a projections rebuild reproduces the library tables", async () => {
    const dump = async () => {
      const out: Record<string, unknown[]> = {};
      for (const [table, cols, order] of [
        ["public_briefs", "*", "id"],
        ["guides", "*", "id"],
        ["guides_fts", "rowid AS rowid, *", "rowid"],
      ]) {
        const r = await t.services.database.client.execute(`SELECT ${cols} FROM ${table} ORDER BY ${order}`);
        out[table] = r.rows.map((row) => ({ ...row }));
      }
      return out;
    };
    const before = await dump();
    expect(before.guides_fts).toHaveLength(3);
    await rebuildProjections(t.services.store);
    expect(await dump()).toEqual(before);
    expect((await ok("search_guides", { query: "pricing" })).guides[0].slug).toBe("pricing-tracking");
  });

  test("bad lines are refused with the field named", async () => {
    const r = await t.load([
      brief({ slug: "Bad Slug" }),
      brief({ slug: "x", title: undefined }),
      brief({ slug: "y", sources: [{ url: "ftp://acme.example/file" }] }),
      brief({ slug: "z", findings: [{ text: "t", date: "yesterday" }] }),
      brief({ slug: "w", published_at: undefined }),
      brief({ slug: "v", extra: 1 }),
      { kind: "guide", slug: "g", title: "No body", published_at: "2026-01-01" },
    ]);
    expect(r.errors.map((e) => e.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(r.errors[0].error).toContain("slug");
    expect(r.errors[1].error).toContain("title");
    expect(r.errors[6].error).toContain("body_markdown");
  });

  test("the shipped demo data brings real guides and briefs", async () => {
    const demo = await startTestServer();
    try {
      const text = readFileSync(join(import.meta.dir, "..", "..", "examples", "demo.ndjson"), "utf8");
      expect((await importNdjson(demo.services.store, text)).errors).toEqual([]);
      const c = await mcpClient(demo.base);
      const guides = body(await c.callTool({ name: "search_guides", arguments: { limit: 20 } })).guides;
      expect(guides.length).toBeGreaterThanOrEqual(3);
      const hit = body(
        await c.callTool({ name: "search_guides", arguments: { query: "win loss interviews" } }),
      );
      expect(hit.guides[0].slug).toBe("running-a-win-loss-review");
      const briefs = body(await c.callTool({ name: "search_public_briefs", arguments: {} })).briefs;
      expect(briefs.length).toBeGreaterThanOrEqual(2);
      const newest = body(
        await c.callTool({ name: "get_public_brief", arguments: { company_slug: briefs[0].company.slug } }),
      ).brief;
      expect(newest.sources[0].number).toBe(1);
      expect(newest.findings.length).toBeGreaterThan(0);
    } finally {
      await demo.close();
    }
  });
});
