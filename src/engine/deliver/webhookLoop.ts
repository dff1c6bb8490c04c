// The webhook loop of `rivals serve`: every 5 seconds the log's new events are queued for the endpoints that
// want them and the due messages are sent (a retry after its backoff, or one left by a stop mid-delivery).
// Runs with the scheduler (RIVALS_SCHEDULER=off leaves it out).
import { Cron } from "croner";
import type { Services } from "../../services.ts";
import { webhookRound } from "./webhooks.ts";

export function startWebhookLoop(s: Services, pattern = "*/5 * * * * *"): Cron {
  return new Cron(pattern, { protect: true }, async () => {
    try {
      await webhookRound(s);
    } catch (e) {
      console.error(JSON.stringify({ level: "error", msg: "webhook loop", error: (e as Error).message }));
    }
  });
}
