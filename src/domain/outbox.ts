// The outbox of a finished cycle (docs/engine/deliver.md; the channels a workspace chose are
// domain/delivery.ts): which deliveries are queued, and what one try records. engine/deliver/outbox.ts finds
// the recipients and sends; these decide the events.
import type { EventPayloads, NewEvent } from "../../events/catalog.ts";
import type { Command } from "../../events/command.ts";
import { deliveryQueued } from "../db/outbox.ts";
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

/** A recipient of a cycle's signals on one channel. */
export interface DeliveryRecipient {
  channel: EventPayloads["DeliveryQueued"]["channel"];
  recipient: string;
  signal_ids: number[];
}

/** Queues a cycle's deliveries: one per recipient, but none the cycle already queued (a step run again). The
 * loader takes an id for each new one. */
export const queueDeliveries: Command<
  { cycleId: number; recipients: DeliveryRecipient[] },
  { fresh: { recipient: DeliveryRecipient; id: number }[] },
  null
> = {
  load: async (w, input, c) => {
    const fresh: { recipient: DeliveryRecipient; id: number }[] = [];
    for (const r of input.recipients) {
      if (await deliveryQueued(w.tx, { orgId: c.orgId, cycleId: input.cycleId, ...r })) continue;
      fresh.push({ recipient: r, id: await w.nextId() });
    }
    return { fresh };
  },
  decide: (st, input, { caller, now }) => ({
    events: st.fresh.map(({ recipient, id }) =>
      decideDeliveryQueued(caller.orgId, id, { cycle_id: input.cycleId, ...recipient }, now),
    ),
    result: null,
  }),
};

/** Records one try of delivery `id` (made at `at`; `error` when it failed). */
export const recordDeliveryAttempt: Command<
  { id: number; attempt: number; at: Date; error: string | undefined },
  null,
  null
> = {
  load: async () => null,
  decide: (_st, input, { caller }) => ({
    events: [decideDeliveryAttempted(caller.orgId, input.id, input.attempt, input.at, input.error)],
    result: null,
  }),
};
