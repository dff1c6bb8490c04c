// Several Rivals instances on one libSQL server (sqld): each its own Services (its own writer, caches,
// limiters, instance name) and its own HTTP server on a loopback port, as `rivals serve` processes behind a
// proxy are. They start at once, so their migrations race as a rolling start's do.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import type { Clock } from "../../src/clock.ts";
import { loadConfig } from "../../src/config.ts";
import { openServices, type Services } from "../../src/services.ts";
import { freePort } from "../e2e/harness.ts";
import { type Sqld, startSqld } from "./sqld.ts";

export interface Instance {
  services: Services;
  base: string;
  stop(): Promise<void>;
}

export interface Cluster {
  sqld: Sqld;
  dir: string;
  instances: Instance[];
  close(): Promise<void>;
}

export const CLUSTER_BASE_URL = "https://rivals.test";

export async function startCluster(
  n: number,
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), "rivals-cluster-"));
  const sqld = await startSqld(dir);
  const instances = await Promise.all(
    Array.from({ length: n }, async () => {
      const port = await freePort();
      const config = loadConfig({ RIVALS_DB: sqld.url, RIVALS_BASE_URL: CLUSTER_BASE_URL, ...env });
      const services = await openServices(config, clock);
      const { app } = createApp(services);
      app.listen({ port, hostname: "127.0.0.1" });
      let stopped = false;
      return {
        services,
        base: `http://127.0.0.1:${port}`,
        async stop() {
          if (stopped) return;
          stopped = true;
          await app.stop(true);
          services.close();
        },
      };
    }),
  );
  return {
    sqld,
    dir,
    instances,
    async close() {
      for (const i of instances) await i.stop();
      await sqld.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
