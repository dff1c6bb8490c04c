// Monitoring cycles end to end on the fixture web (fixtures/web through RIVALS_FETCH_REWRITE, behind the
// override layer of engine-cycle-web.ts): research, a first cycle (baselines, no signals), a planted price rise
// (one signal with evidence), an unchanged cycle (no snapshot bytes, one event per competitor), source
// failures (retried, shown in get_competitor, a page removed only after three 404 cycles in a row), monitored
// pages added and removed, and `rivals cycle` as a real process.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rebuildProjections } from "../../../projections/rebuild.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { cycleStatus } from "../../../src/engine/cycle/status.ts";
import { startResearch } from "../../../src/engine/research/runner.ts";
import { snapshotStoreFor } from "../../../src/engine/snapshots/index.ts";
import { runProcess } from "../../e2e/harness.ts";
import { type CycleWeb, startCycleWeb } from "../../support/engine-cycle-web.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { dumpReadTables, rest } from "../../support/mcp-write-helpers.ts";
import { member, signedIn } from "../../support/oauth-helpers.ts";

setDefaultTimeout(60_000);

let web: CycleWeb;
let t: TestServer;
let key: string;
let acme: Client;
let orgId: number;
const ids: Record<string, number> = {};

const call = async (name: string, args: Record<string, unknown> = {}) =>
  body(await acme.callTool({ name, arguments: args }));

async function blobBytes(): Promise<{ blobs: number; bytes: number; versions: number }> {
  const r = await t.services.database.client.execute(
    "SELECT (SELECT COUNT(*) FROM snapshot_blobs) AS blobs, (SELECT COALESCE(SUM(LENGTH(data)), 0) FROM snapshot_blobs) AS bytes, (SELECT COUNT(*) FROM snapshot_versions) AS versions",
  );
  return {
    blobs: Number(r.rows[0].blobs),
    bytes: Number(r.rows[0].bytes),
    versions: Number(r.rows[0].versions),
  };
}

async function eventsSince(pos: number): Promise<{ type: string; stream_type: string }[]> {
  const r = await t.services.database.client.execute({
    sql: "SELECT type, stream_type FROM events WHERE position > ? ORDER BY position",
    args: [pos],
  });
  return r.rows.map((x) => ({ type: String(x.type), stream_type: String(x.stream_type) }));
}
async function finishedCycles(): Promise<number> {
  const r = await t.services.database.client.execute({
    sql: "SELECT COUNT(*) AS n FROM cycles WHERE org_id = ? AND finished_at IS NOT NULL",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}
async function lastPosition(): Promise<number> {
  const r = await t.services.database.client.execute("SELECT COALESCE(MAX(position), 0) AS p FROM events");
  return Number(r.rows[0].p);
}

beforeAll(async () => {
  web = startCycleWeb();
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  orgId = (await t.org("acme")).id;
  key = await t.key("acme");
  acme = await mcpClient(t.base, key);
  for (const site of ["https://globex.example", "https://tallyhq.example", "https://northwind.example"])
    ids[new URL(site).hostname.split(".")[0]] = (
      await call("add_competitor", { website_url: site })
    ).competitor.id;
  // Research two of them (as the operator: no allowance); northwind stays unresearched.
  for (const c of [ids.globex, ids.tallyhq]) {
    const { done } = await startResearch(
      t.services,
      { orgId, actor: "operator" },
      { kind: "one", competitor_id: c },
      "operator",
      { usesAllowance: false },
    );
    const [report] = await done;
    expect(report.status).toBe("finished");
  }
});
afterAll(async () => {
  await t.close();
  await web.stop();
});

describe("cycles", () => {
  test("first cycle: research's snapshots are the baselines (conditional requests, nothing new); an unresearched competitor is skipped and said so", async () => {
    const before = await lastPosition();
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.competitors_checked).toBe(2);
    expect(s.competitors_skipped).toEqual([
      expect.objectContaining({
        competitor_id: ids.northwind,
        reason: expect.stringContaining("no research"),
      }),
    ]);
    expect(s.pages_checked).toBeGreaterThan(8);
    // Research stored what it read with its validators: the first cycle asks conditionally.
    expect(s.pages_baseline).toBe(0);
    expect(s.pages_not_modified).toBeGreaterThan(8);
    expect(s.signals_created).toBe(0);
    expect(s.pages_changed).toBe(0);
    for (const k of [
      "battlecards_written",
      "digests_written",
      "deliveries",
      "signals_updated",
      "signals_closed",
    ])
      expect(s[k]).toBe(0);
    const evs = await eventsSince(before);
    expect(evs.map((e) => e.type)).toEqual(["CompetitorChecked", "CompetitorChecked"]);
    const d = (await rest(t, key, `/api/v1/competitors/${ids.globex}`)).json.data;
    expect(d.freshness.last_snapshot_at).toBe(t.clock.now.toISOString());
    expect(d.freshness.sources.checked).toBeGreaterThan(8);
  });

  test("an unchanged cycle adds no snapshot bytes and one event per competitor (the cycle's record is outside the log)", async () => {
    t.clock.advance(3_600_000);
    const store = await blobBytes();
    const before = await lastPosition();
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.pages_changed).toBe(0);
    expect(s.signals_created).toBe(0);
    expect(s.pages_not_modified).toBeGreaterThan(0);
    expect(await blobBytes()).toEqual(store);
    const evs = await eventsSince(before);
    expect(evs.map((e) => e.type)).toEqual(["CompetitorChecked", "CompetitorChecked"]);
    const d = (await rest(t, key, `/api/v1/competitors/${ids.globex}`)).json.data;
    expect(d.freshness.last_snapshot_at).toBe(t.clock.now.toISOString());
  });

  test("a planted price rise gives one pricing signal with evidence from the page", async () => {
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", {
      transform: (b) =>
        b
          .replace('<span class="amount">$59</span>', '<span class="amount">$69</span>')
          .replace("Team is $59", "Team is $69")
          .replace('"price": "59.00"', '"price": "69.00"'),
    });
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.pages_changed).toBe(1);
    expect(s.signals_created).toBe(1);
    const list = (await rest(t, key, `/api/v1/signals?competitor_id=${ids.globex}`)).json.data;
    expect(list).toHaveLength(1);
    const sig = list[0];
    expect(sig.category).toBe("pricing");
    expect(sig.type).toBe("price_increase");
    expect(sig.title).toContain("$69");
    expect(sig.evidence[0].source_url).toBe("https://globex.example/pricing");
    expect(sig.evidence[0].text).toContain("69");
    // Seen again next cycle: no new signal, nothing stored.
    t.clock.advance(3_600_000);
    const again = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(again.signals_created).toBe(0);
    expect(again.pages_changed).toBe(0);
  });
});

describe("source failures", () => {
  test("a 503 is retried next cycle, shown in get_competitor, and gives no signal", async () => {
    t.clock.advance(3_600_000);
    web.set("globex.example", "/careers", { status: 503 });
    const s = await runCycle(t.services, orgId, { trigger: "operator", competitorId: ids.globex });
    expect(s.pages_failed).toBe(1);
    expect(s.signals_created).toBe(0);
    expect(s.failures.filter((f) => f.url === "https://globex.example/careers")).toEqual([
      {
        competitor_id: ids.globex,
        url: "https://globex.example/careers",
        error: "http_error 503",
        failures: 1,
      },
    ]);
    const c = (await call("get_competitor", { competitor_id: ids.globex })).competitor;
    expect(c.freshness.sources.failed).toBe(1);
    expect(c.freshness.source_failures).toContainEqual({
      url: "https://globex.example/careers",
      kind: "careers",
      error: "http_error 503",
      failures: 1,
      since: t.clock.now.toISOString(),
    });
    // The competitor page says so too.
    const admin = await signedIn(t, await member(t, "acme", "admin"));
    const html = await (await admin.request(`/app/competitors/${ids.globex}?org=acme`)).text();
    const panel = html.slice(html.indexOf('aria-label="Monitoring"'));
    expect(panel).toContain("https://globex.example/careers");
    expect(panel).toContain("answered HTTP 503");
    expect(panel).toContain("1 failed check");
    web.clear("globex.example", "/careers");
    t.clock.advance(3_600_000);
    const ok = await runCycle(t.services, orgId, { trigger: "operator", competitorId: ids.globex });
    expect(ok.pages_failed).toBe(0);
    expect(ok.signals_created).toBe(0);
    expect(ok.pages_changed).toBe(0);
    const c2 = (await call("get_competitor", { competitor_id: ids.globex })).competitor;
    expect(c2.freshness.source_failures).toBeUndefined();
    expect(c2.freshness.sources.failed).toBe(0);
  });

  test("a page that answers 404 is reported removed only on the third cycle in a row, once", async () => {
    const removed = async () =>
      (await rest(t, key, `/api/v1/signals?competitor_id=${ids.globex}`)).json.data.filter(
        (x: { type: string }) => x.type === "page_removed",
      );
    web.set("globex.example", "/customers", { status: 404 });
    for (const n of [1, 2, 3, 4]) {
      t.clock.advance(3_600_000);
      const s = await runCycle(t.services, orgId, { trigger: "operator", competitorId: ids.globex });
      expect(s.failures.filter((f) => f.url.includes("/customers"))).toEqual([
        {
          competitor_id: ids.globex,
          url: "https://globex.example/customers",
          error: "http_error 404",
          failures: n,
        },
      ]);
      expect(s.signals_created).toBe(n === 3 ? 1 : 0);
      expect(await removed()).toHaveLength(n >= 3 ? 1 : 0);
    }
    const [sig] = await removed();
    expect(sig.evidence[0].source_url).toBe("https://globex.example/customers");
    expect(sig.title).toContain("/customers");
    // The page is back: the removal is undone.
    web.clear("globex.example", "/customers");
    t.clock.advance(3_600_000);
    const back = await runCycle(t.services, orgId, { trigger: "operator", competitorId: ids.globex });
    expect(back.failures.filter((f) => f.url.includes("/customers"))).toEqual([]);
    expect(back.signals_closed).toBeGreaterThanOrEqual(1);
    const again = (await rest(t, key, `/api/v1/signals/${sig.id}`)).json.data;
    expect(again.status).not.toBe("open");
  });
});

describe("monitored pages", () => {
  test("a page added with add_monitored_page is checked; once removed it is no longer fetched", async () => {
    const added = await call("add_monitored_page", {
      competitor_id: ids.globex,
      url: "https://globex.example/demo",
    });
    expect(added.error).toBeUndefined();
    const hits = () => web.requests.filter((r) => r.host === "globex.example" && r.path === "/demo").length;
    const h0 = hits();
    t.clock.advance(3_600_000);
    const s = await runCycle(t.services, orgId, { trigger: "operator", competitorId: ids.globex });
    expect(hits()).toBe(h0 + 1);
    expect(s.pages_baseline).toBe(1);
    const sources = await snapshotStoreFor(t.services).sources(orgId, ids.globex);
    expect(sources.map((x) => x.url)).toContain("https://globex.example/demo");
    await call("remove_monitored_page", { competitor_id: ids.globex, url: "https://globex.example/demo" });
    t.clock.advance(3_600_000);
    const after = await runCycle(t.services, orgId, { trigger: "operator", competitorId: ids.globex });
    expect(hits()).toBe(h0 + 1);
    expect(after.pages_checked).toBe(s.pages_checked - 1);
  });
});

describe("rivals cycle", () => {
  test("runs one cycle as a real process and prints its JSON summary", async () => {
    const before = await finishedCycles();
    const env = {
      ...process.env,
      RIVALS_DB: `file:${t.dir}/rivals.db`,
      RIVALS_FETCH_REWRITE: web.rewrite,
      RIVALS_FETCH_DELAY_MS: "0",
    };
    const r = await runProcess(
      [process.execPath, "src/main.ts", "cycle", "--org", "acme", "--competitor", String(ids.tallyhq)],
      { env },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const j = JSON.parse(lines[0]);
    for (const k of [
      "pages_checked",
      "pages_changed",
      "signals_created",
      "signals_updated",
      "signals_closed",
      "battlecards_written",
      "digests_written",
      "deliveries",
    ])
      expect(typeof j[k]).toBe("number");
    expect(j.org).toBe("acme");
    expect(j.competitors_checked).toBe(1);
    expect(j.trigger).toBe("operator");
    expect(await finishedCycles()).toBe(before + 1);
    const bad = await runProcess(
      [process.execPath, "src/main.ts", "cycle", "--org", "acme", "--competitor", "999999"],
      {
        env,
      },
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("999999");
  });
});

describe("a cycle whose process dies", () => {
  test("shows as running while its heartbeat lasts, then is closed as abandoned and the next cycle runs", async () => {
    const open = async () =>
      (
        await t.services.database.client.execute({
          sql: "SELECT id, started_at, expires_at, holder FROM cycles WHERE org_id = ? AND finished_at IS NULL AND abandoned_at IS NULL",
          args: [orgId],
        })
      ).rows[0];
    // A real `rivals cycle` process, killed while a page hangs: nothing of it says it finished.
    web.set("globex.example", "/pricing", { hang: true });
    const p = Bun.spawn(
      [process.execPath, "src/main.ts", "cycle", "--org", "acme", "--competitor", String(ids.globex)],
      {
        env: {
          ...process.env,
          RIVALS_DB: `file:${t.dir}/rivals.db`,
          RIVALS_FETCH_REWRITE: web.rewrite,
          RIVALS_FETCH_DELAY_MS: "0",
        },
        stdout: "ignore",
        stderr: "ignore",
      },
    );
    const deadline = Date.now() + 20_000;
    let row = await open();
    while (!row) {
      if (Date.now() > deadline) throw new Error("the cycle process wrote no cycle record");
      await Bun.sleep(25);
      row = await open();
    }
    p.kill(9);
    await p.exited;
    web.clear("globex.example", "/pricing");
    expect(String(row.holder)).toMatch(/:\d+:/);
    // The killed process ran on the real clock: at its time the cycle still looks alive (its heartbeat lasts) …
    t.clock.now = new Date(Date.parse(String(row.started_at)) + 1_000);
    expect((await cycleStatus(t.services, orgId)).running_since).toBe(String(row.started_at));
    // … once the heartbeat has expired it is no longer shown as running,
    t.clock.now = new Date(Date.parse(String(row.expires_at)) + 1_000);
    const status = await cycleStatus(t.services, orgId);
    expect(status.running_since).toBeUndefined();
    // and the next cycle closes it as abandoned and runs.
    const s = await runCycle(t.services, orgId, { trigger: "operator", competitorId: ids.globex });
    expect(s.competitors_checked).toBe(1);
    const rows = await t.services.database.client.execute({
      sql: "SELECT id, finished_at, abandoned_at FROM cycles WHERE id IN (?, ?) ORDER BY id",
      args: [Number(row.id), s.cycle_id],
    });
    expect(rows.rows.map((r) => [Number(r.id), r.finished_at, r.abandoned_at])).toEqual([
      [Number(row.id), null, t.clock.now.toISOString()],
      [s.cycle_id, s.finished_at, null],
    ]);
    expect((await cycleStatus(t.services, orgId)).last_cycle?.id).toBe(s.cycle_id);
  });
});

test("the read tables the cycles projected are a function of the log (projections rebuild gives the same)", async () => {
  const live = await dumpReadTables(t);
  expect((live.competitors as unknown[]).length).toBeGreaterThan(2);
  const records = async () =>
    (await t.services.database.client.execute("SELECT * FROM cycles ORDER BY id")).rows;
  const before = await records();
  expect(before.length).toBeGreaterThan(5);
  await rebuildProjections(t.services.store);
  expect(await dumpReadTables(t)).toEqual(live);
  // The cycles' own records are not in the log: a rebuild keeps them as they were.
  expect(await records()).toEqual(before);
});
