// What a visitor's browser shows of a fetched page: the served HTML when it is a page, the browser's render
// when it is an application shell (render/shell.ts) or marked to be rendered — and, without a browser
// (RIVALS_BROWSER unset), a failed read that says so. A shell is never read as the page itself: its emptiness
// is not the competitor's doing, and must never become "plans removed".
import type { Config } from "../../config.ts";
import { sharedByInstances } from "../../db/client.ts";
import { planOfOrg } from "../../db/queries/orgs.ts";
import { sweepDailyRenders, takeDailyRender } from "../../db/rateSlices.ts";
import { dailyCapReached, planOf } from "../../domain/plans.ts";
import { utcDay } from "../../domain/workspace.ts";
import type { Services } from "../../services.ts";
import { createFetcher, fetcherOptions, workspaceFetcher } from "../fetch/index.ts";
import { type PageRenderer, Renderer } from "./browser.ts";
import { isAppShell } from "./shell.ts";

export { type PageRenderer, Renderer } from "./browser.ts";
export { isAppShell, shellVerdict } from "./shell.ts";

/** The failed-read code of a page that only a browser can read, when none is configured or it failed. */
export const NEEDS_BROWSER = "needs_browser";
/** The failed-read code of a page not rendered because the workspace rendered its plan's pages of the day. */
export const RENDER_LIMIT = "render_limit";

export type VisibleHtml =
  | { ok: true; html: string; rendered: boolean }
  | { ok: false; error: string; message: string };

/** The page as a visitor sees it. `force`: render even when the served HTML is not a shell. */
export async function visibleHtml(
  renderer: PageRenderer | undefined,
  page: { finalUrl: string; text: string; contentType: string },
  force = false,
): Promise<VisibleHtml> {
  if (!force && !isAppShell(page.text)) return { ok: true, html: page.text, rendered: false };
  if (!renderer)
    return {
      ok: false,
      error: NEEDS_BROWSER,
      message: `${page.finalUrl} is built by scripts in the browser; set RIVALS_BROWSER to read it`,
    };
  const r = await renderer.render({ url: page.finalUrl, text: page.text, contentType: page.contentType });
  if (!r.ok)
    return {
      ok: false,
      error: r.error === "limit" ? RENDER_LIMIT : NEEDS_BROWSER,
      message: `${page.finalUrl}: ${r.message}`,
    };
  return { ok: true, html: r.html, rendered: true };
}

const shared = new WeakMap<Config, Renderer>();
let exitHook = false;
const live = new Set<Renderer>();

/** Least pause between two of the browser's requests to one host: a page loads its parts quickly, but a page
 * cannot make the renderer flood a host (a render is bounded in requests too, in all and per host). */
export const RENDER_HOST_DELAY_MS = 50;

/** The process-wide renderer of a configuration, or undefined without RIVALS_BROWSER. Its requests go
 * through the tenant's fetcher rules (guard, robots.txt, rewrite), paced per host by RENDER_HOST_DELAY_MS
 * (or the site's Crawl-delay) rather than the fetcher's own delay. */
export function rendererFor(config: Config): Renderer | undefined {
  if (!config.browser) return undefined;
  let r = shared.get(config);
  if (!r) {
    r = new Renderer({
      browser: config.browser,
      fetcher: createFetcher({ ...fetcherOptions(config, "tenant"), delayMs: RENDER_HOST_DELAY_MS }),
      timeoutMs: Math.max(config.fetchTimeoutMs, 20_000),
      maxBytes: Math.max(config.fetchMaxBytes, 10 * 1024 * 1024),
    });
    shared.set(config, r);
    live.add(r);
    if (!exitHook) {
      exitHook = true;
      // A browser this process started must not outlive it, nor its profile folder (the browser also exits
      // by itself when this process dies, as its DevTools pipe closes).
      process.on("exit", () => {
        for (const x of live) x.kill();
      });
    }
  }
  return r;
}

/** Stops the renderer of a configuration (services.close()). */
export async function closeRenderer(config: Config): Promise<void> {
  const r = shared.get(config);
  if (!r) return;
  shared.delete(config);
  live.delete(r);
  r.kill();
}

const DAY_MS = 24 * 60 * 60 * 1000;
const rendersToday = new WeakMap<Services, Map<string, number>>();
const sweptDay = new WeakMap<Services, number>();

/** Takes one of a workspace's renders of `day` (days since 1970, UTC) within `cap`: the renders it had
 * started before this one, and whether this one may start. On a libSQL server the count is the service's,
 * shared by every instance (one statement in `rate_slices`, the table of shared limits); on a local file it is
 * this process's, as the other shared limits are (no write to contend with the writer or to move the read
 * cache's data version). */
async function takeRender(s: Services, orgId: number, day: number, cap: number) {
  if (!sharedByInstances(s.database.url)) {
    let counts = rendersToday.get(s);
    if (!counts) {
      counts = new Map();
      rendersToday.set(s, counts);
    }
    const key = `${orgId}|${day}`;
    const used = counts.get(key) ?? 0;
    if (used >= cap) return { allowed: false, used };
    for (const k of counts.keys()) if (!k.endsWith(`|${day}`)) counts.delete(k);
    counts.set(key, used + 1);
    return { allowed: true, used };
  }
  const before = await takeDailyRender(s.database, orgId, day, cap);
  if (sweptDay.get(s) !== day) {
    sweptDay.set(s, day);
    await sweepDailyRenders(s.database, day - 1).catch(() => {});
  }
  return before === undefined ? { allowed: false, used: cap } : { allowed: true, used: before };
}

/** The browser as one workspace uses it: at most its plan's pages rendered per UTC day (domain/plans.ts,
 * dailyCaps.renders), every render started counting, whatever it ends with (takeRender: the service's count
 * on a libSQL server, the process's on a file); undefined without RIVALS_BROWSER. */
export function tenantRenderer(s: Services, orgId: number): PageRenderer | undefined {
  const renderer = rendererFor(s.config);
  if (!renderer) return undefined;
  return {
    async render(served) {
      // The browser's requests go through the tenant fetcher's rules, not a confined workspace's closed web.
      if ((await workspaceFetcher(s, orgId)).confined)
        return { ok: false, error: "browser", message: "this workspace's pages are not read in a browser" };
      const { start, end } = utcDay(s.clock());
      const plan = planOf((await planOfOrg(s.database, orgId)) ?? "free");
      const day = Math.floor(Date.parse(start) / DAY_MS);
      const { allowed, used } = await takeRender(s, orgId, day, plan.dailyCaps.renders);
      if (!allowed)
        return { ok: false, error: "limit", message: dailyCapReached(plan, "renders", used, end).message };
      return renderer.render(served);
    },
  };
}
