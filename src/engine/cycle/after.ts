// What runs at the end of every monitoring cycle, in this order: battlecard rewrites and digests, then
// delivery. Each step gets the finished cycle and returns its part
// of the summary (`battlecards_written`, `digests_written`, `deliveries` …); numbers are added up. A step that
// throws is logged and named in the summary's `errors`; the cycle still finishes.
import { queueCycleDelivery } from "../deliver/outbox.ts";
import { queueCycleWebhooks } from "../deliver/webhooks.ts";
import { rewriteBattlecards } from "../write/battlecards.ts";
import { writeCycleDigests } from "../write/digests.ts";
import type { AfterCycleStep } from "./types.ts";

/** Append steps here (keep the order: writing before delivery). */
export const afterCycleSteps: AfterCycleStep[] = [
  rewriteBattlecards,
  writeCycleDigests,
  queueCycleDelivery,
  queueCycleWebhooks,
];
