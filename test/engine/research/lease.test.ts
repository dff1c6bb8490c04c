// Recovery of research runs on a database two instances share: each run is leased by the instance that
// runs it. Two Services on one libSQL file (two instances) and a real `rivals research` process killed mid-run:
// an instance's recovery leaves a live instance's run alone, fails a run whose process died once its lease has
// expired, and at once a run whose instance stopped and let go of its leases.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { handle } from "../../../events/command.ts";
import { type Config, loadConfig } from "../../../src/config.ts";
import { createOrg } from "../../../src/domain/orgs.ts";
import { INTERRUPTED } from "../../../src/domain/research.ts";
import { addCompetitor } from "../../../src/domain/watchlist.ts";
import {
  RESEARCH_LEASE_MS,
  recoverOrphanedResearch,
  startResearchRecovery,
} from "../../../src/engine/research/lease.ts";
import { startResearch } from "../../../src/engine/research/runner.ts";
import { openServices, type Services } from "../../../src/services.ts";

setDefaultTimeout(60_000);

const root = resolve(import.meta.dir, "..", "..", "..");
let dir: string;
let config: Config;
let a: Services;
let b: Services;
let orgId: number;
// Both instances read the real time, shifted by `skew` for B (to look past a lease's expiry).
let skew = 0;

// A site that holds every request until `release()` (a research run that goes on as long as the test wants).
let held: (() => void)[] = [];
let holding = true;
const site = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    if (holding) await new Promise<void>((r) => held.push(r));
    const path = new URL(req.url).pathname;
    if (path === "/")
      return new Response("<!doctype html><title>Slow</title><h1>Slow Inc</h1><p>Analytics for teams.</p>", {
        headers: { "content-type": "text/html" },
      });
    return new Response("not found", { status: 404 });
  },
});
function release() {
  holding = false;
  for (const r of held) r();
  held = [];
}

async function runRow(id: number) {
  const r = await a.database.client.execute({
    sql: "SELECT r.state, r.error, l.holder, l.expires_at FROM research_runs r LEFT JOIN research_leases l ON l.run_id = r.id WHERE r.id = ?",
    args: [id],
  });
  return r.rows[0];
}

async function competitor(name: string): Promise<number> {
  const { result } = await a.store.execute((w) =>
    handle(addCompetitor, w, { orgId, actor: "test" }, { website_url: `https://${name}.example`, name }),
  );
  return result.id;
}

const research = (s: Services, id: number) =>
  startResearch(s, { orgId, actor: "operator" }, { kind: "one", competitor_id: id }, "operator", {
    usesAllowance: false,
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-research-lease-"));
  config = loadConfig({
    RIVALS_DB: `file:${join(dir, "rivals.db")}`,
    RIVALS_FETCH_REWRITE: `*=http://127.0.0.1:${site.port}`,
    RIVALS_FETCH_DELAY_MS: "0",
  });
  a = await openServices(config, () => new Date());
  b = await openServices({ ...config }, () => new Date(Date.now() + skew));
  orgId = (await createOrg(a.store, { slug: "leases", name: "Leases", plan: "enterprise" })).id;
});

afterAll(async () => {
  release();
  a?.close();
  b?.close();
  site.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

describe("research leases", () => {
  test("another instance's recovery leaves a live instance's run alone; the run ends as its own", async () => {
    holding = true;
    const { start, done } = await research(a, await competitor("live"));
    const runId = start.runs[0].run_id;
    const row = await runRow(runId);
    expect(row.state).toBe("running");
    expect(String(row.holder)).toMatch(/:\d+:/);
    expect(await recoverOrphanedResearch(b)).toEqual([]);
    expect((await runRow(runId)).state).toBe("running");
    release();
    const [report] = await done;
    const after = await runRow(runId);
    expect(after.state).toBe(report.status);
    expect(after.error).not.toBe(INTERRUPTED);
    expect(after.holder).toBeNull(); // the lease went with the run's end
  });

  test("a run whose process died is failed once its lease expires, not before", async () => {
    holding = true;
    const id = await competitor("crashed");
    const p = Bun.spawn(
      [process.execPath, "src/main.ts", "research", "--org", "leases", "--competitor", String(id)],
      {
        cwd: root,
        env: {
          ...process.env,
          RIVALS_DB: config.dbUrl,
          RIVALS_FETCH_REWRITE: `*=http://127.0.0.1:${site.port}`,
          RIVALS_FETCH_DELAY_MS: "0",
        },
        stdout: "ignore",
        stderr: "ignore",
      },
    );
    const runningRun = async () =>
      (
        await a.database.client.execute({
          sql: "SELECT r.id FROM research_runs r JOIN research_leases l ON l.run_id = r.id WHERE r.competitor_id = ? AND r.state = 'running'",
          args: [id],
        })
      ).rows[0];
    const deadline = Date.now() + 20_000;
    let run = await runningRun();
    while (!run) {
      if (Date.now() > deadline) throw new Error("the research process started no run");
      await Bun.sleep(25);
      run = await runningRun();
    }
    p.kill(9);
    await p.exited;
    const runId = Number(run.id);
    // Its lease still runs: nobody can tell a dead holder from a slow one yet.
    expect(await recoverOrphanedResearch(b)).toEqual([]);
    skew = RESEARCH_LEASE_MS + 1_000;
    try {
      expect(await recoverOrphanedResearch(b)).toEqual([runId]);
    } finally {
      skew = 0;
    }
    const after = await runRow(runId);
    expect(after.state).toBe("failed");
    expect(after.error).toBe(INTERRUPTED);
    expect(after.holder).toBeNull();
  });

  test("an instance that stops lets go of its leases: the next start fails its runs at once", async () => {
    holding = true;
    const recovery = await startResearchRecovery(a);
    const { start, done } = await research(a, await competitor("stopped"));
    const runId = start.runs[0].run_id;
    expect(await recoverOrphanedResearch(b)).toEqual([]);
    await recovery.stop();
    expect(await recoverOrphanedResearch(b)).toEqual([runId]);
    expect((await runRow(runId)).error).toBe(INTERRUPTED);
    // The run going on in the stopping process records nothing over it.
    release();
    await done;
    expect((await runRow(runId)).error).toBe(INTERRUPTED);
  });
});
