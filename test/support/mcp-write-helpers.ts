// Helpers for the write-tool tests: calling a tool as a constructed principal (to test role rules, which
// API keys cannot: they act as admins), counting events, and comparing read tables before/after a rebuild.
import { READ_TABLES } from "../../projections/index.ts";
import type { Principal } from "../../src/auth/principal.ts";
import { decideFirstBrief } from "../../src/domain/firstBrief.ts";
import { loadSettings } from "../../src/domain/workspace.ts";
import { callTool } from "../../src/mcp/call.ts";
import { toolsByName } from "../../src/mcp/registry.ts";
import type { TestServer } from "./helpers.ts";
import { body } from "./mcp-helpers.ts";

export async function principalFor(
  t: TestServer,
  slug: string,
  role: "admin" | "member",
  actor = `member:${role}-${slug}`,
): Promise<Principal> {
  const r = await t.services.database.client.execute({
    sql: "SELECT id, slug, name, website_url, plan, created_at FROM orgs WHERE slug = ?",
    args: [slug],
  });
  const o = r.rows[0];
  return {
    orgId: Number(o.id),
    orgSlug: String(o.slug),
    orgName: String(o.name),
    orgWebsite: o.website_url === null ? null : String(o.website_url),
    orgCreatedAt: String(o.created_at),
    plan: String(o.plan),
    actor,
    actorName: `Test ${role}`,
    role,
    scopes: ["read", "write", "spend"],
    via: "oauth",
  };
}

/** Calls a tool through src/mcp/call.ts as the given principal; returns the structured body. */
export async function callAs(t: TestServer, p: Principal, name: string, args: Record<string, unknown>) {
  const tool = toolsByName.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const r = await callTool(
    tool,
    { s: t.services, principal: p, requestId: "test", base: t.base, now: t.services.clock() },
    args,
  );
  return body(r);
}

export async function countEvents(t: TestServer, type?: string): Promise<number> {
  const r = await t.services.database.client.execute(
    type
      ? { sql: "SELECT count(*) AS n FROM events WHERE type = ?", args: [type] }
      : "SELECT count(*) AS n FROM events",
  );
  return Number(r.rows[0].n);
}

export async function orgId(t: TestServer, slug: string): Promise<number> {
  const r = await t.services.database.client.execute({
    sql: "SELECT id FROM orgs WHERE slug = ?",
    args: [slug],
  });
  return Number(r.rows[0].id);
}

/** The id of the record imported under `key` (the keys in these test fixtures are unique across orgs). */
export async function idOfKey(
  t: TestServer,
  table: "competitors" | "signals" | "digests" | "battlecards",
  key: string,
): Promise<number> {
  const r = await t.services.database.client.execute({
    sql: `SELECT id FROM ${table} WHERE key = ?`,
    args: [key],
  });
  return Number(r.rows[0].id);
}

/** Every read table, every row, canonical order (as test/domain/import-export.test.ts compares them). */
export async function dumpReadTables(t: TestServer): Promise<Record<string, unknown[]>> {
  const c = t.services.database.client;
  const out: Record<string, unknown[]> = {};
  for (const table of READ_TABLES) {
    const cols = table.endsWith("_fts") ? "rowid AS rowid, *" : "*";
    const r = await c.execute(`SELECT ${cols} FROM ${table}`);
    out[table] = r.rows.map((row) => JSON.stringify({ ...row })).sort();
  }
  return out;
}

/** GET a REST path with a key; returns status and parsed JSON. */
export async function rest(t: TestServer, key: string, path: string): Promise<{ status: number; json: any }> {
  const r = await t.get(path, { authorization: `Bearer ${key}` });
  return { status: r.status, json: await r.json() };
}

/** Starts or finishes a workspace's first brief through its decider, as research does (without running one). */
export async function markFirstBrief(t: TestServer, orgId: number, step: "start" | "finish") {
  const { events } = await t.services.store.execute(async (w) => ({
    events: decideFirstBrief(await loadSettings(w.tx, orgId), step, w.now),
    result: null,
  }));
  return { changed: events.length > 0 };
}
