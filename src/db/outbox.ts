// The delivery outbox: the deliveries a cycle queued (a projection) and the claims instances take on them
// (delivery_claims, an operational table), and what delivery reads to address and describe them. The rules
// (who gets what, retries) are src/engine/deliver/outbox.ts.
import type { Row } from "@libsql/client";
import { claim, release } from "./claims.ts";
import { type Exec, found } from "./client.ts";

/** The workspace's admins' addresses (at most 100). */
export async function adminEmails(db: Exec, orgId: number): Promise<string[]> {
  const r = await db.execute({
    sql: `SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.org_id = ? AND m.role = 'admin' ORDER BY u.email LIMIT 100`,
    args: [orgId],
  });
  return r.rows.map((x) => String(x.email));
}

/** What delivery rules are matched against, for each of the signals `ids`. */
export async function ruleSubjects(
  db: Exec,
  orgId: number,
  ids: number[],
): Promise<
  Map<
    number,
    { competitor_id: number | null; severity: string | null; category: string | null; watch: string | null }
  >
> {
  const r = await db.execute({
    sql: `SELECT s.id, s.competitor_id, s.severity, json_extract(s.doc, '$.category') AS category, c.watch
          FROM signals s LEFT JOIN competitors c ON c.id = s.competitor_id AND c.org_id = s.org_id
          WHERE s.org_id = ? AND s.id IN (${ids.map(() => "?").join(", ")})`,
    args: [orgId, ...ids],
  });
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return new Map(
    r.rows.map((x) => [
      Number(x.id),
      {
        competitor_id: x.competitor_id === null ? null : Number(x.competitor_id),
        severity: str(x.severity),
        category: str(x.category),
        watch: str(x.watch),
      },
    ]),
  );
}

/** Whether the cycle already queued a delivery to this recipient on this channel. */
export async function deliveryQueued(
  tx: Exec,
  d: { orgId: number; cycleId: number; channel: string; recipient: string },
): Promise<boolean> {
  return found(tx, {
    sql: "SELECT id FROM deliveries WHERE org_id = ? AND cycle_id = ? AND channel = ? AND recipient = ?",
    args: [d.orgId, d.cycleId, d.channel, d.recipient],
  });
}

/** Claims a delivery for `holder` until `until`, unless another's claim holds at `now`. */
export function claimDelivery(db: Exec, id: number, holder: string, until: string, now: string) {
  return claim(db, "delivery_claims", id, holder, until, now);
}

export function releaseDelivery(db: Exec, id: number, holder: string): Promise<void> {
  return release(db, "delivery_claims", id, holder);
}

/** The pending deliveries due at `now` (of one workspace or cycle, when given), at most 50, most overdue first. */
export async function deliveriesDue(
  db: Exec,
  now: string,
  scope: { orgId?: number; cycleId?: number },
): Promise<Row[]> {
  const r = await db.execute({
    sql: `SELECT id, org_id, channel, recipient, signal_ids, attempts FROM deliveries
          WHERE state = 'pending' AND next_attempt_at <= ?
            ${scope.orgId !== undefined ? "AND org_id = ?" : ""} ${scope.cycleId !== undefined ? "AND cycle_id = ?" : ""}
          ORDER BY next_attempt_at LIMIT 50`,
    args: [
      now,
      ...(scope.orgId !== undefined ? [scope.orgId] : []),
      ...(scope.cycleId !== undefined ? [scope.cycleId] : []),
    ],
  });
  return r.rows;
}

/** A channel's last success, its newest failure and how many deliveries are pending. */
export async function channelDeliveries(
  db: Exec,
  orgId: number,
  channel: string,
): Promise<{ lastSentAt?: string; lastFailure?: Row; pending: number }> {
  const [ok, bad, pending] = await Promise.all([
    db.execute({
      sql: `SELECT sent_at FROM deliveries WHERE org_id = ? AND channel = ? AND state = 'sent'
            ORDER BY id DESC LIMIT 1`,
      args: [orgId, channel],
    }),
    db.execute({
      sql: `SELECT last_attempt_at, last_error, attempts, next_attempt_at, state FROM deliveries
            WHERE org_id = ? AND channel = ? AND last_error IS NOT NULL ORDER BY id DESC LIMIT 1`,
      args: [orgId, channel],
    }),
    db.execute({
      sql: "SELECT COUNT(*) AS n FROM deliveries WHERE org_id = ? AND channel = ? AND state = 'pending'",
      args: [orgId, channel],
    }),
  ]);
  return {
    ...(ok.rows[0] ? { lastSentAt: String(ok.rows[0].sent_at) } : {}),
    ...(bad.rows[0] ? { lastFailure: bad.rows[0] } : {}),
    pending: Number(pending.rows[0].n),
  };
}
