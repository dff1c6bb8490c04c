// An operator's review of free briefs held by RIVALS_FREE_BRIEF_REVIEW (docs/operations.md "Reviewing free
// briefs"): a held brief is served by no public page or tool until it is published; a rejected one never is.

import type { NewEvent } from "../../events/catalog.ts";
import type { Actor, Command } from "../../events/command.ts";
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

/** `rivals briefs publish|reject`: the operator's review of a held brief. */
export const reviewPublicBrief: Command<
  { id: number; decision: ReviewDecision },
  (ReviewedBrief & { version: number }) | undefined,
  null,
  Actor
> = {
  load: (w, cmd) => briefReviewState(w.tx, cmd.id),
  stream: (b) => (b ? { streamType: "public_brief", streamId: String(b.id), version: b.version } : undefined),
  decide: (brief, cmd, { now }) => ({
    events: decideReviewPublicBrief(brief, cmd.decision, now),
    result: null,
  }),
};
