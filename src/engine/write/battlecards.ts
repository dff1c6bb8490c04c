// At the end of a cycle: for every competitor with a new medium or high signal, the engine composes its card
// from the dossier and newest signals. A competitor without a card gets its first one; a card that exists is
// never rewritten: what the engine would change is stored as a proposal a member accepts or dismisses. Neither
// counts toward the daily cap that limits generate_battlecard.
import { competitorsWithMaterialSignals } from "../../db/queries/cycleWrites.ts";
import { composeCardEvent, researchFinished } from "../../domain/battlecardGeneration.ts";
import { DomainError } from "../../domain/errors.ts";
import { requireCoreCompetitor } from "../../domain/watchlist.ts";
import { loadSettings } from "../../domain/workspace.ts";
import { composeBattlecard } from "../battlecards.ts";
import type { AfterCycleStep } from "../cycle/types.ts";

export const rewriteBattlecards: AfterCycleStep = async (s, cycle) => {
  let written = 0;
  let proposed = 0;
  for (const competitorId of await competitorsWithMaterialSignals(
    s.database,
    cycle.orgId,
    cycle.signalIds.created,
  )) {
    const { result } = await s.store.execute(async (w) => {
      const settings = await loadSettings(w.tx, cycle.orgId);
      let comp: Awaited<ReturnType<typeof requireCoreCompetitor>>;
      try {
        comp = await requireCoreCompetitor(w.tx, cycle.orgId, competitorId, "a battlecard rewrite");
      } catch (e) {
        if (e instanceof DomainError) return { events: [], result: "none" as const }; // removed or moved to the horizon
        throw e;
      }
      if (!researchFinished(comp.record)) return { events: [], result: "none" as const };
      const card = await composeCardEvent(
        w,
        cycle.orgId,
        comp,
        settings.profile,
        { trigger: "cycle", cycle_id: cycle.id },
        composeBattlecard,
      );
      if (!card.event) return { events: [], result: "none" as const };
      return { events: [card.event], result: card.proposed ? ("proposed" as const) : ("written" as const) };
    });
    if (result === "written") written++;
    if (result === "proposed") proposed++;
  }
  return { battlecards_written: written, battlecards_proposed: proposed };
};
