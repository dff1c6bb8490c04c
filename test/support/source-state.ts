// What a test's check of one page starts from: the page's stored state as the snapshot store reads it (checked
// once on 20 Nov 2026, never failing), its competitor, a fetcher that reads the page's origin from a local
// server, and that server with the services of a temporary database.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createFetcher, type Fetcher } from "../../src/engine/fetch/index.ts";
import type { SourceState } from "../../src/engine/snapshots/store.ts";
import { openServices, type Services } from "../../src/services.ts";

export function pageState(
  url: string,
  state: Pick<SourceState, "etag" | "bodyHash" | "rendered">,
): SourceState {
  return {
    id: 1,
    orgId: 1,
    competitorId: 1,
    key: `page:${url}`,
    url,
    kind: "page",
    lastModified: null,
    firstSeenAt: "2026-11-20T12:00:00.000Z",
    lastCheckedAt: "2026-11-20T12:00:00.000Z",
    lastChangedAt: null,
    latestHash: "abc",
    failures: 0,
    lastError: null,
    lastErrorAt: null,
    failingSince: null,
    ...state,
  };
}

/** The competitor those pages are of, and when its check began. */
export const COMPETITOR = { id: 1, name: "Plain" };
export const AT = "2026-11-21T12:00:00.000Z";

/** A fetcher (no pause between requests) that reads `origin` from the local server on `port`. */
export const fetcherTo = (origin: string, port: number | undefined): Fetcher =>
  createFetcher({
    userAgent: "RivalsBot/1.0 (+http://rivals.test/bot)",
    delayMs: 0,
    rewrite: [{ from: origin, to: `http://127.0.0.1:${port}` }],
  });

/** A local site answering `answer`, and the services of a database in a temporary directory, for one test file:
 * started before its tests, stopped and removed after them (read `site` and `s` inside the tests). */
export function checkedSite(answer: (req: Request) => Response | Promise<Response>): {
  site: ReturnType<typeof Bun.serve>;
  s: Services;
  dir: string;
} {
  const env = {} as { site: ReturnType<typeof Bun.serve>; s: Services; dir: string };
  beforeAll(async () => {
    env.site = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: answer });
    env.dir = mkdtempSync(join(tmpdir(), "rivals-check-"));
    env.s = await openServices(
      loadConfig({ RIVALS_DB: `file:${join(env.dir, "s.db")}`, RIVALS_ARCHIVE_MONTHS: "0" }),
    );
  });
  afterAll(() => {
    env.s.close();
    env.site.stop(true);
    rmSync(env.dir, { recursive: true, force: true });
  });
  return env;
}
