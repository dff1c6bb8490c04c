// Webhook endpoints (webhooks) and their outbox (webhook_messages): what each endpoint is to be sent, oldest
// first, and how the tries went.
import type { StoredEvent } from "../events/catalog.ts";
import { EVENT_POSITION_SQL, type Tx } from "../events/store.ts";

export async function projectWebhooks(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "WebhookAdded": {
      const d = e.data;
      await tx.execute({
        sql: `INSERT INTO webhooks (id, org_id, url, event_types, filter, secret, secret_hint, after_position, state, created_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?)`,
        args: [
          d.id,
          e.orgId,
          d.url,
          JSON.stringify(d.event_types),
          d.filter ? JSON.stringify(d.filter) : null,
          d.secret,
          d.secret_hint,
          d.after_position,
          d.created_at,
        ],
      });
      return;
    }
    case "WebhookRemoved":
      await tx.execute({
        sql: "UPDATE webhooks SET state = 'removed', removed_at = ? WHERE id = ?",
        args: [e.data.removed_at, e.data.id],
      });
      return;
    case "WebhookFilterSet":
      await tx.execute({
        sql: "UPDATE webhooks SET filter = ? WHERE id = ?",
        args: [e.data.filter ? JSON.stringify(e.data.filter) : null, e.data.id],
      });
      return;
    case "WebhookDisabled":
      await tx.execute({
        sql: "UPDATE webhooks SET state = 'disabled', disabled_at = ?, disabled_reason = ? WHERE id = ? AND state = 'active'",
        args: [e.data.disabled_at, e.data.reason, e.data.id],
      });
      return;
    case "WebhookEnabled":
      await tx.execute({
        sql: "UPDATE webhooks SET state = 'active' WHERE id = ? AND state = 'disabled'",
        args: [e.data.id],
      });
      return;
    case "WebhookMessageQueued": {
      const d = e.data;
      await tx.execute({
        sql: `INSERT INTO webhook_messages (id, seq, org_id, webhook_id, msg_id, type, body, state, next_attempt_at, queued_at)
              VALUES (?, ${EVENT_POSITION_SQL}, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
        args: [d.id, e.position, e.orgId, d.webhook_id, d.msg_id, d.type, d.body, d.queued_at, d.queued_at],
      });
      return;
    }
    case "WebhookAttempted": {
      const d = e.data;
      await tx.execute({
        sql: `UPDATE webhook_messages SET attempts = ?, last_attempt_at = ?, last_status = ?, state = ?,
                next_attempt_at = ?, last_error = ?, sent_at = COALESCE(?, sent_at)
              WHERE id = ?`,
        args: [
          d.attempt,
          d.at,
          d.status ?? null,
          d.ok ? "sent" : d.gave_up ? "failed" : "pending",
          d.next_attempt_at ?? null,
          d.ok ? null : (d.error ?? "failed"),
          d.ok ? d.at : null,
          d.id,
        ],
      });
      return;
    }
  }
}
