// Several Rivals instances on one libSQL server (sqld) reading the log for webhook events and sending at once:
// every event is queued once per endpoint and every message reaches its receiver once, in log order.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { runCommand } from "../../../events/command.ts";
import { importNdjson } from "../../../src/domain/imports.ts";
import { createOrg } from "../../../src/domain/orgs.ts";
import { addWebhook } from "../../../src/domain/webhookEndpoints.ts";
import { newWebhookSecret } from "../../../src/engine/deliver/webhookSign.ts";
import { webhookRound } from "../../../src/engine/deliver/webhooks.ts";
import { type Cluster, startCluster } from "../../support/cluster.ts";
import { importedDigest } from "../../support/fixture-workspace.ts";

setDefaultTimeout(60_000);

const received: { id: string; path: string; type: string; key: string }[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const json = await req.json();
    received.push({
      id: req.headers.get("webhook-id") ?? "",
      path: new URL(req.url).pathname,
      type: json.type,
      key: json.data.slug,
    });
    return new Response(null, { status: 204 });
  },
});
const clock = { now: new Date("2026-11-20T12:00:00Z") };
let c: Cluster;

beforeAll(async () => {
  c = await startCluster(
    3,
    {
      RIVALS_FETCH_REWRITE: `https://hooks.zapier.com=http://127.0.0.1:${server.port}`,
      RIVALS_FETCH_DELAY_MS: "0",
    },
    () => clock.now,
  );
  const s = c.instances[0].services;
  const org = await createOrg(s.store, { slug: "acme", name: "Acme", plan: "growth" });
  for (const path of ["/a", "/b"])
    await runCommand(
      s.store,
      addWebhook,
      {
        endpoint: { url: `https://hooks.zapier.com${path}`, event_types: ["digest.generated"] },
        secret: newWebhookSecret(),
      },
      { caller: { orgId: org.id, actor: "test" } },
    );
});
afterAll(async () => {
  await c.close();
  server.stop(true);
});

test("three instances: each digest.generated reaches each endpoint once, in log order", async () => {
  const s = c.instances[0].services;
  await importNdjson(s.store, [1, 2, 3, 4, 5].map((n) => JSON.stringify(importedDigest(n))).join("\n"));
  await Promise.all(c.instances.flatMap((i) => [webhookRound(i.services), webhookRound(i.services)]));
  // A last round by each, for whatever a losing instance left due.
  for (const i of c.instances) await webhookRound(i.services);
  const ids = received.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const path of ["/a", "/b"])
    expect(received.filter((r) => r.path === path).map((r) => r.key)).toEqual([
      "day-1",
      "day-2",
      "day-3",
      "day-4",
      "day-5",
    ]);
});
