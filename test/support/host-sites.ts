// Many competitors' sites on one local server, for the scheduler's tests and the scale benches: it answers for
// any host (the fetcher's rewrite sends every host here, the Host header says which), serves robots.txt, records
// when each request arrived and how many hosts were in flight at once, and can hold its answers until released
// (an instance killed mid-cycle). Workspaces of such competitors are seeded as research would leave them: each
// competitor imported, its research recorded with the given pages as its sources.
import { runCommand } from "../../events/command.ts";
import { setMonitoringCadence } from "../../src/domain/cadence.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { createOrg } from "../../src/domain/orgs.ts";
import { handleStartResearch } from "../../src/domain/research.ts";
import type { ResearchDossier } from "../../src/domain/researchTypes.ts";
import { endRun } from "../../src/engine/research/lease.ts";
import type { Services } from "../../src/services.ts";

export interface Arrival {
  host: string;
  path: string;
  at: number;
}

export interface HostSites {
  port: number;
  /** What RIVALS_FETCH_REWRITE takes to send every host here. */
  rewrite: string;
  /** Every request but robots.txt's, in order of arrival (when `record` is on). */
  arrivals: Arrival[];
  /** The most hosts with a request in flight at once. */
  mostHostsAtOnce(): number;
  /** Holds every answer (robots.txt's too) until `release()`. */
  hold(): void;
  release(): void;
  stop(): void;
}

export interface HostSitesOptions {
  /** A page's answer. */
  page(host: string, path: string, req: Request): Response | Promise<Response>;
  /** Wait before answering (a site that takes a moment: what overlaps across hosts shows). */
  delayMs?: number;
  /** Record arrivals (robots.txt's too, with its path). Off for the benches' thousands of requests. */
  record?: boolean;
}

export function serveHosts(opts: HostSitesOptions): HostSites {
  const arrivals: Arrival[] = [];
  const inFlight = new Map<string, number>();
  let most = 0;
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
      const path = new URL(req.url).pathname;
      if (opts.record) arrivals.push({ host, path, at: performance.now() });
      inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
      most = Math.max(most, inFlight.size);
      try {
        if (gate) await gate;
        if (opts.delayMs) await Bun.sleep(opts.delayMs);
        if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
        return await opts.page(host, path, req);
      } finally {
        const n = (inFlight.get(host) ?? 1) - 1;
        if (n === 0) inFlight.delete(host);
        else inFlight.set(host, n);
      }
    },
  });
  return {
    port: server.port as number,
    rewrite: `*=http://127.0.0.1:${server.port}`,
    arrivals,
    mostHostsAtOnce: () => most,
    hold() {
      gate ??= new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    release() {
      open?.();
      gate = undefined;
      open = undefined;
    },
    stop: () => server.stop(true),
  };
}

/** A small page naming its host, with an ETag: the same answer every time. */
export function hostPage(host: string, path: string): Response {
  return new Response(
    `<!doctype html><html><head><title>${host}</title></head><body><main><h1>${host}</h1><p>Plans from $29 a month.</p></main></body></html>`,
    { headers: { "content-type": "text/html; charset=utf-8", etag: `"${host}${path}"` } },
  );
}

export interface SeedOptions {
  slug: string;
  plan?: string;
  /** Each competitor's site (one competitor per site). */
  websites: string[];
  /** The pages research found on each site, as (path, kind). */
  pages: readonly (readonly [string, string])[];
  cadence?: "hourly" | "daily";
  /** Sources of a competitor elsewhere than its site (a page on a host they share), as (URL, kind). */
  elsewhere?: (website: string) => readonly (readonly [string, string])[];
}

/** A workspace whose competitors are imported (no plan's core slots counted), each one's research recorded
 * with the pages as its sources. Returns the workspace's id. */
export async function seedWorkspace(s: Services, o: SeedOptions): Promise<number> {
  const org = await createOrg(s.store, { slug: o.slug, name: o.slug, plan: o.plan ?? "enterprise" });
  if (o.cadence)
    await runCommand(
      s.store,
      setMonitoringCadence,
      { cadence: o.cadence },
      { caller: { orgId: org.id, actor: "test" } },
    );
  const lines = o.websites.map((url, i) =>
    JSON.stringify({
      kind: "competitor",
      org: o.slug,
      key: `c${i}`,
      name: `${o.slug} company ${i}`,
      website_url: url,
      watch: "core",
      tracking: "active",
    }),
  );
  const imported = await importNdjson(s.store, lines.join("\n"));
  if (imported.errors.length) throw new Error(JSON.stringify(imported.errors.slice(0, 3)));
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
      sources: [
        ...o.pages.map(([p, kind]) => ({ url: new URL(p, String(row.website_url)).href, kind })),
        ...(o.elsewhere?.(String(row.website_url)) ?? []).map(([url, kind]) => ({ url, kind })),
      ],
      fetched: o.pages.length,
    };
    await endRun(s, result.runs[0].run_id, { ok: true, dossier }, { actor: "operator" });
  }
  return org.id;
}
