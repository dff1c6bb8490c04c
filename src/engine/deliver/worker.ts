// The retry loop of `rivals serve`: every 30 seconds, the deliveries whose next try is due (backoff after a
// failure, or left pending by a stop mid-delivery) are sent. Runs with the scheduler (RIVALS_SCHEDULER=off
// leaves both out).
import { Cron } from "croner";
import type { Services } from "../../services.ts";
import { deliverDue } from "./outbox.ts";

export function startDeliveryLoop(s: Services, pattern = "*/30 * * * * *"): Cron {
  return new Cron(pattern, { protect: true }, async () => {
    try {
      await deliverDue(s);
    } catch (e) {
      console.error(JSON.stringify({ level: "error", msg: "delivery loop", error: (e as Error).message }));
    }
  });
}
