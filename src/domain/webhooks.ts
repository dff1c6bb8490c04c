// Webhook endpoints a workspace admin adds (docs/webhooks.md): the event types there are, what an endpoint is
// (an address, the types it wants, an optional filter), which events go to which endpoint, and what one try
// of a message records — retries with backoff for about a day, a receiver's Retry-After honoured, the endpoint
// disabled once a message has failed for that long. engine/deliver/webhooks.ts fans events out and sends.
import type { EventPayloads, NewEvent } from "../../events/catalog.ts";
import type { Actor, Command } from "../../events/command.ts";
import { fanoutPosition, moveFanout } from "../db/webhookFanout.ts";
import { checkWebhookUrl } from "./chat.ts";
import {
  checkRules,
  competitorMatches,
  type DeliveryRules,
  type RuleSubject,
  signalMatches,
} from "./deliveryRules.ts";
import { DomainError } from "./errors.ts";
import { InvalidInput } from "./validate.ts";

/** Every event type an endpoint can subscribe to, in the order the docs list them. */
export const WEBHOOK_EVENT_TYPES = [
  "signal.opened",
  "signal.updated",
  "signal.closed",
  "digest.generated",
  "battlecard.updated",
  "competitor.researched",
  "cycle.finished",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the message "Send a test event" sends; no endpoint subscribes to it. */
export const WEBHOOK_TEST_TYPE = "webhook.test";

/** Endpoints per workspace (each is read for every event). */
export const MAX_WEBHOOKS = 10;

/** Pauses after failed try 1, 2, …: about 28 hours from the first try to the last. */
export const WEBHOOK_BACKOFF_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_BACKOFF_SECONDS.length + 1;
/** The longest pause a receiver's Retry-After is followed for. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Which events of those subscribed go to an endpoint: the endpoint's delivery rules (deliveryRules.ts).
 * Signals match on competitor, category and severity; battlecards and research on their competitor; digests
 * and cycles always. */
export type WebhookFilter = DeliveryRules;

export interface WebhookInput {
  url: string;
  event_types: string[];
  filter?: WebhookFilter;
}

/** What the filter is matched against: known facts of the event's subject. */
export type WebhookSubject = RuleSubject;

const stream = (orgId: number, id: number) => ({
  orgId,
  streamType: "webhook" as const,
  streamId: String(id),
});

/** The event types asked for, each known; an unknown type is refused naming the valid ones. */
export function checkEventTypes(types: readonly string[]): WebhookEventType[] {
  if (types.length === 0)
    throw new InvalidInput(
      `event_types: name at least one of ${WEBHOOK_EVENT_TYPES.join(", ")}`,
      "event_types",
    );
  const unknown = types.filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length)
    throw new InvalidInput(
      `unknown event type${unknown.length > 1 ? "s" : ""} ${unknown.map((t) => JSON.stringify(t)).join(", ")}; the event types are ${WEBHOOK_EVENT_TYPES.join(", ")}`,
      "event_types",
    );
  return WEBHOOK_EVENT_TYPES.filter((t) => types.includes(t));
}

/** The masked hint list_webhooks and the page show of a secret: its type prefix and last four characters. */
export const secretHint = (secret: string) => `whsec_…${secret.slice(-4)}`;

/** A new endpoint. `secret` (whsec_ and base64) and `afterPosition` (the log's last position: events after it
 * are the endpoint's) are made by the caller. */
export function decideAddWebhook(
  orgId: number,
  id: number,
  existing: number,
  input: WebhookInput,
  secret: string,
  afterPosition: number,
  now: Date,
  unsafeOrigins: readonly string[] = [],
): NewEvent[] {
  if (existing >= MAX_WEBHOOKS)
    throw new DomainError(
      "limit_reached",
      `A workspace has at most ${MAX_WEBHOOKS} webhook endpoints; remove one first.`,
      { limit: MAX_WEBHOOKS },
    );
  const url = checkWebhookUrl(input.url, unsafeOrigins, "url");
  const event_types = checkEventTypes(input.event_types);
  const filter = checkRules(input.filter, "filter");
  return [
    {
      type: "WebhookAdded",
      ...stream(orgId, id),
      data: {
        id,
        url,
        event_types,
        ...(filter ? { filter } : {}),
        secret,
        secret_hint: secretHint(secret),
        after_position: afterPosition,
        created_at: now.toISOString(),
      },
    },
  ];
}

export function decideRemoveWebhook(orgId: number, id: number, found: boolean, now: Date): NewEvent[] {
  if (!found) throw new DomainError("not_found", `No webhook endpoint ${id} in this workspace.`);
  return [{ type: "WebhookRemoved", ...stream(orgId, id), data: { id, removed_at: now.toISOString() } }];
}

/** An admin turns a disabled endpoint back on: its waiting messages are sent again, oldest first. */
export function decideEnableWebhook(
  orgId: number,
  id: number,
  state: string | undefined,
  now: Date,
): NewEvent[] {
  if (state === undefined || state === "removed")
    throw new DomainError("not_found", `No webhook endpoint ${id} in this workspace.`);
  if (state === "active") return [];
  return [{ type: "WebhookEnabled", ...stream(orgId, id), data: { id, enabled_at: now.toISOString() } }];
}

/** Whether an event about `subject` goes to an endpoint with `filter`. */
export function webhookMatches(
  filter: WebhookFilter | undefined,
  type: string,
  subject: WebhookSubject,
): boolean {
  if (type === "digest.generated" || type === "cycle.finished") return true;
  return type.startsWith("signal.") ? signalMatches(filter, subject) : competitorMatches(filter, subject);
}

export type WebhookMessage = Omit<EventPayloads["WebhookMessageQueued"], "queued_at">;

/** Messages for endpoints, in the order given (an endpoint's messages are sent in this order). */
export function decideWebhookMessages(orgId: number, messages: WebhookMessage[], now: Date): NewEvent[] {
  return messages.map((m) => ({
    type: "WebhookMessageQueued",
    ...stream(orgId, m.webhook_id),
    data: { ...m, queued_at: now.toISOString() },
  }));
}

/** One try of a message: sent, due again after the backoff (or the receiver's Retry-After, when longer), or
 * given up after the last try — which disables the endpoint until an admin turns it on again. */
export function decideWebhookAttempted(
  orgId: number,
  m: { id: number; webhook_id: number },
  attempt: number,
  at: Date,
  result:
    | { ok: true; status: number }
    | { ok: false; status?: number; error: string; retryAfterSeconds?: number },
): NewEvent[] {
  const base = { id: m.id, webhook_id: m.webhook_id, attempt, at: at.toISOString() };
  if (result.ok)
    return [
      {
        type: "WebhookAttempted",
        ...stream(orgId, m.webhook_id),
        data: { ...base, ok: true, status: result.status },
      },
    ];
  const status = result.status !== undefined ? { status: result.status } : {};
  if (attempt >= WEBHOOK_MAX_ATTEMPTS)
    return [
      {
        type: "WebhookAttempted",
        ...stream(orgId, m.webhook_id),
        data: { ...base, ok: false, ...status, error: result.error, gave_up: true },
      },
      {
        type: "WebhookDisabled",
        ...stream(orgId, m.webhook_id),
        data: {
          id: m.webhook_id,
          disabled_at: at.toISOString(),
          reason: `A message failed ${attempt} times over a day; the last try: ${result.error}`,
        },
      },
    ];
  const backoff = WEBHOOK_BACKOFF_SECONDS[Math.min(attempt, WEBHOOK_BACKOFF_SECONDS.length) - 1];
  const asked =
    result.retryAfterSeconds !== undefined ? Math.min(result.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) : 0;
  const pause = Math.max(backoff, asked);
  return [
    {
      type: "WebhookAttempted",
      ...stream(orgId, m.webhook_id),
      data: {
        ...base,
        ok: false,
        ...status,
        error: result.error,
        next_attempt_at: new Date(at.getTime() + pause * 1000).toISOString(),
      },
    },
  ];
}

/** A Retry-After header as seconds from `now`: a number of seconds or an HTTP date; undefined when absent or
 * unreadable. */
export function retryAfterSeconds(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const v = header.trim();
  if (/^\d{1,10}$/.test(v)) return Number(v);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, Math.ceil((t - now.getTime()) / 1000));
}

export type WebhookAttemptResult =
  | { ok: true; status: number }
  | { ok: false; status?: number; error: string; retryAfterSeconds?: number };

/** Records one try of message `id` to endpoint `webhook_id` (decideWebhookAttempted); answers why the endpoint
 * was disabled, when this try disabled it. */
export const recordWebhookAttempt: Command<
  { id: number; webhook_id: number; attempt: number; at: Date; result: WebhookAttemptResult },
  null,
  { disabled?: string }
> = {
  load: async () => null,
  decide: (_st, input, { caller }) => {
    const events = decideWebhookAttempted(
      caller.orgId,
      { id: input.id, webhook_id: input.webhook_id },
      input.attempt,
      input.at,
      input.result,
    );
    const disabled = events.find((e) => e.type === "WebhookDisabled");
    return {
      events,
      result: disabled?.type === "WebhookDisabled" ? { disabled: disabled.data.reason } : {},
    };
  },
};

export interface QueueWebhookMessages {
  /** Messages of any workspace, in the order they are queued. */
  msgs: { orgId: number; m: Omit<WebhookMessage, "id"> }[];
  /** The fan-out's cursor must still be at `from`; it moves to `to` with the messages. */
  move?: { from: number | null; to: number };
  /** The fan-out's cursor must have reached this position (every event before it has been fanned out). */
  needCursorAt?: number;
}

function cursorAllows(cursor: number | null, input: QueueWebhookMessages): boolean {
  if (input.move && cursor !== input.move.from) return false;
  return input.needCursorAt === undefined || (cursor ?? 0) >= input.needCursorAt;
}

/** Queues messages, each under a new id, and moves the fan-out's cursor with them (`move`), unless the cursor
 * is not where the caller needs it (another instance moved it first): then nothing is queued or moved and the
 * answer is false. */
export const queueWebhookMessages: Command<
  QueueWebhookMessages,
  { cursor: number | null; ids: number[] },
  boolean,
  Actor
> = {
  load: async (w, input) => {
    const cursor = await fanoutPosition(w.tx);
    const ids: number[] = [];
    if (cursorAllows(cursor, input)) for (const _ of input.msgs) ids.push(await w.nextId());
    return { cursor, ids };
  },
  decide: (st, input, { now }) => {
    if (!cursorAllows(st.cursor, input)) return { events: [], result: false };
    const events = input.msgs.flatMap(({ orgId, m }, i) =>
      decideWebhookMessages(orgId, [{ id: st.ids[i], ...m }], now),
    );
    return { events, result: true };
  },
  write: async (w, _st, input, queued) => {
    if (queued && input.move) await moveFanout(w.tx, input.move.to);
    return queued;
  },
};
