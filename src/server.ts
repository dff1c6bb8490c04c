import { createApp } from "./api/app.ts";
import type { Services } from "./services.ts";

/** Starts the HTTP server and stops cleanly on SIGINT/SIGTERM. */
export async function startServer(s: Services) {
  const { app } = createApp(s);
  app.listen({ port: s.config.port, hostname: process.env.HOST || "0.0.0.0" });
  const port = app.server?.port;
  console.log(
    JSON.stringify({ listening: true, port, base_url: s.config.baseUrl, database: s.config.dbUrl }),
  );
  const stop = async () => {
    await app.stop();
    s.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return app;
}
