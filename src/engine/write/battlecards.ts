// At the end of a cycle: for every competitor with a new medium or high signal, the engine composes its card
// from the dossier and newest signals. A competitor without a card gets its first one; a card that exists is
// never rewritten: what the engine would change is stored as a proposal a member accepts or dismisses. Neither
// counts toward the daily cap that limits generate_battlecard.
import { runCommand } from "../../../events/command.ts";
import { competitorsWithMaterialSignals } from "../../db/queries/cycleWrites.ts";
import { cardAfterCycle } from "../../domain/battlecardGeneration.ts";
import { composeBattlecard } from "../battlecards.ts";
import type { AfterCycleStep } from "../cycle/types.ts";

const command = cardAfterCycle(composeBattlecard);

export const rewriteBattlecards: AfterCycleStep = async (s, cycle) => {
  let written = 0;
  let proposed = 0;
  for (const competitorId of await competitorsWithMaterialSignals(
    s.database,
    cycle.orgId,
    cycle.signalIds.created,
  )) {
    const result = await runCommand(
      s.store,
      command,
      { competitor_id: competitorId, cycle_id: cycle.id },
      { caller: { orgId: cycle.orgId, actor: "engine" }, metadata: { source: "engine" } },
    );
    if (result === "written") written++;
    if (result === "proposed") proposed++;
  }
  return { battlecards_written: written, battlecards_proposed: proposed };
};
