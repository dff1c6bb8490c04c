// History from the web archive end to end: Globex's fixture site (fixtures/web) and an archive on loopback
// (fixtures/archive) through RIVALS_FETCH_REWRITE. Research, then the captures of its key pages read oldest
// first, one per month within RIVALS_ARCHIVE_MONTHS: signals dated at their capture with the archive's URL as
// evidence, closed when older than the TTL, none from noise-only captures or a failed capture; the price chart's
// points from the archive; a run stopped half-way goes on where it was; `rivals research --history`.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type ArchiveServer, CAPTURES, startArchive } from "../../../fixtures/archive/server.ts";
import { historyIdle, startHistoryLoop } from "../../../src/engine/archive/background.ts";
import { readHistory } from "../../../src/engine/archive/run.ts";
import { startResearch } from "../../../src/engine/research/runner.ts";
import { planPriceHistory, snapshotStoreFor } from "../../../src/engine/snapshots/index.ts";
import { runProcess } from "../../e2e/harness.ts";
import { type CycleWeb, startCycleWeb } from "../../support/engine-cycle-web.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";
import { member, signedIn } from "../../support/oauth-helpers.ts";

setDefaultTimeout(60_000);

let web: CycleWeb;
let archive: ArchiveServer;
let t: TestServer;
let acme: Client;
let orgId: number;
let globex: number;
let env: Record<string, string>;

const call = async (name: string, args: Record<string, unknown> = {}) =>
  body(await acme.callTool({ name, arguments: args }));

interface Row {
  id: number;
  type: string;
  status: string;
  first_seen_at: string;
  closed_at: string | null;
  closed_reason: string | null;
}

async function engineSignals(): Promise<Row[]> {
  const r = await t.services.database.client.execute({
    sql: `SELECT id, type, status, first_seen_at, closed_at, closed_reason FROM engine_signals
          WHERE org_id = ? AND competitor_id = ? ORDER BY first_seen_at, id`,
    args: [orgId, globex],
  });
  return r.rows.map((x) => ({
    id: Number(x.id),
    type: String(x.type),
    status: String(x.status),
    first_seen_at: String(x.first_seen_at),
    closed_at: x.closed_at === null ? null : String(x.closed_at),
    closed_reason: x.closed_reason === null ? null : String(x.closed_reason),
  }));
}

const captureReads = () => archive.requests.filter((r) => r.path.startsWith("/web/")).map((r) => r.path);

beforeAll(async () => {
  web = startCycleWeb();
  archive = startArchive();
  env = {
    RIVALS_FETCH_REWRITE: `${archive.rewrite},${web.rewrite}`,
    RIVALS_FETCH_DELAY_MS: "0",
    RIVALS_ARCHIVE_DELAY_MS: "0",
    RIVALS_ARCHIVE_MONTHS: "24",
    RIVALS_SCHEDULER: "off",
  };
  t = await startTestServer(env);
  orgId = (await t.org("acme")).id;
  acme = await mcpClient(t.base, await t.key("acme"));
  globex = (await call("add_competitor", { website_url: "https://globex.example" })).competitor.id;
  // Research without its background history: the test reads it step by step.
  const { done } = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "one", competitor_id: globex },
    "operator",
    { usesAllowance: false, history: "none" },
  );
  expect((await done)[0].status).toBe("finished");
});
afterAll(async () => {
  await historyIdle(t.services);
  await t.close();
  await web.stop();
  await archive.stop();
});

describe("history from the web archive", () => {
  test("a run stopped after three captures shows its progress and goes on where it was", async () => {
    let reads = 0;
    const stopped = await readHistory(t.services, orgId, globex, {
      stopped: () => captureReads().length >= 3 && ++reads > 0,
    });
    expect(stopped?.status).toBe("stopped");
    // The index was asked as the archive documents it: JSON, status 200 only, collapsed by digest, bounded.
    const index = archive.requests.filter((r) => r.path === "/cdx/search/cdx");
    // One index request per key page: home, pricing, product, integrations, careers.
    expect(index.length).toBe(5);
    for (const q of index.map((r) => r.query))
      expect(q).toMatchObject({
        output: "json",
        filter: "statuscode:200",
        collapse: "digest",
        from: "20241120",
        to: "20261120",
      });
    const mid = (await call("get_competitor", { competitor_id: globex })).competitor.history;
    expect(mid.state).toBe("running");
    expect(mid.captures_listed).toBe(10);
    expect(mid.text).toBe(`reading history: ${mid.captures_read + mid.captures_failed} of 10 captures`);
    expect(mid.captures_read + mid.captures_failed).toBe(3);

    const done = await readHistory(t.services, orgId, globex);
    expect(done).toMatchObject({
      status: "finished",
      pages: 5,
      captures_listed: 10,
      captures_read: 9,
      captures_failed: 1,
      signals_created: 6,
      signals_open: 2,
      signals_closed: 4,
    });
    // Every listed capture was asked for once (one per page and month, oldest first; none older than 24 months).
    const reads2 = captureReads();
    expect(new Set(reads2).size).toBe(reads2.length);
    expect(reads2.length).toBe(10);
    const stamps = reads2.map((p) => p.slice(5, 19));
    expect(stamps).toEqual([...stamps].sort());
    expect(stamps).not.toContain("20231010090000");
    expect(stamps).not.toContain("20250128120000");
  });

  test("signals dated at their capture, with the archive's URL as evidence; older than the TTL recorded closed", async () => {
    const rows = await engineSignals();
    const now = t.clock.now.toISOString();
    expect(rows.map((r) => [r.type, r.first_seen_at, r.status, r.closed_reason])).toEqual([
      ["price_increase", "2025-06-12T07:00:00.000Z", "closed", "expired"],
      ["price_increase", "2026-03-10T09:45:00.000Z", "closed", "expired"],
      ["price_increase", "2026-09-01T10:00:00.000Z", "closed", "superseded"],
      ["price_increase", "2026-10-01T10:00:00.000Z", "closed", "superseded"],
      ["messaging_change", "2026-10-05T08:00:00.000Z", "open", null],
      // The live page's $59, read after the last capture's $79.
      ["price_decrease", now, "open", null],
    ]);
    // Not seen again for 90 days: closed as expired when it would have been; a price changed again supersedes.
    expect(rows[0].closed_at).toBe("2025-09-10T07:00:00.000Z");
    expect(rows[1].closed_at).toBe("2026-06-08T09:45:00.000Z");
    expect(rows[2].closed_at).toBe("2026-10-01T10:00:00.000Z");
    expect(rows[3].closed_at).toBe(now);
    // Nothing from the noise-only captures (Feb 2025, Jul 2026) or the one that failed (Nov 2025).
    const noise = CAPTURES.filter((c) => c.plant === "noise" || c.plant === "fails").map((c) =>
      c.timestamp.slice(0, 6),
    );
    for (const r of rows) expect(noise).not.toContain(r.first_seen_at.slice(0, 7).replace("-", ""));

    // Readable by id, closed ones too, through MCP: evidence points at the capture in the archive.
    const rise = (await call("get_evidence", { signal_id: rows[1].id })) as {
      evidence: Record<string, string>[];
    };
    expect(rise.evidence.length).toBeGreaterThan(0);
    for (const e of rise.evidence) {
      expect(e.source_url).toBe("https://web.archive.org/web/20260310094500/https://globex.example/pricing");
      expect(e.observed_at).toBe("2026-03-10T09:45:00.000Z");
    }
    expect(rise.evidence.map((e) => e.text).join(" ")).toContain("59");
    const headline = (await call("get_evidence", { signal_id: rows[4].id })) as {
      evidence: Record<string, string>[];
    };
    expect(headline.evidence[0].source_url).toBe(
      "https://web.archive.org/web/20261005080000/https://globex.example/",
    );
    // What changed since the archive's last capture has the live page as evidence.
    const live = (await call("get_evidence", { signal_id: rows[5].id })) as {
      evidence: Record<string, string>[];
    };
    expect(live.evidence[0]).toMatchObject({
      source_url: "https://globex.example/pricing",
      observed_at: now,
    });
  });

  test("the price chart has the archive's points, oldest first, ending at the page read live", async () => {
    const series = await planPriceHistory(snapshotStoreFor(t.services), orgId, globex);
    const team = series.find((x) => x.plan === "Team" && x.url === "https://globex.example/pricing");
    expect(team?.points.map((p) => [p.at.slice(0, 10), p.price])).toEqual([
      ["2025-01-15", 39],
      ["2025-06-12", 49],
      ["2026-03-10", 59],
      ["2026-09-01", 69],
      ["2026-10-01", 79],
      [t.clock.now.toISOString().slice(0, 10), 59],
    ]);
  });

  test("the competitor page shows the history's state and its signals, closed ones too", async () => {
    const admin = await signedIn(t, await member(t, "acme", "admin"));
    const html = await (await admin.request(`/app/competitors/${globex}?org=acme`)).text();
    const panel = html.slice(html.indexOf('aria-label="History"'));
    expect(panel).toContain("history read: 9 of 10 captures (1 failed)");
    const rows = await engineSignals();
    for (const r of rows) expect(panel).toContain(`/app/signals/${r.id}"`);
    expect(panel.match(/data-status="closed"/g)?.length).toBe(4);
    // A closed historical signal opens by id.
    const page = await admin.request(`/app/signals/${rows[0].id}?org=acme`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("web.archive.org/web/20250612070000/https://globex.example/pricing");
  });

  test("what_changed reports history's signals by when they were found, once", async () => {
    const rows = await engineSignals();
    const at = t.clock.now.getTime();
    const first = await call("what_changed", { since: new Date(at - 60_000).toISOString(), limit: 50 });
    const ids = (first.signals as { id: number; first_seen_at: string }[]).map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(rows.map((r) => r.id).sort((a, b) => a - b));
    const dated = (first.signals as { id: number; first_seen_at: string }[]).find((x) => x.id === rows[0].id);
    expect(dated?.first_seen_at).toBe("2025-06-12T07:00:00.000Z");
    t.clock.advance(60_000);
    const later = await call("what_changed", { since: new Date(at + 1).toISOString(), limit: 50 });
    expect(later.signals).toEqual([]);
  });

  test("history sends nothing and writes no digest; a second run reads nothing again", async () => {
    const events = await t.services.database.client.execute(
      "SELECT COUNT(*) AS n FROM events WHERE type IN ('DigestRecorded', 'DeliveryQueued', 'BattlecardRecorded')",
    );
    expect(Number(events.rows[0].n)).toBe(0);
    const before = archive.requests.length;
    const again = await readHistory(t.services, orgId, globex);
    expect(again).toMatchObject({ status: "finished", captures_read: 9, signals_created: 6 });
    expect(archive.requests.length).toBe(before);
  });

  test("rivals research --history prints the summary as a real process", async () => {
    const r = await runProcess(
      [
        process.execPath,
        "src/main.ts",
        "research",
        "--org",
        "acme",
        "--competitor",
        String(globex),
        "--history",
      ],
      { env: { ...process.env, ...env, RIVALS_DB: `file:${t.dir}/rivals.db` } },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({
      status: "finished",
      org: "acme",
      competitor_id: globex,
      captures_listed: 10,
      captures_read: 9,
      captures_failed: 1,
      signals_created: 6,
      signals_open: 2,
      signals_closed: 4,
    });
  });

  test("research starts history in the background; a site the archive never saw gives nothing", async () => {
    const tally = (await call("add_competitor", { website_url: "https://tallyhq.example" })).competitor.id;
    const { done } = await startResearch(
      t.services,
      { orgId, actor: "operator" },
      { kind: "one", competitor_id: tally },
      "operator",
      { usesAllowance: false },
    );
    await done;
    await historyIdle(t.services);
    const h = (await call("get_competitor", { competitor_id: tally })).competitor.history;
    expect(h).toMatchObject({ state: "finished", captures_listed: 0, signals_created: 0 });
  });

  // Last: the loop's stop ends history in this Services for good.
  test("serve's loop takes up a run whose instance died (its lease expired) and finishes it", async () => {
    const north = (await call("add_competitor", { website_url: "https://northwind.example" })).competitor.id;
    const { done } = await startResearch(
      t.services,
      { orgId, actor: "operator" },
      { kind: "one", competitor_id: north },
      "operator",
      { usesAllowance: false, history: "queue" },
    );
    await done;
    // Queued by a short-lived process, then held by an instance that died.
    await t.services.database.client.execute({
      sql: "UPDATE archive_runs SET holder = 'gone:1:x', expires_at = ? WHERE org_id = ? AND competitor_id = ?",
      args: [new Date(t.clock.now.getTime() - 1000).toISOString(), orgId, north],
    });
    expect((await call("get_competitor", { competitor_id: north })).competitor.history.state).toBe("running");
    // And a run left for a competitor no longer in the workspace: finished, not retried by every sweep.
    await t.services.database.client.execute({
      sql: `INSERT INTO archive_runs (org_id, competitor_id, state, months, started_at) VALUES (?, 999999, 'running', 24, ?)`,
      args: [orgId, t.clock.now.toISOString()],
    });
    const loop = startHistoryLoop(t.services);
    for (let i = 0; i < 100; i++) {
      const h = (await call("get_competitor", { competitor_id: north })).competitor.history;
      if (h.state === "finished") break;
      await Bun.sleep(50);
    }
    await loop.stop();
    const gone = await t.services.database.client.execute({
      sql: "SELECT state FROM archive_runs WHERE org_id = ? AND competitor_id = 999999",
      args: [orgId],
    });
    expect(String(gone.rows[0].state)).toBe("finished");
    expect((await call("get_competitor", { competitor_id: north })).competitor.history).toMatchObject({
      state: "finished",
      pages: expect.any(Number),
    });
  });
});
