// The demo's fictional web, served by the `serve --demo` process itself on a second loopback listener: the
// whole fixture web (embedded by src/demo/sites.ts: the .example company sites, the job boards and the open
// sources' APIs they link), at the version the database's demo_sites row names (1 until `rivals demo advance`
// or the app's button moves it: v1 → v2 planted changes → v3 noise only). `serve --demo` makes this listener
// the demo workspace's whole web (Config.demoSites, engine/fetch workspaceFetcher): research and cycles read
// these hosts like any website (the recorded URLs stay https://<host>/…) and reach no other host.
// Layout (fixtures/web/README.md): host/vN/path overlays; _deleted, _redirects and _headers.json per version.
import { demoSitesRow, queueDemoSitesAdvance, setDemoSitesVersion } from "../db/demo.ts";
import type { RewriteRule } from "../engine/fetch/rewrite.ts";
import type { Services } from "../services.ts";
import { SITE_FILES } from "./sites.ts";

export interface SiteResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** The hosts the demo serves (the company sites, their docs, job boards and GitHub). */
export const DEMO_HOSTS: string[] = [...new Set(Object.keys(SITE_FILES).map((k) => k.split("/")[0]))].sort();

/** The highest version any demo site has. */
export const DEMO_VERSIONS: number = Math.max(
  1,
  ...Object.keys(SITE_FILES).map((k) => Number(/^[^/]+\/v(\d+)\//.exec(k)?.[1] ?? 1)),
);

const TYPES: [RegExp, string][] = [
  [/\.html$/, "text/html; charset=utf-8"],
  [/\.json$/, "application/json; charset=utf-8"],
  [/\.atom$/, "application/atom+xml; charset=utf-8"],
  [/\.txt$/, "text/plain; charset=utf-8"],
];

function typeOf(path: string, body: string): string {
  for (const [re, t] of TYPES) if (re.test(path)) return t;
  const head = body.slice(0, 512);
  if (/<rss[\s>]/.test(head)) return "application/rss+xml; charset=utf-8";
  if (/<feed[\s>]/.test(head)) return "application/atom+xml; charset=utf-8";
  if (/\.xml$/.test(path)) return "application/xml; charset=utf-8";
  if (/^\s*</.test(head)) return "text/html; charset=utf-8";
  return "text/plain; charset=utf-8";
}

const clean = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p) || "/";

function lines(text: string | undefined): string[] {
  return (text ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** One request against the embedded sites at `version` (the same lookup as the test fixture server). */
export function resolveSite(host: string, rawPath: string, version: number): SiteResponse {
  const notFound: SiteResponse = {
    status: 404,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: "<!doctype html><title>Not found</title><h1>404 Not found</h1>",
  };
  const h = host.toLowerCase().replace(/:\d+$/, "");
  if (!DEMO_HOSTS.includes(h)) return notFound;
  let path: string;
  try {
    path = decodeURIComponent(rawPath.split("?")[0] ?? "/");
  } catch {
    return notFound;
  }
  if (path.includes("\0") || path.split("/").includes("..")) return notFound;
  const key = clean(path);
  const versions = Array.from({ length: Math.max(1, Math.min(version, DEMO_VERSIONS)) }, (_, i) => i + 1);
  let redirect: { to: string; status: number } | null = null;
  let deletedAt = 0;
  const extra: Record<string, string> = {};
  for (const v of versions) {
    for (const line of lines(SITE_FILES[`${h}/v${v}/_redirects`])) {
      const [from, to, status] = line.split(/\s+/);
      if (from && clean(from) === key)
        redirect = !to || to === "-" ? null : { to, status: Number(status ?? 301) };
    }
    if (lines(SITE_FILES[`${h}/v${v}/_deleted`]).some((l) => clean(l) === key)) deletedAt = v;
    const hf = SITE_FILES[`${h}/v${v}/_headers.json`];
    if (hf) {
      const conf = JSON.parse(hf) as Record<string, Record<string, string>>;
      Object.assign(extra, conf["*"] ?? {}, conf[key] ?? {});
    }
  }
  if (redirect) {
    const r = redirect as { to: string; status: number };
    return { status: r.status, headers: { location: r.to, ...extra }, body: null };
  }
  const rel = key === "/" ? "" : key.replace(/^\/+/, "");
  const candidates = rel ? [rel, `${rel}.html`, `${rel}/index.html`, `${rel}.json`] : ["index.html"];
  for (const v of [...versions].reverse()) {
    if (v <= deletedAt) break;
    for (const c of candidates) {
      if (c.split("/").pop()?.startsWith("_")) continue;
      const body = SITE_FILES[`${h}/v${v}/${c}`];
      if (body !== undefined) {
        const etag = `"${Bun.hash(body).toString(16)}"`;
        return { status: 200, headers: { "content-type": typeOf(c, body), etag, ...extra }, body };
      }
    }
  }
  return notFound;
}

// ---- the version, in the database ----------------------------------------------------------------------

export async function demoSitesVersion(s: Services): Promise<number> {
  return (await demoSitesRow(s.database))?.version ?? 1;
}

export interface DemoAdvance {
  /** The version before and after (after = before when the sites were already at the last one). */
  from: number;
  version: number;
  last: number;
  what: string;
}

const WHAT: Record<number, string> = {
  1: "v1: the sites as the demo starts",
  2: "v2: material changes planted on every site (prices, plans, a launch on three sources, hiring, funding, acquisition, SOC 2 …)",
  3: "v3: noise only (dates, counters, build hashes, reordered lists, cookie banners …): the next cycle must find nothing",
};

/** Moves the demo sites to their next version (v1 → v2 → v3; at v3 they stay). */
export async function advanceDemoSites(s: Services): Promise<DemoAdvance> {
  const result = await s.store.writeTables(async ({ tx, now }) => {
    const from = (await demoSitesRow(tx))?.version ?? 1;
    const version = Math.min(from + 1, DEMO_VERSIONS);
    // An advance applies any queued one (demoAdvanceQueued): it is what the queued press asked for.
    await setDemoSitesVersion(tx, version, now.toISOString());
    return { from, version };
  });
  return { ...result, last: DEMO_VERSIONS, what: WHAT[result.version] ?? `v${result.version}` };
}

/** Queues one advance, to apply when the demo's start-up work ends (src/demo/engine.ts). */
export async function queueDemoAdvance(s: Services): Promise<void> {
  await s.store.writeTables(({ tx, now }) => queueDemoSitesAdvance(tx, now.toISOString()));
}

/** When an advance was queued and not yet applied. */
export async function demoAdvanceQueued(s: Services): Promise<string | undefined> {
  return (await demoSitesRow(s.database))?.advanceQueuedAt ?? undefined;
}

// ---- the listener ----------------------------------------------------------------------------------------

export interface DemoWeb {
  origin: string;
  /** Every demo host sent to this listener: what Config.demoSites is set to. */
  sites: RewriteRule[];
  stop(): Promise<void>;
}

/** Serves the embedded sites on 127.0.0.1 (a random port) at the version `version()` gives per request. */
export function startDemoWeb(version: () => Promise<number>): DemoWeb {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.method !== "GET" && req.method !== "HEAD")
        return new Response(null, { status: 405, headers: { allow: "GET, HEAD" } });
      const url = new URL(req.url);
      const res = resolveSite(
        req.headers.get("host") ?? url.host,
        url.pathname + url.search,
        await version(),
      );
      if (res.status === 200 && res.headers.etag && req.headers.get("if-none-match") === res.headers.etag)
        return new Response(null, { status: 304, headers: { etag: res.headers.etag } });
      return new Response(req.method === "HEAD" ? null : res.body, {
        status: res.status,
        headers: res.headers,
      });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    sites: DEMO_HOSTS.map((h) => ({ from: `https://${h}`, to: origin })),
    stop: () => server.stop(true),
  };
}
