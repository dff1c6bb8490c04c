// `rivals research --org S --competitor ID`: the operator's research of one competitor now (first research or
// refresh; no allowance used). Prints one JSON summary; a failed research prints {"status":"failed","error":…}
// and exits 1. With --history: the competitor's web-archive history in the foreground (or, when another process is
// reading it, waiting for that to end), then one JSON summary of it.
import { loadConfig } from "../config.ts";
import { competitorRecord } from "../db/queries/competitors.ts";
import { DomainError } from "../domain/errors.ts";
import { PROFILE_FIELDS } from "../domain/observation.ts";
import { requireOrg } from "../domain/state.ts";
import { readHistory } from "../engine/archive/run.ts";
import { startResearch } from "../engine/research/runner.ts";
import { openServices, type Services } from "../services.ts";
import { flags, print, required, UsageError } from "./args.ts";

export async function researchCommand(argv: string[]): Promise<number> {
  const { values } = flags(argv, {
    org: { type: "string" },
    competitor: { type: "string" },
    history: { type: "boolean" },
  });
  const slug = required(values.org, "org");
  const id = Number(required(values.competitor, "competitor"));
  if (!Number.isInteger(id) || id <= 0)
    throw new UsageError("--competitor must be a competitor id (an integer)");
  const s = await openServices(loadConfig());
  try {
    const org = await requireOrg(s.database, slug);
    if (values.history) return await historyCommand(s, org, id);
    let started: Awaited<ReturnType<typeof startResearch>>;
    try {
      started = await startResearch(
        s,
        { orgId: org.id, actor: "operator" },
        { kind: "one", competitor_id: id },
        "operator",
        // This process ends with the research: its history is left for `rivals serve` (or --history).
        { usesAllowance: false, metadata: { actor: "operator", source: "cli" }, history: "queue" },
      );
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      print({ status: "failed", competitor_id: id, error: e.message, code: e.code });
      return 1;
    }
    const { start, done } = started;
    const [report] = await done;
    if (report.status === "failed") {
      print({
        status: "failed",
        competitor_id: report.competitor_id,
        run_id: report.run_id,
        error: report.error?.reason,
        code: report.error?.code,
      });
      return 1;
    }
    const record = (await competitorRecord(s.database.db, org.id, report.competitor_id)) as Record<
      string,
      any
    >;
    const profileKeys = PROFILE_FIELDS.filter((k) => record[k] !== undefined);
    print({
      status: "finished",
      org: org.slug,
      competitor_id: report.competitor_id,
      name: report.name,
      run_id: report.run_id,
      first_brief: start.runs[0].first_brief,
      ...report.summary,
      failed: report.summary?.failed.length ?? 0,
      // Pages only a browser can read, when RIVALS_BROWSER is not set (or the browser failed on them).
      needs_browser: (report.summary?.failed ?? [])
        .filter((f) => f.error === "needs_browser")
        .map((f) => f.url),
      profile: profileKeys,
      urls: record.urls ?? {},
      reads: Object.keys(record.reads ?? {}),
      researched_at: record.freshness?.research_finished_at,
    });
    return 0;
  } finally {
    s.close();
  }
}

/** How often a process waiting for another's history run looks again. */
const WAIT_MS = 1000;

async function historyCommand(s: Services, org: { id: number; slug: string }, id: number): Promise<number> {
  if (!(await competitorRecord(s.database.db, org.id, id))) {
    print({
      status: "failed",
      competitor_id: id,
      error: `no competitor ${id} in ${org.slug}`,
      code: "not_found",
    });
    return 1;
  }
  for (;;) {
    // Undefined while another live process holds the run: its end (or its lease running out) lets this one in.
    const summary = await readHistory(s, org.id, id);
    if (summary) {
      print({ org: org.slug, ...summary });
      return 0;
    }
    await Bun.sleep(WAIT_MS);
  }
}
