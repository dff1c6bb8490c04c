// GET /healthz for load balancers and orchestrators: 200 while the database answers. Outside /api/v1, so it
// needs no key and is not rate limited; a failure goes through the one error hook (500 internal_error,
// nothing internal shown).
import { Elysia } from "elysia";
import { SERVER_INFO } from "../mcp/endpoint.ts";
import type { Services } from "../services.ts";

export function healthRoute(s: Services) {
  return new Elysia().get("/healthz", async ({ set }) => {
    await s.database.client.execute("SELECT 1");
    set.headers["cache-control"] = "no-store";
    return { status: "ok", version: SERVER_INFO.version };
  });
}
