// The delivery outbox (deliveries): what each finished cycle is to send, by channel and recipient, and how the
// tries went.
import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";

export async function projectDeliveries(e: StoredEvent, tx: Tx): Promise<void> {
  if (e.type === "DeliveryQueued") {
    const d = e.data;
    await tx.execute({
      sql: `INSERT INTO deliveries (id, org_id, cycle_id, channel, recipient, signal_ids, state, next_attempt_at, queued_at)
            VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      args: [
        d.id,
        e.orgId,
        d.cycle_id,
        d.channel,
        d.recipient,
        JSON.stringify(d.signal_ids),
        d.queued_at,
        d.queued_at,
      ],
    });
  } else if (e.type === "DeliveryAttempted") {
    const d = e.data;
    await tx.execute({
      sql: `UPDATE deliveries SET attempts = ?, last_attempt_at = ?,
              state = ?, next_attempt_at = ?, last_error = ?, sent_at = COALESCE(?, sent_at)
            WHERE id = ?`,
      args: [
        d.attempt,
        d.at,
        d.ok ? "sent" : d.gave_up ? "failed" : "pending",
        d.next_attempt_at ?? null,
        d.ok ? null : (d.error ?? "failed"),
        d.ok ? d.at : null,
        d.id,
      ],
    });
  }
}
