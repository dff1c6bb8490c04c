// The engine at work in the demo (`serve --demo`): research of the demo's competitors whose fictional websites the
// process serves (src/demo/web.ts), then a monitoring cycle — in the background, never holding the server up.
// The imported demo history stays; the engine's signals come on top of it.
import { runCycle } from "../engine/cycle/run.ts";
import { startResearch } from "../engine/research/runner.ts";
import type { Services } from "../services.ts";
import { DEMO_HOSTS } from "./web.ts";

const META = { actor: "operator", source: "demo" };

/** The demo workspace's id (undefined before `loadDemo`). */
async function demoOrgId(s: Services, slug: string): Promise<number | undefined> {
  const r = await s.database.client.execute({ sql: "SELECT id FROM orgs WHERE slug = ?", args: [slug] });
  return r.rows[0] ? Number(r.rows[0].id) : undefined;
}

/** Researches the demo's core competitors that have an embedded site and no finished research yet, then runs
 * one cycle of the workspace. Returns what it did (logged by the caller). */
export async function runDemoEngine(
  s: Services,
  slug: string,
): Promise<{ researched: number[]; cycle?: Record<string, unknown> }> {
  const orgId = await demoOrgId(s, slug);
  if (orgId === undefined) return { researched: [] };
  const r = await s.database.client.execute({
    sql: "SELECT id, website_url, state FROM competitors WHERE org_id = ? AND listed = 1 AND watch = 'core'",
    args: [orgId],
  });
  const todo: number[] = [];
  for (const row of r.rows) {
    let host = "";
    try {
      host = new URL(String(row.website_url)).hostname;
    } catch {
      continue;
    }
    if (!DEMO_HOSTS.includes(host)) continue;
    const state = JSON.parse(String(row.state ?? "{}")) as { freshness?: { research_state?: string } };
    if (state.freshness?.research_state === "finished" || state.freshness?.research_state === "running")
      continue;
    todo.push(Number(row.id));
  }
  const researched: number[] = [];
  for (const id of todo) {
    try {
      const { done } = await startResearch(
        s,
        { orgId, actor: "operator" },
        { kind: "one", competitor_id: id },
        "operator",
        { usesAllowance: false, metadata: META },
      );
      const [report] = await done;
      if (report?.status === "finished") researched.push(id);
    } catch (e) {
      console.error(
        JSON.stringify({ level: "warn", demo_research: id, error: String((e as Error)?.message ?? e) }),
      );
    }
  }
  const cycle = await runCycle(s, orgId, { trigger: "demo" });
  return { researched, cycle: cycle as unknown as Record<string, unknown> };
}

/** Starts runDemoEngine in the background and logs its outcome. */
export function startDemoEngine(s: Services, slug: string): Promise<void> {
  return runDemoEngine(s, slug).then(
    (out) =>
      console.log(
        JSON.stringify({
          demo_engine: "ready",
          researched: out.researched.length,
          signals_created: out.cycle?.signals_created ?? 0,
          pages_checked: out.cycle?.pages_checked ?? 0,
        }),
      ),
    (e) => console.error(JSON.stringify({ level: "error", demo_engine: String((e as Error)?.stack ?? e) })),
  );
}
