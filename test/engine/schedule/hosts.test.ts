// The scheduler checks many hosts at once and keeps each host's politeness: a local server answers for a dozen
// hosts and records when each request arrived. Two workspaces due in the same minute, one cycle at a time: the
// second starts as soon as the first ends (not at the next minute's check); within a cycle several hosts are in
// flight at once (bounded by the instance's lanes), no host gets two requests within a second, each host's
// robots.txt is read once, and every page is fetched once.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import type { CycleSummary } from "../../../src/engine/cycle/run.ts";
import { Scheduler } from "../../../src/engine/schedule/scheduler.ts";
import { openServices, type Services } from "../../../src/services.ts";
import { type HostSites, hostPage, seedWorkspace, serveHosts } from "../../support/host-sites.ts";

setDefaultTimeout(60_000);

const PAGES = [
  ["/", "home"],
  ["/pricing", "pricing"],
] as const;
const COMPETITORS = 6;
const LANES = 4;
let site: HostSites;
let s: Services;
let dir: string;

const workspace = (slug: string) =>
  seedWorkspace(s, {
    slug,
    websites: Array.from({ length: COMPETITORS }, (_, i) => `https://${slug}-${i}.hosts.test`),
    pages: PAGES,
  });

beforeAll(async () => {
  // A site that takes a moment to answer: what overlaps across hosts shows.
  site = serveHosts({ page: hostPage, delayMs: 150, record: true });
  dir = mkdtempSync(join(tmpdir(), "rivals-hosts-"));
  s = await openServices(
    loadConfig({
      RIVALS_DB: `file:${join(dir, "hosts.db")}`,
      RIVALS_ARCHIVE_MONTHS: "0",
      RIVALS_FETCH_DELAY_MS: "1000",
      RIVALS_FETCH_REWRITE: site.rewrite,
      RIVALS_SCHEDULER_JITTER_MS: "0",
    }),
  );
});
afterAll(() => {
  s.close();
  site.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("many hosts at once, a second between two requests to one host, the next workspace without waiting", async () => {
  const orgs = [await workspace("north"), await workspace("south")];
  const ran: { orgId: number; at: number; summary: CycleSummary | Error }[] = [];
  let bothDone!: () => void;
  const done = new Promise<void>((resolve) => {
    bothDone = resolve;
  });
  const started = performance.now();
  // One cycle at a time, and a minute's check far away: only a cycle's end can start the second workspace.
  const scheduler = new Scheduler(s, {
    concurrency: 1,
    lanes: LANES,
    jitterMs: 0,
    pattern: "0 0 1 1 *",
    helpMs: 0,
    onCycle: (orgId, _slot, summary) => {
      ran.push({ orgId, at: performance.now(), summary });
      if (ran.length === orgs.length) bothDone();
    },
  });
  scheduler.start();
  await done;
  await scheduler.stop();

  expect(ran.map((r) => r.orgId).sort()).toEqual([...orgs].sort());
  for (const r of ran) {
    if (r.summary instanceof Error) throw r.summary;
    expect(r.summary.competitors_checked).toBe(COMPETITORS);
    expect(r.summary.pages_checked).toBe(COMPETITORS * PAGES.length);
    expect(r.summary.pages_failed).toBe(0);
  }
  // Both cycles within seconds of each other's end, not a minute apart.
  expect(ran[1].at - started).toBeLessThan(30_000);

  const byHost = Map.groupBy(site.arrivals, (a) => a.host);
  expect(byHost.size).toBe(orgs.length * COMPETITORS);
  for (const [host, reqs] of byHost) {
    // robots.txt once, then each page once.
    expect({ host, paths: reqs.map((r) => r.path).sort() }).toEqual({
      host,
      paths: ["/robots.txt", ...PAGES.map(([p]) => p)].sort(),
    });
    for (let i = 1; i < reqs.length; i++) {
      const gap = reqs[i].at - reqs[i - 1].at;
      expect({ host, gap: gap >= 995 }).toEqual({ host, gap: true });
    }
  }
  // Several hosts in flight at once, never more than the lanes.
  expect(site.mostHostsAtOnce()).toBeGreaterThanOrEqual(3);
  expect(site.mostHostsAtOnce()).toBeLessThanOrEqual(LANES);
});
