// The team-chat connections: a Slack incoming webhook and a Microsoft Teams Workflows webhook, each connected
// (a public https address) or disconnected by an admin.
import type { EventMetadata, NewEvent } from "../../events/catalog.ts";
import { type Actor, type Command, runCommand } from "../../events/command.ts";
import type { EventStore } from "../../events/store.ts";
import { chatWebhookUrlOf } from "../db/queries/orgs.ts";
import { hostRefusal } from "./hostname.ts";
import { findOrg, type OrgState, orgNamed } from "./state.ts";
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

export interface ConnectChat {
  /** The workspace, by slug. */
  org: string;
  webhook_url: string;
  provider?: ChatProvider;
  /** Origins the operator allows anyway (RIVALS_UNSAFE_WEBHOOK_ORIGINS). */
  unsafe_origins?: readonly string[];
}

/** `rivals org connect-chat` and the monitoring settings page: records the team-chat (incoming webhook)
 * connection of an org. */
export const connectChatCommand: Command<
  ConnectChat,
  { org: OrgState | undefined; settings: WorkspaceSettings | undefined },
  { org: string; chat_connected?: boolean; teams_connected?: boolean; connected_at: string },
  Actor
> = {
  load: async (w, cmd) => {
    const org = await findOrg(w.tx, cmd.org);
    return { org, settings: org ? await loadSettings(w.tx, org.id) : undefined };
  },
  decide: (st, cmd, { now }) => {
    const org = orgNamed(st.org, cmd.org);
    const provider = cmd.provider ?? "slack";
    const events = decideConnectChat(st.settings!, cmd.webhook_url, now, cmd.unsafe_origins, provider);
    const connected = provider === "teams" ? { teams_connected: true } : { chat_connected: true };
    return { events, result: { org: org.slug, ...connected, connected_at: now.toISOString() } };
  },
};

export function connectChat(
  store: EventStore,
  orgSlug: string,
  webhookUrl: string,
  metadata: EventMetadata = {},
  unsafeOrigins: readonly string[] = [],
  provider: ChatProvider = "slack",
) {
  return runCommand(
    store,
    connectChatCommand,
    { org: orgSlug, webhook_url: webhookUrl, unsafe_origins: unsafeOrigins, provider },
    { caller: { actor: metadata.actor ?? "operator" }, metadata },
  );
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
export const disconnectChatCommand: Command<
  { provider?: ChatProvider },
  WorkspaceSettings & { version?: number },
  { changed: boolean }
> = {
  load: (w, _cmd, c) => loadSettings(w.tx, c.orgId, { version: true }),
  stream: (st) =>
    st.version === undefined
      ? undefined
      : { streamType: "org", streamId: String(st.orgId), version: st.version },
  decide: (st, cmd, { now }) => {
    const events = decideDisconnectChat(st, now, cmd.provider);
    return { events, result: { changed: events.length > 0 } };
  },
};

/** The connected webhook URL of an org, if any (for the settings page's test message). */
export async function chatWebhookUrl(
  tx: Exec,
  orgId: number,
  provider: ChatProvider = "slack",
): Promise<string | undefined> {
  return chatWebhookUrlOf(tx, orgId, provider);
}
