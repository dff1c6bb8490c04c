// Sources on a host many competitors share are checked in rotation: each at its turn, every so many hours set by
// how many sources share the host and its hourly share (RIVALS_SHARED_HOST_HOURLY), a competitor's own site every
// cycle; and a competitor waiting on a shared host does not hold its lane.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import { Lanes } from "../../../src/engine/cycle/lanes.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import {
  dueInCycle,
  MAX_ROTATION_HOURS,
  mainHost,
  rotationHours,
  sourceHost,
} from "../../../src/engine/schedule/rotation.ts";
import { openServices, type Services } from "../../../src/services.ts";
import { type HostSites, hostPage, seedWorkspace, serveHosts } from "../../support/host-sites.ts";

setDefaultTimeout(60_000);

const HOUR = 3_600_000;
const SHARED = "shared.rotation.test";

test("the hours between two checks follow the sources on a host and its hourly share", () => {
  expect(rotationHours(0, 1440)).toBe(1);
  expect(rotationHours(200, 1440)).toBe(1);
  expect(rotationHours(1440, 1440)).toBe(1);
  expect(rotationHours(1441, 1440)).toBe(2);
  expect(rotationHours(10_000, 1440)).toBe(7);
  expect(rotationHours(1_000_000, 1440)).toBe(MAX_ROTATION_HOURS);
});

test("each rotated source is checked once every so many hours, an even share of them each hour", () => {
  const every = 5;
  const keys = Array.from({ length: 1000 }, (_, i) => `${i} https://boards-api.example/v1/boards/c${i}/jobs`);
  const last = new Map<string, number>(keys.map((k) => [k, 0]));
  const checks = new Map<string, number[]>();
  const start = Date.parse("2026-12-01T00:00:00Z");
  for (let h = 1; h <= 4 * every; h++) {
    const at = start + h * HOUR;
    let n = 0;
    for (const k of keys) {
      if (!dueInCycle(k, every, at, new Date(last.get(k)! || start).toISOString())) continue;
      n++;
      last.set(k, at);
      checks.set(k, [...(checks.get(k) ?? []), h]);
    }
    // About a fifth each hour.
    expect(n).toBeGreaterThan(1000 / every - 60);
    expect(n).toBeLessThan(1000 / every + 60);
  }
  for (const k of keys) {
    const hours = checks.get(k)!;
    expect(hours.length).toBe(4);
    for (let i = 1; i < hours.length; i++) expect(hours[i]! - hours[i - 1]!).toBe(every);
  }
});

test("a source never checked, or one that missed its turn, is due; every source is due without rotation", () => {
  const at = Date.parse("2026-12-01T10:00:00Z");
  const key = "7 https://api.example/x";
  expect(dueInCycle(key, 6, at, undefined)).toBe(true);
  expect(dueInCycle(key, 1, at, new Date(at - 60_000).toISOString())).toBe(true);
  // Not its turn in the six hours after a check, then due once six hours have passed whatever the turn.
  const notTurn = [0, 1, 2, 3, 4, 5]
    .map((h) => at + h * HOUR)
    .filter((t) => !dueInCycle(key, 6, t, new Date(t - HOUR).toISOString()));
  expect(notTurn.length).toBe(5);
  for (const t of notTurn) expect(dueInCycle(key, 6, t, new Date(t - 6 * HOUR).toISOString())).toBe(true);
});

test("a competitor's own host is the one most of its sources are on", () => {
  expect(
    mainHost(["https://a.example/", "https://a.example/pricing", "https://boards-api.greenhouse.io/v1/x"]),
  ).toBe("a.example");
  expect(mainHost(["https://A.example/", "https://api.github.com/repos/a/b/releases"])).toBe("a.example");
  expect(sourceHost("http://127.0.0.1:8080/x?y=1")).toBe("127.0.0.1:8080");
  expect(sourceHost("https://Example.COM")).toBe("example.com");
});

let site: HostSites;
let s: Services;
let dir: string;
let now = new Date("2026-12-01T00:00:00Z");
let release: (() => void) | undefined;
let held: Promise<void> | undefined;

beforeAll(async () => {
  site = serveHosts({
    record: true,
    page: async (host, path) => {
      if (host === SHARED && held) await held;
      // One competitor's page on the shared host fails every time.
      if (host === SHARED && path.startsWith("/own0.")) return new Response("down", { status: 503 });
      return hostPage(host, path);
    },
  });
  dir = mkdtempSync(join(tmpdir(), "rivals-rotation-"));
  s = await openServices(
    loadConfig({
      RIVALS_DB: `file:${join(dir, "rotation.db")}`,
      RIVALS_ARCHIVE_MONTHS: "0",
      RIVALS_FETCH_DELAY_MS: "0",
      RIVALS_FETCH_REWRITE: site.rewrite,
      RIVALS_SCHEDULER: "off",
      // Six competitors' sources on the shared host, two checks an hour: each is checked every three hours.
      RIVALS_SHARED_HOST_HOURLY: "2",
    }),
    () => now,
  );
});
afterAll(() => {
  release?.();
  s.close();
  site.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a shared host's sources are checked in turn, a competitor's own site every cycle", async () => {
  const orgId = await seedWorkspace(s, {
    slug: "rota",
    websites: Array.from({ length: 6 }, (_, i) => `https://own${i}.rotation.test`),
    pages: [
      ["/", "home"],
      ["/pricing", "pricing"],
    ],
    // Each competitor also reads a page on the host they all share.
    elsewhere: (website) => [[`https://${SHARED}/${new URL(website).hostname}/news`, "news"]],
  });

  const sharedAsked = () =>
    site.arrivals.filter((a) => a.host === SHARED && a.path !== "/robots.txt").map((a) => a.path);
  // The first cycle takes every source's first snapshot.
  const first = await runCycle(s, orgId, { trigger: "operator" });
  expect(first.pages_checked).toBe(18);
  expect(first.pages_due_later).toBe(0);
  expect(sharedAsked().length).toBe(6);

  // Then three hourly cycles: each shared source once among them, the own pages every time.
  const counted = new Map<string, number>();
  for (let h = 1; h <= 3; h++) {
    now = new Date(now.getTime() + HOUR);
    site.arrivals.length = 0;
    const sum = await runCycle(s, orgId, { trigger: "operator" });
    const shared = sharedAsked();
    for (const p of shared) counted.set(p, (counted.get(p) ?? 0) + 1);
    expect(site.arrivals.filter((a) => a.host !== SHARED && a.path !== "/robots.txt").length).toBe(12);
    expect(sum.pages_checked).toBe(12 + shared.length);
    expect(sum.pages_due_later).toBe(6 - shared.length);
    expect(sum.competitors_checked).toBe(6);
    // Its failing source stays listed as failing in the cycles it waits for its turn.
    const row = await s.database.client.execute({
      sql: "SELECT state FROM competitors WHERE org_id = ? AND website_url LIKE ?",
      args: [orgId, "https://own0.rotation.test%"],
    });
    const failing = (
      JSON.parse(String(row.rows[0]?.state)) as { freshness?: { source_failures?: { url: string }[] } }
    ).freshness?.source_failures;
    expect(failing?.map((f) => f.url)).toEqual([`https://${SHARED}/own0.rotation.test/news`]);
  }
  expect(counted.size).toBe(6);
  for (const n of counted.values()) expect(n).toBe(1);
  // The store's host column (what the demand is counted by) is the host the cycle reads.
  const rows = await s.database.client.execute({
    sql: "SELECT url, host FROM snapshot_sources WHERE org_id = ?",
    args: [orgId],
  });
  expect(rows.rows.length).toBe(18);
  for (const r of rows.rows) expect(String(r.host)).toBe(sourceHost(String(r.url)));
});

test("a competitor waiting on a shared host frees its lane for the next one's own site", async () => {
  const orgId = await seedWorkspace(s, {
    slug: "lanes",
    websites: ["https://first.lanes.test", "https://second.lanes.test"],
    pages: [["/", "home"]],
    elsewhere: (website) => [[`https://${SHARED}/${new URL(website).hostname}`, "news"]],
  });
  site.arrivals.length = 0;
  held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The shared host answers only once the second competitor's own site was asked (or after 10 s, too late).
  const watch = setInterval(() => {
    if (site.arrivals.some((a) => a.host === "second.lanes.test")) release?.();
  }, 5);
  const fallback = setTimeout(() => release?.(), 10_000);
  const t0 = performance.now();
  const sum = await runCycle(s, orgId, { trigger: "operator", lanes: new Lanes(1), concurrency: 1 });
  clearInterval(watch);
  clearTimeout(fallback);
  held = undefined;
  expect(performance.now() - t0).toBeLessThan(8_000);
  expect(sum.pages_checked).toBe(4);
  expect(sum.pages_baseline).toBe(4);
  const order = site.arrivals.map((a) => a.host);
  expect(order.indexOf("second.lanes.test")).toBeGreaterThan(-1);
});
