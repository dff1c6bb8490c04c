// What runs at the end of every monitoring cycle, in this order (PLAN.md "Wave 2"): battlecard rewrites and
// digests (issue 10, helper L), then delivery (helper M). Each step gets the finished cycle and returns its part
// of the summary (`battlecards_written`, `digests_written`, `deliveries` …); numbers are added up. A step that
// throws is logged and named in the summary's `errors`; the cycle still finishes.
import type { Services } from "../../services.ts";
import { queueCycleDelivery } from "../deliver/outbox.ts";
import { rewriteBattlecards } from "../write/battlecards.ts";
import { writeCycleDigests } from "../write/digests.ts";
import type { CycleSummary, FinishedCycle } from "./types.ts";

export type { CycleSummary, FinishedCycle } from "./types.ts";

export type AfterCycleStep = (services: Services, cycle: FinishedCycle) => Promise<Partial<CycleSummary>>;

/** Append steps here (keep the order: writing before delivery). */
export const afterCycleSteps: AfterCycleStep[] = [rewriteBattlecards, writeCycleDigests, queueCycleDelivery];
