// Webhook delivery (docs/webhooks.md): an outbox in the event log. The fan-out reads the log past its cursor
// and queues one message per subscribed endpoint (WebhookMessageQueued, moving the cursor in the same
// transaction, so each event is queued once however many instances read); a cycle's end queues cycle.finished
// after its own events. Each endpoint's messages are sent in log order by whichever instance claims the endpoint
// (delivery_claims), signed (webhookSign.ts), through the one fetcher's webhook guard, and every try is recorded
// (WebhookAttempted). A message is recorded sent only after the receiver accepted it: at least once.
import { randomUUID } from "node:crypto";
import { runCommand } from "../../../events/command.ts";
import { adminEmails } from "../../db/outbox.ts";
import { getBattlecard } from "../../db/queries/battlecards.ts";
import { getCompetitor } from "../../db/queries/competitors.ts";
import { getDigest } from "../../db/queries/digests.ts";
import { getSignal } from "../../db/queries/signals.ts";
import {
  claimEndpoint,
  endpointHead,
  endpointsDue,
  fanoutPosition,
  hasWebhook,
  liveWebhooks,
  logEnd,
  logEventsBetween,
  releaseEndpoint,
  watchOfCompetitor,
} from "../../db/webhookFanout.ts";
import { DomainError } from "../../domain/errors.ts";
import {
  queueWebhookMessages,
  recordWebhookAttempt,
  retryAfterSeconds,
  WEBHOOK_TEST_TYPE,
  type WebhookEventType,
  type WebhookFilter,
  type WebhookMessage,
  type WebhookSubject,
  webhookMatches,
} from "../../domain/webhooks.ts";
import { loadSettings } from "../../domain/workspace.ts";
import { mailConfigured, sendMail } from "../../mail/mailer.ts";
import type { Services } from "../../services.ts";
import type { AfterCycleStep, FinishedCycle } from "../cycle/types.ts";
import { fetcherFor } from "../fetch/index.ts";
import { linkBase } from "../linkBase.ts";
import { webhookHeaders } from "./webhookSign.ts";

/** How long a claim on an endpoint lasts: renewed before each message, it outlives one send (the fetcher's
 * time limit over headers and body, twice) and then lets another instance go on after a stop. */
const claimMs = (s: Services) => Math.max(10_000, 2 * s.config.fetchTimeoutMs + 5_000);
const BATCH = 200;
/** Messages sent to one endpoint in one round before another round (and another instance) may go on. */
const PER_ROUND = 50;
/** Each Services is one instance: its name in claims, and the endpoints it is sending to now (a claim is per
 * instance; this keeps two rounds of one instance from sending to one endpoint side by side). */
const instances = new WeakMap<Services, { name: string; busy: Set<number> }>();
function instanceOf(s: Services) {
  let i = instances.get(s);
  if (!i) {
    i = { name: randomUUID(), busy: new Set() };
    instances.set(s, i);
  }
  return i;
}

/** Log events and the webhook event type each is. */
const FROM_LOG: Record<string, WebhookEventType> = {
  SignalDetected: "signal.opened",
  SignalEvidenceAdded: "signal.updated",
  SignalClosed: "signal.closed",
  DigestRecorded: "digest.generated",
  BattlecardGenerated: "battlecard.updated",
  BattlecardProposalAccepted: "battlecard.updated",
  BattlecardEdited: "battlecard.updated",
  ResearchFinished: "competitor.researched",
};
const LOG_TYPES = Object.keys(FROM_LOG);

interface Hook {
  id: number;
  orgId: number;
  types: string[];
  filter?: WebhookFilter;
  after: number;
}

type Obj = Record<string, unknown>;

const msgId = () => `msg_${randomUUID().replace(/-/g, "")}`;

/** The JSON body of a message: what is sent and signed on every try. */
export const messageBody = (type: string, id: string, createdAt: string, data: Obj) =>
  JSON.stringify({ type, id, created_at: createdAt, data });

async function hooks(s: Services, orgId?: number): Promise<Hook[]> {
  return (await liveWebhooks(s.database, orgId)).map((x) => ({
    id: Number(x.id),
    orgId: Number(x.org_id),
    types: JSON.parse(String(x.event_types)),
    ...(x.filter ? { filter: JSON.parse(String(x.filter)) } : {}),
    after: Number(x.after_position),
  }));
}

async function watchOf(s: Services, orgId: number, competitorId: unknown): Promise<string | null> {
  if (typeof competitorId !== "number") return null;
  return watchOfCompetitor(s.database, orgId, competitorId);
}

/** The read API's object an event is about, and what a filter matches on; undefined when it is not served. */
async function subjectOf(
  s: Services,
  orgId: number,
  type: WebhookEventType,
  data: Obj,
): Promise<{ data: Obj; subject: WebhookSubject } | undefined> {
  const db = s.database.db;
  const base = await linkBase(s);
  let doc: Obj | undefined;
  if (type.startsWith("signal.")) doc = await getSignal(db, orgId, Number(data.id), base);
  else if (type === "digest.generated") doc = await getDigest(db, orgId, String(data.id), base);
  else if (type === "battlecard.updated")
    doc = await getBattlecard(db, orgId, Number(data.id), base, "battlecard");
  else if (type === "competitor.researched")
    doc = await getCompetitor(db, orgId, Number(data.competitor_id), base);
  if (!doc) return undefined;
  const competitorId = type === "competitor.researched" ? doc.id : doc.competitor_id;
  return {
    data: doc,
    subject: {
      competitor_id: typeof competitorId === "number" ? competitorId : null,
      watch: await watchOf(s, orgId, competitorId),
      category: typeof doc.category === "string" ? doc.category : null,
      severity: typeof doc.severity === "string" ? doc.severity : null,
    },
  };
}

async function cursorOf(s: Services): Promise<number | null> {
  return fanoutPosition(s.database);
}

/** Queues messages (each with a new id) and moves the cursor from `from` to `to`, unless another instance
 * moved it first (then nothing is written and false is answered). */
async function commit(
  s: Services,
  msgs: { orgId: number; m: Omit<WebhookMessage, "id"> }[],
  move?: { from: number | null; to: number },
  needCursorAt?: number,
): Promise<boolean> {
  return runCommand(
    s.store,
    queueWebhookMessages,
    { msgs, move, needCursorAt },
    { caller: { actor: "engine" }, metadata: { source: "engine" } },
  );
}

/** Reads the log past the cursor and queues a message for each endpoint that wants an event. Returns how many
 * messages were queued. */
export async function fanOut(s: Services): Promise<number> {
  let queued = 0;
  for (let round = 0; round < 20; round++) {
    const all = await hooks(s);
    if (all.length === 0) return queued;
    const cur = await cursorOf(s);
    // Events up to the oldest endpoint's start belong to no endpoint.
    const start = Math.max(cur ?? 0, Math.min(...all.map((h) => h.after)));
    const end = await logEnd(s.database);
    if (end <= start) {
      if (cur === null || cur < start) await commit(s, [], { from: cur, to: start });
      return queued;
    }
    const rows = await logEventsBetween(s.database, start, end, LOG_TYPES, BATCH);
    const through = rows.length === BATCH ? Number(rows[BATCH - 1].position) : end;
    const msgs: { orgId: number; m: Omit<WebhookMessage, "id"> }[] = [];
    for (const row of rows) {
      const orgId = Number(row.org_id);
      const position = Number(row.position);
      const type = FROM_LOG[String(row.type)];
      const wanting = all.filter((h) => h.orgId === orgId && h.after < position && h.types.includes(type));
      if (wanting.length === 0) continue;
      const found = await subjectOf(s, orgId, type, JSON.parse(String(row.data)));
      if (!found) continue;
      for (const h of wanting) {
        if (!webhookMatches(h.filter, type, found.subject)) continue;
        const id = msgId();
        msgs.push({
          orgId,
          m: {
            webhook_id: h.id,
            msg_id: id,
            type,
            body: messageBody(type, id, String(row.recorded_at), found.data),
          },
        });
      }
    }
    if (await commit(s, msgs, { from: cur, to: through })) queued += msgs.length;
    if (through >= end) return queued;
  }
  return queued;
}

/** A cycle's cycle.finished: what it checked and the signals it opened, updated and closed. */
function cycleData(base: string, c: FinishedCycle): Obj {
  return {
    id: c.id,
    started_at: c.startedAt,
    finished_at: c.finishedAt,
    competitors_checked: c.competitorIds.length,
    signals_opened: c.signalIds.created,
    signals_updated: c.signalIds.updated,
    signals_closed: c.signalIds.closed,
    url: `${base}/app/`,
  };
}

/** The after-cycle step: the cycle's events are queued (the fan-out past the cycle's last event), then its
 * cycle.finished, then what is due is sent. */
export const queueCycleWebhooks: AfterCycleStep = async (s, cycle) => {
  const wanting = (await hooks(s, cycle.orgId)).filter((h) => h.types.includes("cycle.finished"));
  const mark = await logEnd(s.database);
  let queued = await fanOut(s);
  if (wanting.length) {
    const data = cycleData(await linkBase(s), cycle);
    const msgs = wanting.map((h) => {
      const id = msgId();
      return {
        orgId: cycle.orgId,
        m: {
          webhook_id: h.id,
          msg_id: id,
          type: "cycle.finished",
          body: messageBody("cycle.finished", id, cycle.finishedAt, data),
        },
      };
    });
    // Queued only once every event of the cycle has been (another instance's fan-out may be on it).
    for (let i = 0; i < 10; i++) {
      if (await commit(s, msgs, undefined, mark)) {
        queued += msgs.length;
        break;
      }
      await fanOut(s);
    }
  }
  if (queued > 0) await deliverWebhooks(s, { orgId: cycle.orgId });
  return {};
};

/** "Send a test event": a webhook.test message queued behind the endpoint's others, then sent. */
export async function sendTestEvent(s: Services, orgId: number, webhookId: number): Promise<void> {
  if (!(await hasWebhook(s.database, orgId, webhookId)))
    throw new DomainError("not_found", `No webhook endpoint ${webhookId} in this workspace.`);
  const id = msgId();
  const body = messageBody(WEBHOOK_TEST_TYPE, id, s.clock().toISOString(), {
    webhook_id: webhookId,
    message: "A test event from Rivals: this endpoint receives and verifies its messages.",
    url: `${await linkBase(s)}/app/settings/integrations`,
  });
  await commit(s, [{ orgId, m: { webhook_id: webhookId, msg_id: id, type: WEBHOOK_TEST_TYPE, body } }]);
  await deliverWebhooks(s, { orgId });
}

async function claim(s: Services, webhookId: number, now: Date): Promise<boolean> {
  const until = new Date(now.getTime() + claimMs(s)).toISOString();
  return claimEndpoint(s.database, webhookId, instanceOf(s).name, until, now.toISOString());
}

async function release(s: Services, webhookId: number) {
  await releaseEndpoint(s.database, webhookId, instanceOf(s).name);
}

/** The admins are told by email (where the server sends email) that an endpoint was disabled; the
 * Integrations page says so too. */
async function tellDisabled(s: Services, orgId: number, url: string, reason: string) {
  if (!mailConfigured(s.config)) return;
  const st = await loadSettings(s.database, orgId);
  const page = `${await linkBase(s)}/app/settings/integrations`;
  for (const to of await adminEmails(s.database, orgId)) {
    try {
      await sendMail(s.config, {
        to,
        subject: `[Rivals] ${st.name}: a webhook endpoint was disabled`.slice(0, 240),
        text: `Rivals stopped sending to the webhook endpoint ${url} of ${st.name}.\n\n${reason}\n\nIts waiting messages are kept. Turn it on again on the Integrations page once it answers: ${page}\n`,
      });
    } catch (e) {
      console.warn(
        JSON.stringify({ level: "warn", msg: "webhook notice not sent", error: (e as Error).message }),
      );
    }
  }
}

interface Head {
  id: number;
  orgId: number;
  webhookId: number;
  msgId: string;
  body: string;
  attempts: number;
  due: string;
  url: string;
  secret: string;
}

/** The endpoint's oldest waiting message, if the endpoint is active. */
async function headOf(s: Services, webhookId: number): Promise<Head | undefined> {
  const x = await endpointHead(s.database, webhookId);
  if (!x) return undefined;
  return {
    id: Number(x.id),
    orgId: Number(x.org_id),
    webhookId,
    msgId: String(x.msg_id),
    body: String(x.body),
    attempts: Number(x.attempts),
    due: String(x.next_attempt_at),
    url: String(x.url),
    secret: String(x.secret),
  };
}

/** Sends one endpoint's due messages in order, stopping at the first that fails. Returns how many were sent. */
async function deliverEndpoint(s: Services, webhookId: number): Promise<number> {
  const { busy } = instanceOf(s);
  if (busy.has(webhookId)) return 0;
  busy.add(webhookId);
  let sent = 0;
  try {
    for (let i = 0; i < PER_ROUND; i++) {
      const now = s.clock();
      if (!(await claim(s, webhookId, now))) return sent;
      const head = await headOf(s, webhookId);
      if (!head || head.due > now.toISOString()) return sent;
      const res = await fetcherFor(s.config, "webhook").fetch({
        url: head.url,
        method: "POST",
        headers: webhookHeaders(head.secret, head.msgId, now, head.body),
        body: head.body,
        robots: false,
        maxRedirects: 0,
      });
      const at = s.clock();
      const result = res.ok
        ? { ok: true as const, status: res.status }
        : {
            ok: false as const,
            ...(res.status !== undefined ? { status: res.status } : {}),
            error: (res.status !== undefined ? res.message : `${res.error}: ${res.message}`).slice(0, 300),
            retryAfterSeconds: retryAfterSeconds(res.retryAfter, at),
          };
      const { disabled } = await runCommand(
        s.store,
        recordWebhookAttempt,
        { id: head.id, webhook_id: webhookId, attempt: head.attempts + 1, at, result },
        { caller: { orgId: head.orgId, actor: "engine" }, metadata: { source: "engine" } },
      );
      if (disabled !== undefined) await tellDisabled(s, head.orgId, head.url, disabled);
      if (!res.ok) return sent;
      sent++;
    }
    return sent;
  } finally {
    busy.delete(webhookId);
    await release(s, webhookId);
  }
}

/** Sends every active endpoint's due messages (of one org, or all), endpoints side by side. Returns how many
 * messages were sent now. */
export async function deliverWebhooks(s: Services, scope: { orgId?: number } = {}): Promise<number> {
  const now = s.clock().toISOString();
  const due = await endpointsDue(s.database, now, scope.orgId);
  const counts = await Promise.all(due.map((id) => deliverEndpoint(s, id)));
  return counts.reduce((a, b) => a + b, 0);
}

/** One round of the loop: the log's new events queued, then what is due sent. */
export async function webhookRound(s: Services): Promise<number> {
  await fanOut(s);
  return deliverWebhooks(s);
}
