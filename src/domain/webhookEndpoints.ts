// The commands on webhook endpoints (the Integrations page and the tools add_webhook, remove_webhook): load
// what the deciders in webhooks.ts need, then record what they decide.
import type { Command } from "../../events/command.ts";
import { activeWebhookCount, lastEventPosition, webhookStateOf } from "../db/queries/webhooks.ts";
import {
  decideAddWebhook,
  decideEnableWebhook,
  decideRemoveWebhook,
  secretHint,
  type WebhookFilter,
  type WebhookInput,
} from "./webhooks.ts";

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

/** Adds an endpoint with a new signing secret (`secret`, made by the caller); `unsafe_origins` are the
 * configured origins a webhook may name although they are no public address. */
export const addWebhook: Command<
  { endpoint: WebhookInput; secret: string; unsafe_origins?: readonly string[] },
  { active: number; lastPosition: number; id: number },
  AddedWebhook
> = {
  load: async (w, _input, c) => {
    const [active, lastPosition] = await Promise.all([
      activeWebhookCount(w.tx, c.orgId),
      lastEventPosition(w.tx),
    ]);
    return { active, lastPosition, id: await w.nextId() };
  },
  decide: (st, input, { caller, now }) => {
    const events = decideAddWebhook(
      caller.orgId,
      st.id,
      st.active,
      input.endpoint,
      input.secret,
      st.lastPosition,
      now,
      input.unsafe_origins ?? [],
    );
    const d = events[0].data as AddedWebhook;
    return {
      events,
      result: {
        id: st.id,
        url: d.url,
        event_types: d.event_types,
        ...(d.filter ? { filter: d.filter } : {}),
        secret: input.secret,
        secret_hint: secretHint(input.secret),
        created_at: d.created_at,
      },
    };
  },
};

export const removeWebhook: Command<{ id: number }, string | undefined, { id: number; removed: true }> = {
  load: (w, input, c) => webhookStateOf(w.tx, c.orgId, input.id),
  decide: (state, input, { caller, now }) => ({
    events: decideRemoveWebhook(caller.orgId, input.id, state !== undefined && state !== "removed", now),
    result: { id: input.id, removed: true },
  }),
};

export const enableWebhook: Command<{ id: number }, string | undefined, { changed: boolean }> = {
  load: (w, input, c) => webhookStateOf(w.tx, c.orgId, input.id),
  decide: (state, input, { caller, now }) => {
    const events = decideEnableWebhook(caller.orgId, input.id, state, now);
    return { events, result: { changed: events.length > 0 } };
  },
};
