// `rivals cycle --org S [--competitor ID]`: one monitoring cycle now (the operator's), printing its JSON summary
// (docs/operations.md): pages_checked, pages_changed, signals_created, signals_updated, signals_closed,
// battlecards_written, digests_written, deliveries, and the rest of docs/engine/cycles.md's summary.
import { loadConfig } from "../config.ts";
import { requireOrg } from "../domain/state.ts";
import { runCycle } from "../engine/cycle/run.ts";
import { openServices } from "../services.ts";
import { flags, print, required, UsageError } from "./args.ts";

export async function cycleCommand(argv: string[]): Promise<number> {
  const { values } = flags(argv, { org: { type: "string" }, competitor: { type: "string" } });
  const slug = required(values.org, "org");
  let competitorId: number | undefined;
  if (values.competitor !== undefined) {
    competitorId = Number(values.competitor);
    if (!Number.isInteger(competitorId) || competitorId <= 0)
      throw new UsageError("--competitor must be a competitor id (an integer)");
  }
  const s = await openServices(loadConfig());
  try {
    const org = await requireOrg(s.database, slug);
    print(await runCycle(s, org.id, { trigger: "operator", competitorId }));
    return 0;
  } finally {
    s.close();
  }
}
