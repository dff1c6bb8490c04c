// Delivery of a finished cycle (docs/engine/deliver.md): an outbox in the event log. The cycle's after-step
// queues one delivery per channel and recipient (DeliveryQueued: unique per cycle, channel and recipient),
// then every due delivery is sent by whichever instance claims it (delivery_claims), and each try is recorded
// (DeliveryAttempted) with the next try's time (backoff) or the final failure. A delivery is recorded sent
// only after the receiver accepted it; a stop between sending and recording is the one window where it could
// be sent again.
import { randomUUID } from "node:crypto";
import { runCommand } from "../../../events/command.ts";
import {
  adminEmails,
  channelDeliveries,
  claimDelivery,
  deliveriesDue,
  releaseDelivery,
  ruleSubjects,
} from "../../db/outbox.ts";
import { type DeliveryChannel, deliveryView } from "../../domain/delivery.ts";
import { signalMatches } from "../../domain/deliveryRules.ts";
import { byMateriality } from "../../domain/materiality.ts";
import { queueDeliveries, recordDeliveryAttempt } from "../../domain/outbox.ts";
import { loadSettings } from "../../domain/workspace.ts";
import { mailConfigured, sendMail } from "../../mail/mailer.ts";
import type { Services } from "../../services.ts";
import type { AfterCycleStep } from "../cycle/types.ts";
import { digestSignalsOf } from "../digests/signals.ts";
import { linkBase } from "../linkBase.ts";
import { postToChat } from "./chat.ts";
import { composeEmail, composeSlack, composeTeams, type DeliverySignal } from "./compose.ts";

const CLAIM_MS = 120_000;
const INSTANCE = randomUUID();

/** The after-cycle step: a cycle that created signals is queued for each channel the workspace delivers to,
 * each with the signals its rules let through (a channel whose rules keep none gets nothing). */
export const queueCycleDelivery: AfterCycleStep = async (s, cycle) => {
  const created = cycle.signalIds.created;
  if (created.length === 0) return { deliveries: 0 };
  // The channels in effect, by the same rule get_delivery_settings reports (defaults, plan, chat connection).
  const view = deliveryView(await loadSettings(s.database, cycle.orgId), mailConfigured(s.config));
  const subjects = await ruleSubjects(s.database, cycle.orgId, created);
  const idsFor = (channel: DeliveryChannel) =>
    created.filter((id) => signalMatches(view.rules[channel], subjects.get(id) ?? {}));
  const recipients: { channel: DeliveryChannel; recipient: string; signal_ids: number[] }[] = [];
  if (view.email && idsFor("email").length)
    for (const to of await adminEmails(s.database, cycle.orgId))
      recipients.push({ channel: "email", recipient: to, signal_ids: idsFor("email") });
  if (view.slack && idsFor("slack").length)
    recipients.push({ channel: "slack", recipient: "webhook", signal_ids: idsFor("slack") });
  if (view.teams && idsFor("teams").length)
    recipients.push({ channel: "teams", recipient: "webhook", signal_ids: idsFor("teams") });
  if (recipients.length > 0)
    await runCommand(
      s.store,
      queueDeliveries,
      { cycleId: cycle.id, recipients },
      { caller: { orgId: cycle.orgId, actor: "engine" }, metadata: { source: "engine" } },
    );
  const sent = await deliverDue(s, { orgId: cycle.orgId, cycleId: cycle.id });
  return { deliveries: sent };
};

async function claim(s: Services, id: number, now: Date): Promise<boolean> {
  return claimDelivery(
    s.database,
    id,
    INSTANCE,
    new Date(now.getTime() + CLAIM_MS).toISOString(),
    now.toISOString(),
  );
}

/** The cycle's signals, most material first (the digest's order: its headline leads the subject). */
async function signalsOf(s: Services, orgId: number, ids: number[]): Promise<DeliverySignal[]> {
  const found = await digestSignalsOf(s.database, orgId, ids);
  return found.sort(byMateriality).map((x) => ({
    id: x.id,
    competitor: x.competitor_id === null ? "Unattributed" : x.competitor,
    title: x.title,
    ...(x.severity ? { severity: x.severity } : {}),
    ...(x.source_url ? { source_url: x.source_url } : {}),
  }));
}

async function send(
  s: Services,
  orgId: number,
  channel: string,
  recipient: string,
  ids: number[],
): Promise<void> {
  const st = await loadSettings(s.database, orgId);
  const signals = await signalsOf(s, orgId, ids);
  const base = await linkBase(s);
  if (channel === "email") {
    const mail = composeEmail(st.name, signals, base);
    await sendMail(s.config, { to: recipient, ...mail });
    return;
  }
  if (channel === "teams") {
    const res = await postToChat(s, orgId, composeTeams(st.name, signals, base), "teams");
    if (!res)
      throw new Error("no Microsoft Teams connection (connect one in the app under Settings → Monitoring)");
    if (!res.ok) throw new Error(`the webhook answered ${res.status ?? res.error}: ${res.message}`);
    return;
  }
  const res = await postToChat(s, orgId, composeSlack(st.name, signals, base));
  if (!res)
    throw new Error("no team-chat connection (connect one in the app or with rivals org connect-chat)");
  if (!res.ok) throw new Error(`the webhook answered ${res.status ?? res.error}: ${res.message}`);
}

/**
 * Sends the deliveries that are due (of one org or cycle, or all), each claimed so that one instance sends it,
 * and records every try. Returns how many were sent now.
 */
export async function deliverDue(
  s: Services,
  scope: { orgId?: number; cycleId?: number } = {},
): Promise<number> {
  const now = s.clock();
  const due = await deliveriesDue(s.database, now.toISOString(), scope);
  let sent = 0;
  for (const row of due) {
    const id = Number(row.id);
    const orgId = Number(row.org_id);
    if (!(await claim(s, id, now))) continue;
    const attempt = Number(row.attempts) + 1;
    let error: string | undefined;
    try {
      await send(s, orgId, String(row.channel), String(row.recipient), JSON.parse(String(row.signal_ids)));
    } catch (e) {
      error = (e instanceof Error ? e.message : String(e)).slice(0, 500) || "failed";
    }
    const at = s.clock();
    await runCommand(
      s.store,
      recordDeliveryAttempt,
      { id, attempt, at, error },
      { caller: { orgId, actor: "engine" }, metadata: { source: "engine" } },
    );
    await releaseDelivery(s.database, id, INSTANCE);
    if (error === undefined) sent++;
    else
      console.warn(JSON.stringify({ level: "warn", msg: "delivery failed", delivery: id, attempt, error }));
  }
  return sent;
}

export interface ChannelStatus {
  last_success_at?: string;
  /** The newest delivery that has not gone through: retrying (`next_attempt_at`) or given up. */
  last_failure?: { at: string; error: string; attempts: number; next_attempt_at?: string; gave_up: boolean };
  pending: number;
}

/** Per channel: the last success, the newest failure still open or given up, and how many are pending. */
export async function deliveryStatus(
  s: Services,
  orgId: number,
): Promise<Record<"email" | "slack" | "teams", ChannelStatus>> {
  const out = {} as Record<"email" | "slack" | "teams", ChannelStatus>;
  for (const channel of ["email", "slack", "teams"] as const) {
    const { lastSentAt, lastFailure: b, pending } = await channelDeliveries(s.database, orgId, channel);
    out[channel] = {
      ...(lastSentAt ? { last_success_at: lastSentAt } : {}),
      ...(b
        ? {
            last_failure: {
              at: String(b.last_attempt_at),
              error: String(b.last_error),
              attempts: Number(b.attempts),
              ...(b.next_attempt_at && b.state === "pending"
                ? { next_attempt_at: String(b.next_attempt_at) }
                : {}),
              gave_up: b.state === "failed",
            },
          }
        : {}),
      pending,
    };
  }
  return out;
}
