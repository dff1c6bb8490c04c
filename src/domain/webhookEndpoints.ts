// The commands on webhook endpoints (the Integrations page and the tools add_webhook, remove_webhook): load
// what the deciders in webhooks.ts need, then record what they decide.
import type { EventMetadata } from "../../events/catalog.ts";
import type { EventStore } from "../../events/store.ts";
import {
  decideAddWebhook,
  decideEnableWebhook,
  decideRemoveWebhook,
  secretHint,
  type WebhookFilter,
  type WebhookInput,
} from "./webhooks.ts";
import type { Exec } from "./workspace.ts";

export interface AddedWebhook {
  id: number;
  url: string;
  event_types: string[];
  filter?: WebhookFilter;
  /** Shown this once. */
  secret: string;
  secret_hint: string;
  created_at: string;
}

async function stateOf(tx: Exec, orgId: number, id: number): Promise<string | undefined> {
  const r = await tx.execute({
    sql: "SELECT state FROM webhooks WHERE id = ? AND org_id = ?",
    args: [id, orgId],
  });
  return r.rows[0] ? String(r.rows[0].state) : undefined;
}

/** Adds an endpoint with a new signing secret (`secret`, made by the caller). */
export async function addWebhook(
  store: EventStore,
  orgId: number,
  input: WebhookInput,
  secret: string,
  metadata: EventMetadata = {},
  unsafeOrigins: readonly string[] = [],
): Promise<AddedWebhook> {
  const { result } = await store.execute(async (w) => {
    const [count, last] = await Promise.all([
      w.tx.execute({
        sql: "SELECT COUNT(*) AS n FROM webhooks WHERE org_id = ? AND state != 'removed'",
        args: [orgId],
      }),
      w.tx.execute("SELECT COALESCE(MAX(position), 0) AS p FROM events"),
    ]);
    const id = await w.nextId();
    const events = decideAddWebhook(
      orgId,
      id,
      Number(count.rows[0].n),
      input,
      secret,
      Number(last.rows[0].p),
      w.now,
      unsafeOrigins,
    );
    const d = events[0].data as AddedWebhook;
    return {
      events,
      result: {
        id,
        url: d.url,
        event_types: d.event_types,
        ...(d.filter ? { filter: d.filter } : {}),
        secret,
        secret_hint: secretHint(secret),
        created_at: d.created_at,
      },
    };
  }, metadata);
  return result;
}

export async function removeWebhook(
  store: EventStore,
  orgId: number,
  id: number,
  metadata: EventMetadata = {},
) {
  await store.execute(async (w) => {
    const state = await stateOf(w.tx, orgId, id);
    return {
      events: decideRemoveWebhook(orgId, id, state !== undefined && state !== "removed", w.now),
      result: null,
    };
  }, metadata);
  return { id, removed: true };
}

export async function enableWebhook(
  store: EventStore,
  orgId: number,
  id: number,
  metadata: EventMetadata = {},
) {
  const { events } = await store.execute(async (w) => {
    const state = await stateOf(w.tx, orgId, id);
    return { events: decideEnableWebhook(orgId, id, state, w.now), result: null };
  }, metadata);
  return { changed: events.length > 0 };
}
