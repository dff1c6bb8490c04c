// The rendered-page mark is a field of the source, not a property of its body hash: an ordinary page whose hash
// (base 36) happens to start with "r" is still fetched conditionally, a page read in the browser is fetched whole,
// and migration 0090 keeps the pages the old hash prefix marked.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { migrate } from "../../../src/db/migrate.ts";
import { checkSource } from "../../../src/engine/cycle/check.ts";
import type { SourceState } from "../../../src/engine/snapshots/store.ts";
import { AT, COMPETITOR, checkedSite, fetcherTo, pageState } from "../../support/source-state.ts";

const ETAG = '"v1"';
const BODY =
  "<!doctype html><html><head><title>Pricing</title></head><body><h1>Plans</h1><p>Team $29</p></body></html>";
const asked: { ifNoneMatch: string | null }[] = [];
const env = checkedSite((req) => {
  if (new URL(req.url).pathname === "/robots.txt") return new Response("", { status: 404 });
  const inm = req.headers.get("if-none-match");
  asked.push({ ifNoneMatch: inm });
  if (inm === ETAG) return new Response(null, { status: 304, headers: { etag: ETAG } });
  return new Response(BODY, { headers: { "content-type": "text/html", etag: ETAG } });
});

/** A hash in base 36 that starts with "r", as about one ordinary page in 140 has. */
function hashStartingWithR(): string {
  for (let i = 0; ; i++) {
    const h = Bun.hash(`page ${i}`).toString(36);
    if (h.startsWith("r")) return `${h}.sig`;
  }
}

const state = (bodyHash: string, rendered: boolean): SourceState =>
  pageState("https://plain.test/pricing", { etag: ETAG, bodyHash, rendered });

const fetcher = () => fetcherTo("https://plain.test", env.site.port);
const source = { url: "https://plain.test/pricing", kind: "pricing", monitored: false };

test("an ordinary page whose body hash starts with 'r' is fetched conditionally (304, nothing parsed)", async () => {
  asked.length = 0;
  const o = await checkSource(env.s, 1, COMPETITOR, AT, source, state(hashStartingWithR(), false), fetcher());
  expect(asked).toEqual([{ ifNoneMatch: ETAG }]);
  expect(o.status).toBe("not_modified");
});

test("a page whose last check was rendered is fetched whole, whatever its hash", async () => {
  asked.length = 0;
  const o = await checkSource(env.s, 1, COMPETITOR, AT, source, state("k2x9", true), fetcher());
  expect(asked).toEqual([{ ifNoneMatch: null }]);
  expect(o.status).not.toBe("not_modified");
});

test("migration 0090 keeps the pages the old 'r' prefix marked and drops the prefix from their hash", async () => {
  const file = join(env.dir, "old.db");
  const c = createClient({ url: `file:${file}` });
  await migrate(c);
  await c.execute(
    `INSERT INTO snapshot_sources (org_id, competitor_id, source_key, url, kind, first_seen_at, last_checked_at, body_hash)
     VALUES (1, 1, 'page:a', 'a', 'page', 'x', 'x', 'r1abc.sig'), (1, 1, 'page:b', 'b', 'page', 'x', 'x', '2def.sig')`,
  );
  // Run the migration again over the old shape: the column removed, the old marks back.
  await c.executeMultiple(
    `ALTER TABLE snapshot_sources DROP COLUMN rendered;
     DELETE FROM schema_migrations WHERE id = '0090_source_rendered';`,
  );
  expect(await migrate(c)).toEqual(["0090_source_rendered"]);
  const rows = (
    await c.execute("SELECT source_key, body_hash, rendered FROM snapshot_sources ORDER BY source_key")
  ).rows;
  expect(rows.map((r) => [r.source_key, r.body_hash, Number(r.rendered)])).toEqual([
    ["page:a", "1abc.sig", 1],
    ["page:b", "2def.sig", 0],
  ]);
  c.close();
});
