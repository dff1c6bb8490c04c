// Webhooks' fan-out and sending: the endpoints, the fan-out's position in the event log (webhook_fanout, an
// operational table), the log past it, the endpoints' waiting messages (a projection) and the claims instances
// take on an endpoint (delivery_claims). The rules are src/engine/deliver/webhooks.ts.
import type { Row } from "@libsql/client";
import { claim, release } from "./claims.ts";
import { type Exec, found } from "./client.ts";

/** The endpoints not removed (of one workspace, or all; at most 10,000). */
export async function liveWebhooks(db: Exec, orgId?: number): Promise<Row[]> {
  const r = await db.execute({
    sql: `SELECT id, org_id, event_types, filter, after_position FROM webhooks
          WHERE state != 'removed' ${orgId !== undefined ? "AND org_id = ?" : ""} ORDER BY id LIMIT 10000`,
    args: orgId !== undefined ? [orgId] : [],
  });
  return r.rows;
}

/** Whether the workspace has the endpoint (not removed). */
export async function hasWebhook(db: Exec, orgId: number, webhookId: number): Promise<boolean> {
  return found(db, {
    sql: "SELECT 1 FROM webhooks WHERE id = ? AND org_id = ? AND state != 'removed'",
    args: [webhookId, orgId],
  });
}

/** A competitor's watch (core or horizon), null when the workspace has no such competitor. */
export async function watchOfCompetitor(
  db: Exec,
  orgId: number,
  competitorId: number,
): Promise<string | null> {
  const r = await db.execute({
    sql: "SELECT watch FROM competitors WHERE id = ? AND org_id = ?",
    args: [competitorId, orgId],
  });
  return r.rows[0] ? String(r.rows[0].watch) : null;
}

/** The fan-out's position in the log (null: it has not started). */
export async function fanoutPosition(db: Exec): Promise<number | null> {
  const r = await db.execute({ sql: "SELECT position FROM webhook_fanout WHERE id = 1", args: [] });
  return r.rows[0] ? Number(r.rows[0].position) : null;
}

export async function moveFanout(tx: Exec, position: number): Promise<void> {
  await tx.execute({
    sql: `INSERT INTO webhook_fanout (id, position) VALUES (1, ?)
          ON CONFLICT (id) DO UPDATE SET position = excluded.position`,
    args: [position],
  });
}

/** The log's last position (0 when it is empty). */
export async function logEnd(db: Exec): Promise<number> {
  const r = await db.execute({ sql: "SELECT COALESCE(MAX(position), 0) AS p FROM events", args: [] });
  return Number(r.rows[0].p);
}

/** The log's events of `types` in (after, through], in order, at most `limit`. */
export async function logEventsBetween(
  db: Exec,
  after: number,
  through: number,
  types: readonly string[],
  limit: number,
): Promise<Row[]> {
  const r = await db.execute({
    sql: `SELECT position, org_id, type, data, recorded_at FROM events
          WHERE position > ? AND position <= ? AND type IN (${types.map(() => "?").join(", ")})
          ORDER BY position LIMIT ${Math.floor(limit)}`,
    args: [after, through, ...types],
  });
  return r.rows;
}

/** Claims an endpoint's sending for `holder` until `until`, unless another's claim holds at `now` (the
 * holder's own claim is renewed). */
export function claimEndpoint(db: Exec, webhookId: number, holder: string, until: string, now: string) {
  return claim(db, "delivery_claims", webhookId, holder, until, now, true);
}

export function releaseEndpoint(db: Exec, webhookId: number, holder: string): Promise<void> {
  return release(db, "delivery_claims", webhookId, holder);
}

/** The endpoint's oldest waiting message with the endpoint's address and secret, if the endpoint is active. */
export async function endpointHead(db: Exec, webhookId: number): Promise<Row | undefined> {
  const r = await db.execute({
    sql: `SELECT m.id, m.org_id, m.msg_id, m.body, m.attempts, m.next_attempt_at, w.url, w.secret
          FROM webhook_messages m JOIN webhooks w ON w.id = m.webhook_id
          WHERE m.webhook_id = ? AND m.state = 'pending' AND w.state = 'active' ORDER BY m.seq LIMIT 1`,
    args: [webhookId],
  });
  return r.rows[0];
}

/** The active endpoints whose oldest waiting message is due at `now` (of one workspace, or all; at most 100). */
export async function endpointsDue(db: Exec, now: string, orgId?: number): Promise<number[]> {
  const r = await db.execute({
    sql: `SELECT DISTINCT m.webhook_id FROM webhook_messages m JOIN webhooks w ON w.id = m.webhook_id
          WHERE m.state = 'pending' AND w.state = 'active' AND m.next_attempt_at <= ?
            ${orgId !== undefined ? "AND m.org_id = ?" : ""}
            AND m.seq = (SELECT MIN(x.seq) FROM webhook_messages x WHERE x.webhook_id = m.webhook_id AND x.state = 'pending')
          LIMIT 100`,
    args: [now, ...(orgId !== undefined ? [orgId] : [])],
  });
  return r.rows.map((row) => Number(row.webhook_id));
}
