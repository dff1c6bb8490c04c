// A real `rivals serve` stopped in the middle of a delivery (killed while the receiver holds its request) and
// started again on the same database: the message is sent again with the same webhook-id once the stopped
// instance's claim on the endpoint expires, and every message reaches the receiver, in order; nothing is lost.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "../../../events/command.ts";
import { loadConfig } from "../../../src/config.ts";
import { importNdjson } from "../../../src/domain/imports.ts";
import { createOrg } from "../../../src/domain/orgs.ts";
import { addWebhook } from "../../../src/domain/webhookEndpoints.ts";
import { newWebhookSecret } from "../../../src/engine/deliver/webhookSign.ts";
import { openServices } from "../../../src/services.ts";
import { importedDigest } from "../../support/fixture-workspace.ts";
import { startServe } from "../../support/serve-process.ts";

setDefaultTimeout(60_000);

const seen: { id: string; slug: string; answered: boolean }[] = [];
let hold = true;
let held: (() => void) | undefined;
const rx = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  async fetch(req) {
    const json = await req.json();
    const entry = { id: req.headers.get("webhook-id") ?? "", slug: String(json.data.slug), answered: false };
    seen.push(entry);
    if (hold) {
      hold = false;
      // The first request is never answered: its sender is killed while waiting.
      await new Promise<void>((r) => {
        held = r;
      });
      return new Response(null, { status: 204 });
    }
    entry.answered = true;
    return new Response(null, { status: 204 });
  },
});

let dir: string;
let db: string;
const procs: ReturnType<typeof Bun.spawn>[] = [];
const env = () => ({
  RIVALS_DB: db,
  RIVALS_FETCH_REWRITE: `https://hooks.zapier.com=http://127.0.0.1:${rx.port}`,
  RIVALS_FETCH_DELAY_MS: "0",
  RIVALS_FETCH_TIMEOUT_MS: "2000",
});

async function serve() {
  const { proc } = await startServe(env());
  procs.push(proc);
  return proc;
}

const until = async (ok: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out");
    await Bun.sleep(100);
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-webhook-restart-"));
  db = `file:${join(dir, "rivals.db")}`;
  const s = await openServices(loadConfig(env()));
  const org = await createOrg(s.store, { slug: "acme", name: "Acme", plan: "growth" });
  await runCommand(
    s.store,
    addWebhook,
    {
      endpoint: { url: "https://hooks.zapier.com/in", event_types: ["digest.generated"] },
      secret: newWebhookSecret(),
    },
    { caller: { orgId: org.id, actor: "test" } },
  );
  await importNdjson(s.store, [1, 2, 3].map((n) => JSON.stringify(importedDigest(n))).join("\n"));
  s.close();
});
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill("SIGKILL");
  held?.();
  rx.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

test("killed mid-delivery, started again: the held message is sent again, then the rest, in order, once each", async () => {
  const first = await serve();
  await until(() => seen.length === 1, 20_000);
  first.kill("SIGKILL");
  await first.exited;
  held?.();
  expect(seen[0]).toMatchObject({ slug: "day-1", answered: false });
  await serve();
  await until(() => seen.filter((x) => x.answered).length === 3, 40_000);
  const answered = seen.filter((x) => x.answered);
  expect(answered.map((x) => x.slug)).toEqual(["day-1", "day-2", "day-3"]);
  expect(answered[0].id).toBe(seen[0].id);
  expect(new Set(answered.map((x) => x.id)).size).toBe(3);
});
