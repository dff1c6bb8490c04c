import { createApp } from "./app.ts";
import { startHistoryLoop } from "./engine/archive/background.ts";
import { startFreeBriefLoop } from "./engine/briefs/freeBriefs.ts";
import { startCompactionLoop } from "./engine/compaction/periodic.ts";
import { deliverDue } from "./engine/deliver/outbox.ts";
import { startWebhookLoop } from "./engine/deliver/webhookLoop.ts";
import { startDeliveryLoop } from "./engine/deliver/worker.ts";
import { recordServingBase } from "./engine/linkBase.ts";
import { startResearchRecovery } from "./engine/research/lease.ts";
import { Scheduler } from "./engine/schedule/scheduler.ts";
import type { Services } from "./services.ts";

/** Starts the HTTP server and stops cleanly on SIGINT/SIGTERM. */
export async function startServer(s: Services) {
  // Research runs whose instance stopped or died are marked failed before anything else runs (never left
  // running), and again every 30 s; runs another live instance holds are left to it.
  const research = await startResearchRecovery(s);
  const { app } = createApp(s);
  app.listen({ port: s.config.port, hostname: s.config.host });
  const port = app.server?.port;
  // Links a shell command writes (a cycle's emails and chat messages) point here (engine/linkBase.ts).
  await recordServingBase(s, s.config.baseUrlSet ? s.config.baseUrl : `http://localhost:${port}`);
  console.log(
    JSON.stringify({ listening: true, port, base_url: s.config.baseUrl, database: s.config.dbUrl }),
  );
  // Monitoring cycles at each workspace's cadence (docs/engine/cycles.md); RIVALS_SCHEDULER=off.
  const scheduler = s.config.scheduler ? new Scheduler(s).start() : undefined;
  if (scheduler) console.log(JSON.stringify({ scheduler: scheduler.instance, started: true }));
  // Deliveries left pending by a stop or waiting for a retry (docs/engine/deliver.md): at start, then every 30 s.
  const deliveries = s.config.scheduler ? startDeliveryLoop(s) : undefined;
  if (deliveries) void deliverDue(s).catch(() => {});
  // Webhook messages (docs/webhooks.md): the log's new events queued and due messages sent, every 5 s.
  const webhooks = s.config.scheduler ? startWebhookLoop(s) : undefined;
  // Free-brief requests left queued by a stop, and their emails to retry: at start, then every minute.
  const freeBriefs = startFreeBriefLoop(s);
  // Web-archive histories left unfinished by a stop, or queued by `rivals research`: at start, then every minute.
  const history = startHistoryLoop(s);
  // The old bookkeeping of cycles compacted every RIVALS_COMPACT_HOURS by one instance (docs/operations.md).
  const compaction = startCompactionLoop(s);
  const stop = async () => {
    await app.stop();
    await history.stop();
    await compaction.stop();
    await scheduler?.stop({ wait: false });
    await research.stop();
    deliveries?.stop();
    webhooks?.stop();
    freeBriefs.stop();
    s.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return app;
}
