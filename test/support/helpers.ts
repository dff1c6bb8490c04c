// Test harness: a real libSQL file in a temp dir, the real app on a loopback port, an injectable clock.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import type { Clock } from "../../src/clock.ts";
import { loadConfig } from "../../src/config.ts";
import { createApiKey, parseScopes } from "../../src/domain/apiKeys.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { createOrg } from "../../src/domain/orgs.ts";
import { openServices, type Services } from "../../src/services.ts";

/** The read API's eight endpoints, in the spec's order: what the OpenAPI document and /developers list. */
export const READ_API_PATHS = [
  "/api/v1/competitors",
  "/api/v1/competitors/{id}",
  "/api/v1/signals",
  "/api/v1/signals/{id}",
  "/api/v1/digests",
  "/api/v1/digests/{id}",
  "/api/v1/battlecards",
  "/api/v1/battlecards/{id}",
];

export interface TestServer {
  services: Services;
  base: string;
  dir: string;
  clock: { now: Date; advance(ms: number): void };
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  org(slug: string, plan?: string): Promise<{ id: number; slug: string }>;
  key(org: string, scopes?: string): Promise<string>;
  load(lines: object[]): Promise<Awaited<ReturnType<typeof importNdjson>>>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

/** `extra` adds routes to the app (after all of ours, under the same hooks), e.g. one that fails. */
export async function startTestServer(
  env: Record<string, string> = {},
  extra?: Parameters<typeof createApp>[1],
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "rivals-test-"));
  const port = await freePort();
  const clock = {
    now: new Date("2026-11-20T12:00:00Z"),
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  const clockFn: Clock = () => clock.now;
  const config = loadConfig({
    RIVALS_DB: `file:${join(dir, "rivals.db")}`,
    PORT: String(port),
    RIVALS_BASE_URL: `http://127.0.0.1:${port}`,
    // Web-archive history only where a test serves an archive (test/engine/archive/archive.test.ts).
    RIVALS_ARCHIVE_MONTHS: "0",
    ...env,
  });
  const services = await openServices(config, clockFn);
  const { app } = createApp(services, extra);
  app.listen({ port, hostname: "127.0.0.1" });
  const base = config.baseUrl;
  return {
    services,
    base,
    dir,
    clock,
    get: (path, headers = {}) => fetch(base + path, { headers }),
    org: (slug, plan = "growth") => createOrg(services.store, { slug, name: slug.toUpperCase(), plan }),
    key: async (org, scopes) => (await createApiKey(services.store, org, "test", parseScopes(scopes))).token,
    load: (lines) => importNdjson(services.store, lines.map((l) => JSON.stringify(l)).join("\n")),
    close: async () => {
      await app.stop(true);
      services.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
