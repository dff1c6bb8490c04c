// The engine's writes are commands: one that is refused or finds nothing to do appends nothing and writes none
// of the operational rows that go with it (a research run's lease, a delivery's id, the webhook fan-out's
// cursor), and one run again after it committed decides on what the first left. A real database.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { handle, runCommand } from "../../../events/command.ts";
import { DomainError } from "../../../src/domain/errors.ts";
import { answerFreeBriefs } from "../../../src/domain/freeBriefAnswers.ts";
import { queueDeliveries } from "../../../src/domain/outbox.ts";
import { endResearchRun, interruptResearchRun, startResearchRuns } from "../../../src/domain/research.ts";
import type { SignalDraft } from "../../../src/domain/signalDraft.ts";
import { addCompetitor } from "../../../src/domain/watchlist.ts";
import { queueWebhookMessages } from "../../../src/domain/webhooks.ts";
import { startResearch } from "../../../src/engine/research/runner.ts";
import { recordDrafts } from "../../../src/engine/write/signals.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

let t: TestServer;
let orgId: number;
let otherOrg: number;
let competitorId: number;

const draft: SignalDraft = {
  key: "pricing:pro",
  category: "pricing",
  type: "price_increase",
  severity: "high",
  severity_reasons: ["price"],
  confidence: 0.9,
  confidence_reasons: ["plan table"],
  title: "Pro went from $49 to $59 a month",
  summary: "Pro went from $49 to $59 a month.",
  evidence: [
    {
      text: "Pro $59/month",
      source_url: "https://globex.example/pricing",
      observed_at: "2026-11-20T09:00:00.000Z",
    },
  ],
  value: { before: "49", after: "59" },
};

async function count(table: string): Promise<number> {
  const r = await t.services.database.client.execute(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(r.rows[0].n);
}

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.org("acme")).id;
  otherOrg = (await t.org("initech")).id;
  const { result } = await t.services.store.execute(
    (w) => handle(addCompetitor, w, { orgId, actor: "operator" }, { website_url: "https://globex.example" }),
    { actor: "operator" },
  );
  competitorId = result.id;
});
afterAll(() => t.close());

test("a cycle's drafts for a competitor of another workspace are refused, and nothing is appended", async () => {
  const events = await count("events");
  await expect(
    recordDrafts(t.services, otherOrg, competitorId, [draft], "2026-11-20T09:00:00.000Z"),
  ).rejects.toThrow(/not in workspace/);
  expect(await count("events")).toBe(events);
  expect(await count("engine_signals")).toBe(0);
  // In its own workspace the same drafts open one signal.
  const out = await recordDrafts(t.services, orgId, competitorId, [draft], "2026-11-20T09:00:00.000Z");
  expect(out.created).toHaveLength(1);
  expect(await count("engine_signals")).toBe(1);
});

test("research refused at its start takes no run id's lease and appends nothing", async () => {
  const events = await count("events");
  const start = startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "one", competitor_id: competitorId + 1000 },
    "operator",
    { usesAllowance: false, history: "none" },
  );
  await expect(start).rejects.toBeInstanceOf(DomainError);
  expect(await count("events")).toBe(events);
  expect(await count("research_leases")).toBe(0);
  expect(await count("research_runs")).toBe(0);
});

test("a cycle's deliveries queued again add none for a recipient already queued", async () => {
  const by = { caller: { orgId, actor: "engine" } };
  const recipients = [{ channel: "email" as const, recipient: "ops@acme.example", signal_ids: [1] }];
  await runCommand(t.services.store, queueDeliveries, { cycleId: 77, recipients }, by);
  const events = await count("events");
  expect(await count("deliveries")).toBe(1);
  await runCommand(
    t.services.store,
    queueDeliveries,
    {
      cycleId: 77,
      recipients: [...recipients, { channel: "slack" as const, recipient: "webhook", signal_ids: [1] }],
    },
    by,
  );
  expect(await count("events")).toBe(events + 1);
  expect(await count("deliveries")).toBe(2);
});

test("a free-brief answer for a domain with no request queued appends nothing", async () => {
  const events = await count("events");
  await runCommand(
    t.services.store,
    answerFreeBriefs,
    { domain: "nobody-asked.example", answer: { outcome: "failed", reason: "unreachable" }, held: false },
    { caller: { actor: "engine" } },
  );
  expect(await count("events")).toBe(events);
  expect(await count("public_briefs")).toBe(0);
});

test("a research run's lease is taken with its start and dropped with its end; recovery leaves a leased run", async () => {
  const db = t.services.database.client;
  const leases = async () =>
    (await db.execute("SELECT run_id, holder, expires_at FROM research_leases ORDER BY run_id")).rows.map(
      (r) => ({ ...r }),
    );
  const start = await runCommand(
    t.services.store,
    startResearchRuns,
    {
      cmd: { kind: "one", competitor_id: competitorId },
      trigger: "operator",
      usesAllowance: false,
      lease: { holder: "instance-a", ms: 60_000 },
    },
    { caller: { orgId, actor: "operator" } },
  );
  const runId = start.runs[0].run_id;
  const [lease] = await leases();
  expect(lease).toMatchObject({ run_id: runId, holder: "instance-a" });
  expect(Date.parse(String(lease.expires_at)) - t.services.clock().getTime()).toBeGreaterThan(50_000);

  // Its lease is live: recovery's command appends nothing and leaves the lease.
  const events = await count("events");
  const kept = await runCommand(
    t.services.store,
    interruptResearchRun,
    { runId },
    { caller: {}, metadata: { source: "recovery" } },
  );
  expect(kept).toEqual({ recorded: false });
  expect(await count("events")).toBe(events);
  expect(await leases()).toHaveLength(1);

  // The run's end records ResearchFailed and drops the lease in the same command.
  const ended = await runCommand(
    t.services.store,
    endResearchRun,
    { runId, outcome: { ok: false, code: "fetch_failed", reason: "The site did not answer." } },
    { caller: { actor: "engine" } },
  );
  expect(ended).toEqual({ recorded: true });
  expect(await leases()).toEqual([]);
  const state = await db.execute({ sql: "SELECT state FROM research_runs WHERE id = ?", args: [runId] });
  expect(state.rows[0].state).toBe("failed");
});

test("webhook messages queued behind a cursor that moved meanwhile are refused: nothing queued, the cursor stays", async () => {
  const cursor = async () =>
    (await t.services.database.client.execute("SELECT position FROM webhook_fanout WHERE id = 1")).rows[0]
      ?.position ?? null;
  const by = { caller: { actor: "engine" } };
  const events = await count("events");
  expect(
    await runCommand(t.services.store, queueWebhookMessages, { msgs: [], move: { from: null, to: 5 } }, by),
  ).toBe(true);
  expect(Number(await cursor())).toBe(5);
  // Another instance's fan-out moved it from null to 5 first: this one's move from null is refused.
  expect(
    await runCommand(t.services.store, queueWebhookMessages, { msgs: [], move: { from: null, to: 9 } }, by),
  ).toBe(false);
  expect(Number(await cursor())).toBe(5);
  expect(await count("events")).toBe(events);
});
