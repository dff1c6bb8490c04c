// Who runs a tool's command, as the write model records it on the events (events/command.ts): the caller's
// workspace and actor, the request and, for a tool that takes one, its idempotency key.
import type { Issuer } from "../../events/command.ts";
import type { AuthedContext } from "./tool.ts";

export function issuer(ctx: AuthedContext, idempotencyKey?: string): Issuer {
  const p = ctx.principal;
  return {
    caller: { orgId: p.orgId, actor: p.actor, actorName: p.actorName },
    metadata: {
      request_id: ctx.requestId,
      ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}),
    },
  };
}
