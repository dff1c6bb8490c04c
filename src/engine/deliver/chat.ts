// The team-chat connections' one way out: the org's Slack or Teams webhook URL and a JSON POST to it, through the
// fetcher that holds only the webhook exemptions the operator configured (RIVALS_UNSAFE_WEBHOOK_ORIGINS).
// Deliveries and the settings page's test message both send with it.
import { type ChatProvider, chatWebhookUrl } from "../../domain/chat.ts";
import type { Services } from "../../services.ts";
import { type FetchResult, fetcherFor } from "../fetch/index.ts";

/** Posts `payload` to the org's webhook of `provider` (Slack or Microsoft Teams); undefined when it has none. */
export async function postToChat(
  s: Services,
  orgId: number,
  payload: unknown,
  provider: ChatProvider = "slack",
): Promise<FetchResult | undefined> {
  const url = await chatWebhookUrl(s.database, orgId, provider);
  if (!url) return undefined;
  return fetcherFor(s.config, "webhook").fetch({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
}
