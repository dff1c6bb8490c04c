// `rivals compact` on a real libSQL file: after two days of hourly cycles over the fixture web (a planted price
// rise, then quiet cycles, a failing page at the end), dropping the bookkeeping older than a day leaves every
// read API list, each competitor and signal, the tools' last cycle and the competitor pages answering the same,
// before and after the projections are rebuilt from the compacted log; `rivals compact --vacuum` as a process
// does the same on the file the server holds open.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { exportNdjson } from "../../src/domain/exports.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { compact } from "../../src/engine/compaction/compact.ts";
import { runCycle } from "../../src/engine/cycle/run.ts";
import { runProcess } from "../e2e/harness.ts";
import {
  addResearched,
  type FixtureWorkspace,
  startFixtureWorkspace,
  teamPrice,
} from "../support/fixture-workspace.ts";
import { startTestServer } from "../support/helpers.ts";
import { rest } from "../support/mcp-write-helpers.ts";
import { member, signedIn } from "../support/oauth-helpers.ts";

setDefaultTimeout(120_000);

let w: FixtureWorkspace;
let key: string;
let admin: Awaited<ReturnType<typeof signedIn>>;
const ids: number[] = [];

async function count(sql: string): Promise<number> {
  return Number((await w.t.services.database.client.execute(sql)).rows[0].n);
}

/** Everything a reader sees of the workspace: the read API's lists and items, the tools, the pages. */
async function served(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of ["/api/v1/competitors", "/api/v1/signals", "/api/v1/digests", "/api/v1/battlecards"]) {
    const r = await rest(w.t, key, path);
    expect(r.status).toBe(200);
    out[path] = r.json;
  }
  for (const id of ids) out[`competitor ${id}`] = (await rest(w.t, key, `/api/v1/competitors/${id}`)).json;
  for (const s of (out["/api/v1/signals"] as { data: { id: number }[] }).data)
    out[`signal ${s.id}`] = (await rest(w.t, key, `/api/v1/signals/${s.id}`)).json;
  for (const id of ids) out[`get_competitor ${id}`] = await w.call("get_competitor", { competitor_id: id });
  out.what_changed = await w.call("what_changed", {});
  for (const id of ids)
    out[`page ${id}`] = await (await admin.request(`/app/competitors/${id}?org=acme`)).text();
  out.monitoring = await (await admin.request("/app/settings/monitoring?org=acme")).text();
  return out;
}

beforeAll(async () => {
  w = await startFixtureWorkspace();
  key = await w.t.key("acme");
  admin = await signedIn(w.t, await member(w.t, "acme", "admin"));
  ids.push(await addResearched(w, "https://globex.example"));
  ids.push(await addResearched(w, "https://tallyhq.example"));
  const cycle = async () => {
    w.t.clock.advance(3_600_000);
    return runCycle(w.t.services, w.orgId, { trigger: "schedule" });
  };
  await cycle();
  w.web.set("globex.example", "/pricing", { transform: teamPrice("59", "69") });
  expect((await cycle()).signals_created).toBe(1);
  for (let i = 0; i < 46; i++) await cycle();
  w.web.set("globex.example", "/pricing", { status: 503 });
  for (let i = 0; i < 2; i++) expect((await cycle()).pages_failed).toBe(1);
});
afterAll(() => w.stop());

describe("compaction", () => {
  test("drops the checks and cycles older than a day but what the freshness comes from; nothing served changes, nor after a rebuild", async () => {
    const checks = "SELECT COUNT(*) AS n FROM events WHERE type = 'CompetitorChecked'";
    const cycles = "SELECT COUNT(*) AS n FROM cycles";
    expect(await count(checks)).toBe(50 * ids.length);
    expect(await count(cycles)).toBe(50);
    const before = await served();
    expect(JSON.stringify(before)).toContain("source_failures");

    const r = await compact(w.t.services, 1);
    // The last day's checks (25 hourly ones, the first exactly a day old) stay per competitor, and globex's
    // older one that found the price rise.
    expect(await count(checks)).toBe(25 * ids.length + 1);
    expect(r.checks_deleted).toBe(25 * ids.length - 1);
    // The cycles started in the last day stay (the newest finished one among them).
    expect(await count(cycles)).toBe(25);
    expect(r.cycles_deleted).toBe(25);
    expect(r.bytes_after).toBeLessThanOrEqual(r.bytes_before);
    // Each competitor's stream is numbered again without gaps, in its order.
    for (const id of ids) {
      const v = await w.t.services.database.client.execute({
        sql: "SELECT stream_version FROM events WHERE stream_type = 'competitor' AND stream_id = ? ORDER BY position",
        args: [String(id)],
      });
      expect(v.rows.map((x) => Number(x.stream_version))).toEqual(v.rows.map((_, i) => i + 1));
    }
    expect(await served()).toEqual(before);

    await rebuildProjections(w.t.services.store);
    expect(await served()).toEqual(before);

    // Compacting again finds nothing more to drop.
    expect((await compact(w.t.services, 1)).checks_deleted).toBe(0);
  });

  test("`rivals compact --vacuum` as a process (its own clock: everything is old) keeps what is served and shrinks the file", async () => {
    const before = await served();
    const out = await runProcess(
      [process.execPath, join(import.meta.dir, "../../src/main.ts"), "compact", "--days", "1", "--vacuum"],
      {
        env: { ...process.env, RIVALS_DB: `file:${join(w.t.dir, "rivals.db")}` },
      },
    );
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout);
    expect(report.checks_deleted).toBeGreaterThan(0);
    expect(report.bytes_after).toBeLessThan(report.bytes_before);
    expect(report.free_bytes_after).toBe(0);
    // Left of each competitor: its newest check, and globex's that found the change.
    expect(await count("SELECT COUNT(*) AS n FROM events WHERE type = 'CompetitorChecked'")).toBe(
      ids.length + 1,
    );
    expect(await served()).toEqual(before);
    await rebuildProjections(w.t.services.store);
    expect(await served()).toEqual(before);

    // The next cycle carries on from the compacted log: the price rise is still the last change.
    w.web.clear("globex.example", "/pricing");
    w.t.clock.advance(3_600_000);
    await runCycle(w.t.services, w.orgId, { trigger: "schedule" });
    const d = (await rest(w.t, key, `/api/v1/competitors/${ids[0]}`)).json.data;
    expect(d.freshness.last_snapshot_at).toBe(w.t.clock.now.toISOString());
  });

  test("the compacted log exports and imports into an empty database; imported again, every line is already there", async () => {
    let text = "";
    await exportNdjson(w.t.services, "acme", (line) => {
      text += line;
    });
    const t2 = await startTestServer();
    try {
      const first = await importNdjson(t2.services.store, text);
      expect(first.errors).toEqual([]);
      expect(first.applied).toBe(first.lines);
      const again = await importNdjson(t2.services.store, text);
      expect(again.errors).toEqual([]);
      expect(again.applied).toBe(0);
      expect(again.unchanged).toBe(first.lines);
    } finally {
      await t2.close();
    }
  });

  test("bad days are refused with a clear message", async () => {
    const out = await runProcess(
      [process.execPath, join(import.meta.dir, "../../src/main.ts"), "compact", "--days", "0"],
      {
        env: { ...process.env, RIVALS_DB: `file:${join(w.t.dir, "rivals.db")}` },
      },
    );
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain("--days must be a whole number of days, 1 or more");
  });
});
