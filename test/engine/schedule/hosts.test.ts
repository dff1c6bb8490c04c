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
import { importNdjson } from "../../../src/domain/imports.ts";
import { createOrg } from "../../../src/domain/orgs.ts";
import { handleStartResearch } from "../../../src/domain/research.ts";
import type { ResearchDossier } from "../../../src/domain/researchTypes.ts";
import type { CycleSummary } from "../../../src/engine/cycle/run.ts";
import { endRun } from "../../../src/engine/research/lease.ts";
import { Scheduler } from "../../../src/engine/schedule/scheduler.ts";
import { openServices, type Services } from "../../../src/services.ts";

setDefaultTimeout(60_000);

const PAGES = ["/", "/pricing"];
const COMPETITORS = 6;
const LANES = 4;
let site: ReturnType<typeof Bun.serve>;
let s: Services;
let dir: string;
const arrivals: { host: string; path: string; at: number }[] = [];
const inFlight = new Map<string, number>();
let mostHostsAtOnce = 0;

async function workspace(slug: string): Promise<number> {
  const org = await createOrg(s.store, { slug, name: slug, plan: "enterprise" });
  const lines = Array.from({ length: COMPETITORS }, (_, i) =>
    JSON.stringify({
      kind: "competitor",
      org: slug,
      key: `c${i}`,
      name: `${slug} company ${i}`,
      website_url: `https://${slug}-${i}.hosts.test`,
      watch: "core",
      tracking: "active",
    }),
  );
  const imported = await importNdjson(s.store, lines.join("\n"));
  expect(imported.errors).toEqual([]);
  const comps = await s.database.client.execute({
    sql: "SELECT id, website_url FROM competitors WHERE org_id = ? ORDER BY id",
    args: [org.id],
  });
  for (const row of comps.rows) {
    const { result } = await s.store.execute(
      (w) =>
        handleStartResearch(
          w,
          { orgId: org.id, actor: "operator" },
          { kind: "one", competitor_id: Number(row.id) },
          "operator",
          false,
        ),
      { actor: "operator" },
    );
    const dossier: ResearchDossier = {
      profile: {},
      urls: {},
      reads: {},
      sources: PAGES.map((p) => ({
        url: new URL(p, String(row.website_url)).href,
        kind: p === "/" ? "home" : "pricing",
      })),
      fetched: PAGES.length,
    };
    await endRun(s, result.runs[0].run_id, { ok: true, dossier }, { actor: "operator" });
  }
  return org.id;
}

beforeAll(async () => {
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
      const path = new URL(req.url).pathname;
      arrivals.push({ host, path, at: performance.now() });
      inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
      mostHostsAtOnce = Math.max(mostHostsAtOnce, inFlight.size);
      try {
        // A site that takes a moment to answer: what overlaps across hosts shows.
        await Bun.sleep(150);
        if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
        return new Response(
          `<!doctype html><html><head><title>${host}</title></head><body><main><h1>${host}</h1><p>Plans from $29 a month.</p></main></body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8", etag: `"${host}${path}"` } },
        );
      } finally {
        const n = (inFlight.get(host) ?? 1) - 1;
        if (n === 0) inFlight.delete(host);
        else inFlight.set(host, n);
      }
    },
  });
  dir = mkdtempSync(join(tmpdir(), "rivals-hosts-"));
  s = await openServices(
    loadConfig({
      RIVALS_DB: `file:${join(dir, "hosts.db")}`,
      RIVALS_ARCHIVE_MONTHS: "0",
      RIVALS_FETCH_DELAY_MS: "1000",
      RIVALS_FETCH_REWRITE: `*=http://127.0.0.1:${site.port}`,
      RIVALS_SCHEDULER_JITTER_MS: "0",
    }),
  );
});
afterAll(() => {
  s.close();
  site.stop(true);
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

  const byHost = Map.groupBy(arrivals, (a) => a.host);
  expect(byHost.size).toBe(orgs.length * COMPETITORS);
  for (const [host, reqs] of byHost) {
    // robots.txt once, then each page once.
    expect({ host, paths: reqs.map((r) => r.path).sort() }).toEqual({
      host,
      paths: ["/robots.txt", ...PAGES].sort(),
    });
    for (let i = 1; i < reqs.length; i++) {
      const gap = reqs[i].at - reqs[i - 1].at;
      expect({ host, gap: gap >= 995 }).toEqual({ host, gap: true });
    }
  }
  // Several hosts in flight at once, never more than the lanes.
  expect(mostHostsAtOnce).toBeGreaterThanOrEqual(3);
  expect(mostHostsAtOnce).toBeLessThanOrEqual(LANES);
});
