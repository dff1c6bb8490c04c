// GET /healthz for load balancers and orchestrators: 200 while the database answers. Outside /api/v1, so it
// needs no key and is not rate limited; a failure goes through the one error hook (500 internal_error,
// nothing internal shown).
import { Elysia } from "elysia";
import { ping } from "../db/client.ts";
import type { Services } from "../services.ts";

/** `version` is the one the server card states (mcp/endpoint.ts SERVER_INFO). */
export function healthRoute(s: Services, version: string) {
  return new Elysia().get("/healthz", async ({ set }) => {
    await ping(s.database);
    set.headers["cache-control"] = "no-store";
    return { status: "ok", version };
  });
}
