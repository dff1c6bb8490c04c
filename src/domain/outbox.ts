// The outbox of a finished cycle (docs/engine/deliver.md; the channels a workspace chose are
// domain/delivery.ts): which deliveries are queued, and what one try records. engine/deliver/outbox.ts finds
// the recipients and sends; these decide the events.
import type { EventPayloads, NewEvent } from "../../events/catalog.ts";
import { type AttemptOutcome, attemptOutcome } from "./attempts.ts";

const stream = (orgId: number, id: number) => ({
  orgId,
  streamType: "delivery" as const,
  streamId: String(id),
});

/** One delivery of a cycle's signals to one recipient on one channel. */
export function decideDeliveryQueued(
  orgId: number,
  id: number,
  d: Omit<EventPayloads["DeliveryQueued"], "id" | "queued_at">,
  now: Date,
): NewEvent {
  return {
    type: "DeliveryQueued",
    ...stream(orgId, id),
    data: { id, ...d, queued_at: now.toISOString() },
  };
}

/** One try of a delivery: done, due again after the backoff, or given up after the last try. */
export function decideDeliveryAttempted(
  orgId: number,
  id: number,
  attempt: number,
  at: Date,
  error: string | undefined,
): NewEvent {
  const outcome: AttemptOutcome = attemptOutcome(attempt, at, error);
  return { type: "DeliveryAttempted", ...stream(orgId, id), data: { id, attempt, ...outcome } };
}
