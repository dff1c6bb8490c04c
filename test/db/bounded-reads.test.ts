// The reads a caller repeats until it has everything (a workspace's competitors with a website, its members,
// the research runs recovery marks interrupted) run as bounded pages served by an index, and the pages together give what one unbounded read gave.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, createClient, type InStatement } from "@libsql/client";
import { migrate } from "../../src/db/migrate.ts";
import { MEMBER_PAGE, memberPage, memberRows } from "../../src/db/queries/members.ts";
import { competitorRowsWithWebsite, WEBSITE_PAGE } from "../../src/db/queries/watchlistState.ts";
import { ORPHANS_PAGE, orphanedResearchRuns } from "../../src/db/researchLeases.ts";
import { loadAddCompetitor } from "../../src/domain/watchlist.ts";

const dir = mkdtempSync(join(tmpdir(), "rivals-bounded-"));
let client: Client;
const ORG = 1;
const OTHER = 2;
/** Competitors of ORG with a website (more than two pages). */
const COMPETITORS = 2 * WEBSITE_PAGE + 7;
/** The ids of ORG's competitors at zeta.example (www, case and a trailing slash aside). */
const zeta: number[] = [];

const competitor = (id: number, orgId: number, website: string | null): InStatement => ({
  sql: `INSERT INTO competitors (id, org_id, key, name, website_url, watch, tracking, listed, priority_sort,
          tracked_sort, state, summary_doc, detail_doc)
        VALUES (?, ?, ?, ?, ?, 'core', 'tracked', 1, 0, '', '{}', '{}', '{}')`,
  args: [id, orgId, `c-${id}`, `Competitor ${id}`, website],
});

beforeAll(async () => {
  client = createClient({ url: `file:${join(dir, "bounded.db")}` });
  await migrate(client);
  const stmts: InStatement[] = [
    {
      sql: "INSERT INTO orgs (id, slug, name, plan, created_at) VALUES (?, ?, ?, 'team', '2026-01-01T00:00:00.000Z'), (?, ?, ?, 'team', '2026-01-01T00:00:00.000Z')",
      args: [ORG, "acme", "Acme", OTHER, "other", "Other"],
    },
  ];
  // Many competitors share a few websites, so equal website_url values straddle the pages' ends.
  for (let i = 1; i <= COMPETITORS; i++) {
    const id = 1000 + i;
    const site =
      i % 97 === 0
        ? ["https://zeta.example", "https://www.ZETA.example/", "http://zeta.example/"][zeta.length % 3]
        : `https://site-${i % 40}.example/`;
    if (site.toLowerCase().includes("zeta")) zeta.push(id);
    stmts.push(competitor(id, ORG, site));
  }
  for (let i = 1; i <= 30; i++) stmts.push(competitor(5000 + i, ORG, null));
  for (let i = 1; i <= 20; i++) stmts.push(competitor(6000 + i, OTHER, "https://zeta.example/"));
  // Members: more than a page, admins scattered among them, join times out of id order.
  for (let i = 1; i <= MEMBER_PAGE + 31; i++) {
    stmts.push({
      sql: "INSERT INTO users (id, email, name, created_at) VALUES (?, ?, ?, '2026-01-01T00:00:00.000Z')",
      args: [i, `person${i}@acme.example`, i % 3 === 0 ? null : `Person ${i}`],
    });
    const joined = new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % 400) * 60_000).toISOString();
    stmts.push({
      sql: "INSERT INTO memberships (org_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)",
      args: [i % 50 === 0 ? OTHER : ORG, i, i % 17 === 0 ? "admin" : "member", joined],
    });
  }
  await client.batch(stmts, "write");
});
afterAll(() => {
  client.close();
  rmSync(dir, { recursive: true, force: true });
});

async function planOf(stmt: InStatement): Promise<string> {
  const s = typeof stmt === "string" ? { sql: stmt, args: [] } : stmt;
  const r = await client.execute({ sql: `EXPLAIN QUERY PLAN ${s.sql}`, args: s.args });
  return r.rows.map((row) => String(row.detail)).join(" | ");
}

/** The client, recording every statement run through it. */
function recording(seen: InStatement[]) {
  return {
    execute: (stmt: InStatement) => {
      seen.push(stmt);
      return client.execute(stmt);
    },
  };
}

test("a workspace's competitors with a website come in bounded pages that together hold each once", async () => {
  const seen: InStatement[] = [];
  const db = recording(seen);
  const got: number[] = [];
  let after: { websiteUrl: string; id: number } | undefined;
  for (;;) {
    const page = await competitorRowsWithWebsite(db, ORG, after, 13);
    expect(page.length).toBeLessThanOrEqual(13);
    got.push(...page.map((r) => Number(r.id)));
    const last = page.at(-1);
    if (!last || page.length < 13) break;
    after = { websiteUrl: String(last.website_url), id: Number(last.id) };
  }
  const all = await client.execute({
    sql: "SELECT id FROM competitors WHERE org_id = ? AND website_url IS NOT NULL ORDER BY website_url, id",
    args: [ORG],
  });
  expect(got).toEqual(all.rows.map((r) => Number(r.id)));
  expect(got.length).toBe(COMPETITORS);
  // The default page is bounded too.
  expect((await competitorRowsWithWebsite(db, ORG)).length).toBe(WEBSITE_PAGE);
  for (const stmt of seen) {
    const plan = await planOf(stmt);
    expect(plan).toContain("USING INDEX competitors_by_website");
    expect(plan).not.toContain("TEMP B-TREE");
    expect(typeof stmt === "string" ? stmt : stmt.sql).toMatch(/LIMIT \?/);
  }
});

test("adding a competitor finds the workspace's ones at that website past the first page, newest first", async () => {
  expect(zeta.length).toBeGreaterThanOrEqual(4);
  const seen: InStatement[] = [];
  const st = await loadAddCompetitor(
    recording(seen),
    { orgId: ORG, actor: "test" },
    { website_url: "https://Zeta.example/" },
  );
  expect(st.sameSite.map((c) => c.id)).toEqual([...zeta].sort((a, b) => b - a));
  // Every page it read was bounded: more than one was needed.
  const pages = seen.filter((s) => typeof s !== "string" && /website_url IS NOT NULL/.test(s.sql));
  expect(pages.length).toBeGreaterThan(1);
});

test("a workspace's members come a bounded page at a time, together in the order one read gave", async () => {
  const seen: InStatement[] = [];
  const rows = await memberRows(recording(seen), ORG);
  const once = await client.execute({
    sql: `SELECT u.id FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.org_id = ? ORDER BY m.role = 'admin' DESC, m.joined_at, u.id`,
    args: [ORG],
  });
  expect(rows.map((m) => m.user_id)).toEqual(once.rows.map((r) => Number(r.id)));
  expect(rows.length).toBeGreaterThan(MEMBER_PAGE);
  expect(rows[0].role).toBe("admin");
  expect(rows.some((m) => m.name === undefined)).toBe(true);
  expect(seen.length).toBe(2);
  for (const stmt of seen) {
    const plan = await planOf(stmt);
    expect(plan).toMatch(
      /SEARCH m USING (COVERING )?INDEX sqlite_autoindex_memberships_1 \(org_id=\? AND user_id>\?\)/,
    );
    expect(plan).not.toContain("TEMP B-TREE");
  }
  expect((await memberPage(client, ORG, 0, 5)).map((m) => m.user_id)).toEqual([1, 2, 3, 4, 5]);
  expect((await memberRows(client, OTHER)).every((m) => m.user_id % 50 === 0)).toBe(true);
});

test("research runs without a live lease come a bounded page at a time, each once", async () => {
  const at = "2026-06-01T00:00:00.000Z";
  const stmts: InStatement[] = [];
  for (let i = 1; i <= 2 * ORPHANS_PAGE + 11; i++) {
    const id = 20_000 + i;
    stmts.push({
      sql: `INSERT INTO research_runs (id, org_id, competitor_id, batch, trigger, uses_allowance, first_brief, state,
              started_at) VALUES (?, ?, 1001, ?, 'operator', 0, 0, ?, '2026-05-31T00:00:00.000Z')`,
      args: [id, i % 2 ? ORG : OTHER, id, i % 5 === 0 ? "finished" : "running"],
    });
    // Every third run's instance is alive; every seventh's lease has expired.
    if (i % 3 === 0 || i % 7 === 0)
      stmts.push({
        sql: "INSERT INTO research_leases (run_id, holder, expires_at) VALUES (?, 'instance', ?)",
        args: [id, i % 3 === 0 ? "2026-06-01T00:01:00.000Z" : "2026-05-31T23:59:00.000Z"],
      });
  }
  await client.batch(stmts, "write");
  const got: number[] = [];
  for (let after = 0; ; ) {
    const page = await orphanedResearchRuns(client, at, after, 37);
    expect(page.length).toBeLessThanOrEqual(37);
    got.push(...page);
    if (page.length < 37) break;
    after = page[page.length - 1];
  }
  const expected = [];
  for (let i = 1; i <= 2 * ORPHANS_PAGE + 11; i++) if (i % 5 !== 0 && i % 3 !== 0) expected.push(20_000 + i);
  expect(got).toEqual(expected);
  expect((await orphanedResearchRuns(client, at)).length).toBe(ORPHANS_PAGE);
});
