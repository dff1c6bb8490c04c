// The team-chat connections: a Slack incoming webhook and a Microsoft Teams Workflows webhook, each connected
// (a public https address) or disconnected by an admin.
import type { EventMetadata, NewEvent } from "../../events/catalog.ts";
import type { EventStore } from "../../events/store.ts";
import { chatWebhookUrlOf } from "../db/queries/orgs.ts";
import { hostRefusal } from "./hostname.ts";
import { requireOrg } from "./state.ts";
import { checkUrl, InvalidInput } from "./validate.ts";
import { type Exec, loadSettings, orgStream, type WorkspaceSettings } from "./workspace.ts";

/** A team-chat webhook is an https URL of a public internet host (the one hostname rule), unless its origin
 * is one the operator listed as allowed anyway (RIVALS_UNSAFE_WEBHOOK_ORIGINS). */
export function checkWebhookUrl(
  webhookUrl: string,
  unsafeOrigins: readonly string[],
  field = "webhook",
): string {
  const url = checkUrl(webhookUrl, field);
  const u = new URL(url);
  if (unsafeOrigins.includes(u.origin)) return url;
  if (u.protocol !== "https:") throw new InvalidInput(`${field} must be an https URL`, field);
  if (u.username || u.password) throw new InvalidInput(`${field} must not contain credentials`, field);
  if (hostRefusal(u.hostname))
    throw new InvalidInput(`${field} must be the address of a public internet host`, field);
  return url;
}

export type ChatProvider = "slack" | "teams";

export function decideConnectChat(
  st: WorkspaceSettings,
  webhookUrl: string,
  now: Date,
  unsafeOrigins: readonly string[] = [],
  provider: ChatProvider = "slack",
): NewEvent[] {
  const url = checkWebhookUrl(webhookUrl, unsafeOrigins);
  return [
    {
      type: "ChatConnected",
      ...orgStream(st.orgId),
      data: { provider, webhook_url: url, connected_at: now.toISOString() },
    },
  ];
}

/** `rivals org connect-chat` and the monitoring settings page: records the team-chat (incoming webhook)
 * connection of an org. */
export async function connectChat(
  store: EventStore,
  orgSlug: string,
  webhookUrl: string,
  metadata: EventMetadata = {},
  unsafeOrigins: readonly string[] = [],
  provider: ChatProvider = "slack",
) {
  const { result } = await store.execute(async (w) => {
    const org = await requireOrg(w.tx, orgSlug);
    const st = await loadSettings(w.tx, org.id);
    const events = decideConnectChat(st, webhookUrl, w.now, unsafeOrigins, provider);
    const connected = provider === "teams" ? { teams_connected: true } : { chat_connected: true };
    return { events, result: { org: org.slug, ...connected, connected_at: w.now.toISOString() } };
  }, metadata);
  return result;
}

export function decideDisconnectChat(
  st: WorkspaceSettings,
  now: Date,
  provider: ChatProvider = "slack",
): NewEvent[] {
  if ((provider === "teams" ? st.teamsConnectedAt : st.chatConnectedAt) === null) return [];
  return [
    {
      type: "ChatDisconnected",
      ...orgStream(st.orgId),
      data: { disconnected_at: now.toISOString(), ...(provider === "teams" ? { provider } : {}) },
    },
  ];
}

/** The settings page's Disconnect: forgets the webhook. Chat delivery stays chosen but inactive (deliveryView
 * says so) until a connection is made again. */
export async function disconnectChat(
  store: EventStore,
  orgId: number,
  metadata: EventMetadata = {},
  provider: ChatProvider = "slack",
) {
  const { events } = await store.execute(async (w) => {
    const st = await loadSettings(w.tx, orgId);
    return { events: decideDisconnectChat(st, w.now, provider), result: null };
  }, metadata);
  return { changed: events.length > 0 };
}

/** The connected webhook URL of an org, if any (for the settings page's test message). */
export async function chatWebhookUrl(
  tx: Exec,
  orgId: number,
  provider: ChatProvider = "slack",
): Promise<string | undefined> {
  return chatWebhookUrlOf(tx, orgId, provider);
}
