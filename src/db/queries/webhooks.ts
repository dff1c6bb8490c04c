// What a workspace's webhook endpoints are and how their messages went (the Integrations page and
// list_webhooks). The signing secret is never read here: only its masked hint.
import type { WebhookFilter } from "../../domain/webhooks.ts";
import type { Exec } from "../client.ts";

export interface WebhookView {
  id: number;
  url: string;
  event_types: string[];
  filter?: WebhookFilter;
  secret_hint: string;
  state: "active" | "disabled";
  disabled_at?: string;
  disabled_reason?: string;
  created_at: string;
  pending: number;
}

export interface WebhookLogEntry {
  id: number;
  msg_id: string;
  type: string;
  state: "pending" | "sent" | "failed";
  attempts: number;
  queued_at: string;
  last_attempt_at?: string;
  last_status?: number;
  last_error?: string;
  next_attempt_at?: string;
}

/** The workspace's endpoints (not removed), oldest first. */
export async function listWebhooks(db: Exec, orgId: number): Promise<WebhookView[]> {
  const r = await db.execute({
    sql: `SELECT w.id, w.url, w.event_types, w.filter, w.secret_hint, w.state, w.disabled_at, w.disabled_reason,
            w.created_at,
            (SELECT COUNT(*) FROM webhook_messages m WHERE m.webhook_id = w.id AND m.state = 'pending') AS pending
          FROM webhooks w WHERE w.org_id = ? AND w.state != 'removed' ORDER BY w.id LIMIT 20`,
    args: [orgId],
  });
  return r.rows.map((x) => ({
    id: Number(x.id),
    url: String(x.url),
    event_types: JSON.parse(String(x.event_types)),
    ...(x.filter ? { filter: JSON.parse(String(x.filter)) } : {}),
    secret_hint: String(x.secret_hint),
    state: x.state === "disabled" ? "disabled" : "active",
    ...(x.disabled_at
      ? { disabled_at: String(x.disabled_at), disabled_reason: String(x.disabled_reason) }
      : {}),
    created_at: String(x.created_at),
    pending: Number(x.pending),
  }));
}

/** An endpoint's newest messages (at most `limit`), newest first. */
export async function webhookLog(
  db: Exec,
  orgId: number,
  webhookId: number,
  limit = 20,
): Promise<WebhookLogEntry[]> {
  const r = await db.execute({
    sql: `SELECT id, msg_id, type, state, attempts, queued_at, last_attempt_at, last_status, last_error, next_attempt_at
          FROM webhook_messages WHERE webhook_id = ? AND org_id = ? ORDER BY id DESC LIMIT ?`,
    args: [webhookId, orgId, limit],
  });
  return r.rows.map((x) => ({
    id: Number(x.id),
    msg_id: String(x.msg_id),
    type: String(x.type),
    state: String(x.state) as WebhookLogEntry["state"],
    attempts: Number(x.attempts),
    queued_at: String(x.queued_at),
    ...(x.last_attempt_at ? { last_attempt_at: String(x.last_attempt_at) } : {}),
    ...(x.last_status !== null && x.last_status !== undefined ? { last_status: Number(x.last_status) } : {}),
    ...(x.last_error ? { last_error: String(x.last_error) } : {}),
    ...(x.next_attempt_at && x.state === "pending" ? { next_attempt_at: String(x.next_attempt_at) } : {}),
  }));
}

/** A webhook's state in a workspace, if it has that webhook. */
export async function webhookStateOf(db: Exec, orgId: number, id: number): Promise<string | undefined> {
  const r = await db.execute({
    sql: "SELECT state FROM webhooks WHERE id = ? AND org_id = ?",
    args: [id, orgId],
  });
  return r.rows[0] ? String(r.rows[0].state) : undefined;
}

/** How many webhooks a workspace has that are not removed (what its webhook limit counts). */
export async function activeWebhookCount(db: Exec, orgId: number): Promise<number> {
  const r = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM webhooks WHERE org_id = ? AND state != 'removed'",
    args: [orgId],
  });
  return Number(r.rows[0].n);
}

/** The log's last position: a new webhook is sent what is appended after it. */
export async function lastEventPosition(db: Exec): Promise<number> {
  const r = await db.execute("SELECT COALESCE(MAX(position), 0) AS p FROM events");
  return Number(r.rows[0].p);
}

/** A workspace's webhooks that are not removed, with their filters (delivery rules), at most 100. */
export async function webhookFilters<R>(db: Exec, orgId: number): Promise<Map<number, R | null>> {
  const r = await db.execute({
    sql: "SELECT id, filter FROM webhooks WHERE org_id = ? AND state != 'removed' LIMIT 100",
    args: [orgId],
  });
  return new Map(r.rows.map((x) => [Number(x.id), x.filter ? (JSON.parse(String(x.filter)) as R) : null]));
}
