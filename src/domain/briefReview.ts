// An operator's review of free briefs held by RIVALS_FREE_BRIEF_REVIEW (docs/operations.md "Reviewing free
// briefs"): a held brief is served by no public page or tool until it is published; a rejected one never is.

import type { NewEvent } from "../../events/catalog.ts";
import type { EventStore } from "../../events/store.ts";
import { briefReviewState } from "../db/queries/briefReview.ts";
import { DomainError } from "./errors.ts";

export type ReviewDecision = "published" | "rejected";

/** A brief as its review reads it. */
export interface ReviewedBrief {
  id: number;
  review: "pending" | "published" | "rejected";
}

/** Only a held brief is reviewed, once. */
export function decideReviewPublicBrief(
  brief: ReviewedBrief | undefined,
  decision: ReviewDecision,
  now: Date,
): NewEvent[] {
  if (!brief) throw new DomainError("not_found", "There is no public brief with that id.");
  if (brief.review !== "pending")
    throw new DomainError("conflict", `That brief is not waiting for review (it is ${brief.review}).`);
  return [
    {
      type: "PublicBriefReviewed",
      orgId: null,
      streamType: "public_brief",
      streamId: String(brief.id),
      data: { id: brief.id, decision, reviewed_at: now.toISOString() },
    },
  ];
}

export async function reviewPublicBrief(
  store: EventStore,
  id: number,
  decision: ReviewDecision,
  actor = "operator",
): Promise<void> {
  await store.execute(
    async (w) => {
      const brief = await briefReviewState(w.tx, id);
      return { events: decideReviewPublicBrief(brief, decision, w.now), result: null };
    },
    { actor, source: "cli" },
  );
}
